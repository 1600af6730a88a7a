/**
 * Phase 2 of late materialization when the filter kept every row of a whole row group (a partition that proves
 * it, TPC-H q1's l_shipdate in 80 of 81 files): the other columns are decoded whole (ParquetSource.decode), with
 * no list of picked rows for decodeAt — which still serves row groups where only some rows were kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParquetDataWriter } from '../write/parquet-data-writer.ts';
import { parseSchema, type PrimitiveType } from '../spec/schema.ts';
import { memoryWriteIO } from '../write/testing/memory-write-io.ts';
import { openParquetSource, type ParquetSource } from './parquet-source.ts';
import { configureFileCache, DEFAULT_FILE_CACHE_BYTES } from './file-cache.ts';
import { readRowGroupLate, type ChunkFilter } from './late-materialization.ts';
import { compileArrowSelect } from './arrow-row-filter.ts';
import { compileRowTest } from '../parallel/row-filter.ts';
import type { BoundPredicate } from '../scan/bound-predicate.ts';
import type { ParquetColumnRequest } from './parquet-reader.ts';

const schema = parseSchema({
  type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'k', required: true, type: 'int' },
    { id: 2, name: 'v', required: false, type: 'long' },
  ],
});
const N = 40_000;

async function source(): Promise<{ source: ParquetSource; uri: string; decodeAtCalls: () => number }> {
  const io = memoryWriteIO();
  const w = new ParquetDataWriter(io, 'mem://t/data', schema, { rowGroupRows: N });
  await w.add({ length: N, columns: [Array.from({ length: N }, (_v, i) => i % 100), Array.from({ length: N }, (_v, i) => BigInt(i) * 3n)] });
  const [file] = await w.close();
  const src = await openParquetSource({ io, size: file!.fileSizeInBytes }, file!.path);
  expect(src.pageSelective).toBe(true);
  let calls = 0;
  const counted = new Proxy(src, {
    get(t, k) {
      const v = Reflect.get(t, k, t) as unknown;
      if (typeof v !== 'function') return v;
      const f = (v as (...a: unknown[]) => unknown).bind(t);
      return k === 'decodeAt' ? (...a: unknown[]) => { calls++; return f(...a); } : f;
    },
  });
  return { source: counted, uri: file!.path, decodeAtCalls: () => calls };
}

const INT = schema.fields[0]!.type as PrimitiveType;
const requests: ParquetColumnRequest[] = [{ fieldId: 1, type: INT, missingValue: null }, { fieldId: 2, type: schema.fields[1]!.type, missingValue: null }];

function filterOf(p: BoundPredicate): ChunkFilter {
  const ids = new Map([[1, 0], [2, 1]]);
  const test = compileRowTest(p, ids)!;
  return {
    columns: [0],
    select: (cols, length) => Array.from({ length }, (_v, r) => r).filter((r) => test(cols as unknown[][], r)),
    selectArrow: compileArrowSelect(p, ids)!,
  };
}

async function read(p: BoundPredicate): Promise<{ rows: [unknown, unknown][]; decodeAtCalls: number }> {
  const s = await source();
  const nameById = new Map([[1, 'k'], [2, 'v']]);
  const idByName = new Map([['k', 1], ['v', 2]]);
  const rows: [unknown, unknown][] = [];
  for await (const c of readRowGroupLate({ source: s.source, rg: 0, rows: N, position: 0, columns: requests, nameById, idByName, filter: filterOf(p), uri: s.uri })) {
    for (let r = 0; r < c.length; r++) rows.push([c.columns[0]![r], c.columns[1]![r]]);
  }
  return { rows, decodeAtCalls: s.decodeAtCalls() };
}

describe('late materialization keeping whole row groups', () => {
  beforeAll(() => configureFileCache(0));
  afterAll(() => configureFileCache(DEFAULT_FILE_CACHE_BYTES));

  it('decodes the other columns whole, without picks, when every row passed', async () => {
    const got = await read({ kind: 'compare', op: '>=', fieldId: 1, type: INT, value: 0 });
    expect(got.rows.length).toBe(N);
    expect(got.rows[12_345]).toEqual([45, 37_035n]);
    expect(got.decodeAtCalls).toBe(0);
  });

  it('still decodes at the picks when some rows failed', async () => {
    const got = await read({ kind: 'compare', op: '<', fieldId: 1, type: INT, value: 3 });
    expect(got.rows).toEqual(Array.from({ length: N }, (_v, i) => i).filter((i) => i % 100 < 3).map((i) => [i % 100, BigInt(i) * 3n]));
    expect(got.decodeAtCalls).toBeGreaterThan(0);
  });
});
