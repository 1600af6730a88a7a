/**
 * ChunkFilter.unreadWhenExact (late-materialization.ts): on a batch the Arrow pass judged whole, a listed filter
 * column is not converted — an all-NULL column of the kept rows stands in — and every other column, and every
 * batch the Arrow pass could not judge whole, keeps its real values.
 */
import { describe, expect, it } from 'vitest';
import { ParquetDataWriter } from '../write/parquet-data-writer.ts';
import { parseSchema, type PrimitiveType } from '../spec/schema.ts';
import { readParquetColumns, type ColumnChunk, type ParquetColumnRequest } from './parquet-reader.ts';
import { referencedFieldIds, type BoundPredicate } from '../scan/bound-predicate.ts';
import { compileRowTest } from '../parallel/row-filter.ts';
import { compileArrowSelect } from './arrow-row-filter.ts';
import { memoryWriteIO } from '../write/testing/memory-write-io.ts';
import { isExact } from '../parallel/exact-rows.ts';
import type { ChunkFilter } from './late-materialization.ts';

const schema = parseSchema({
  type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'k', required: true, type: 'int' },
    { id: 2, name: 'dt', required: false, type: 'date' },
    { id: 3, name: 's', required: false, type: 'string' },
  ],
});
const typeOf = (id: number): PrimitiveType => schema.fields[id - 1]!.type as PrimitiveType;
const row = (k: number): unknown[] => [k, k % 9 === 0 ? null : 19000 + (k % 500), `s${k % 13}`];
const N = 20_000;

async function writeFile() {
  const io = memoryWriteIO();
  const w = new ParquetDataWriter(io, 'mem://t/data', schema, { rowGroupRows: 12_000 });
  await w.add({ length: N, columns: schema.fields.map((_f, c) => Array.from({ length: N }, (_v, k) => row(k)[c])) });
  const [file] = await w.close();
  return { io, path: file!.path, size: file!.fileSizeInBytes };
}

const reqs: ParquetColumnRequest[] = [1, 2, 3].map((id) => ({ fieldId: id, type: typeOf(id), missingValue: null }));

function chunkFilter(p: BoundPredicate, arrow: boolean, unread?: ReadonlySet<number>): ChunkFilter {
  const columnOf = new Map(reqs.map((r, i) => [r.fieldId, i]));
  const test = compileRowTest(p, columnOf)!;
  const selectArrow = arrow ? compileArrowSelect(p, columnOf) : null;
  return {
    columns: [...referencedFieldIds(p)].map((id) => columnOf.get(id)!),
    select: (cols, length) => Array.from({ length }, (_v, r) => r).filter((r) => test(cols as unknown[][], r)),
    ...(selectArrow === null ? {} : { selectArrow }),
    ...(unread === undefined ? {} : { unreadWhenExact: unread }),
  };
}

async function collect(it: AsyncIterable<ColumnChunk>): Promise<{ rows: unknown[][]; exact: boolean[] }> {
  const rows: unknown[][] = [];
  const exact: boolean[] = [];
  for await (const c of it) {
    exact.push(isExact(c));
    for (let r = 0; r < c.length; r++) rows.push(c.columns.map((col) => col[r]));
  }
  return { rows, exact };
}

describe('filter columns unread on exact batches', () => {
  const dtAtMost: BoundPredicate = { kind: 'compare', op: '<=', fieldId: 2, type: typeOf(2), value: 19400 };
  const want = Array.from({ length: N }, (_v, k) => k).filter((k) => row(k)[1] !== null && (row(k)[1] as number) <= 19400);

  it('an exact batch carries NULL for the listed column, the real values for the others', async () => {
    const { io, path, size } = await writeFile();
    const got = await collect(readParquetColumns({ io, size }, path, reqs, { filter: chunkFilter(dtAtMost, true, new Set([2])) }));
    expect(got.exact.length).toBeGreaterThan(0);
    expect(got.exact.every((e) => e)).toBe(true);
    expect(got.rows).toEqual(want.map((k) => [k, null, row(k)[2]]));
    // the NULLs take no slot per row (unread-nulls.ts): one element per chunk, however many rows
    for await (const c of readParquetColumns({ io, size }, path, reqs, { filter: chunkFilter(dtAtMost, true, new Set([2])) })) {
      expect(Object.keys(c.columns[1]!)).toEqual([String(c.length - 1)]);
    }
    // without the set: the same rows with their dates
    const all = await collect(readParquetColumns({ io, size }, path, reqs, { filter: chunkFilter(dtAtMost, true) }));
    expect(all.rows).toEqual(want.map((k) => row(k)));
  });

  it('a batch the Arrow pass cannot judge keeps the column (its Filter reads it)', async () => {
    const { io, path, size } = await writeFile();
    const got = await collect(readParquetColumns({ io, size }, path, reqs, { filter: chunkFilter(dtAtMost, false, new Set([2])) }));
    expect(got.exact.some((e) => e)).toBe(false);
    expect(got.rows).toEqual(want.map((k) => row(k)));
  });

  it('a column listed but not judged whole (another conjunct the Arrow pass leaves open) keeps its values', async () => {
    const { io, path, size } = await writeFile();
    // a predicate over a string with a pattern the Arrow pass does not judge: the whole filter runs on JS values
    const p: BoundPredicate = { kind: 'and', args: [dtAtMost, { kind: 'compare', op: '>', fieldId: 3, type: typeOf(3), value: 's5' }] };
    const keep = want.filter((k) => (row(k)[2] as string) > 's5');
    const got = await collect(readParquetColumns({ io, size }, path, reqs, { filter: chunkFilter(p, true, new Set([2])) }));
    const exact = got.exact.every((e) => e);
    expect(got.rows).toEqual(keep.map((k) => (exact ? [k, null, row(k)[2]] : row(k))));
  });
});
