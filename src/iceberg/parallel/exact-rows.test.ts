/**
 * The scan's exactness signal (exact-rows.ts): late materialization marks a chunk only when the Arrow pass
 * judged the whole pushed filter on its rows — never when a conjunct (a float's, a column the file lacks) was
 * left to the JS-value test — and every row of a marked chunk satisfies the filter.
 */
import { describe, expect, it } from 'vitest';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { ParquetDataWriter } from '../write/parquet-data-writer.ts';
import { memoryWriteIO } from '../write/testing/memory-write-io.ts';
import { parseSchema, type PrimitiveType } from '../spec/schema.ts';
import { readParquetColumns, type ParquetColumnRequest } from '../read/parquet-reader.ts';
import { compileArrowSelect } from '../read/arrow-row-filter.ts';
import type { ChunkFilter } from '../read/late-materialization.ts';
import { referencedFieldIds, type BoundPredicate } from '../scan/bound-predicate.ts';
import { compileRowTest } from './row-filter.ts';
import { isExact } from './exact-rows.ts';

const schema = parseSchema({
  type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'i', required: false, type: 'int' },
    { id: 2, name: 'f', required: false, type: 'double' },
    { id: 3, name: 'n', required: false, type: 'decimal(12, 2)' },
    { id: 4, name: 's', required: false, type: 'string' },
  ],
});
const typeOf = (id: number): PrimitiveType => (id === 99 ? schema.fields[0]!.type : schema.fields[id - 1]!.type) as PrimitiveType;
const N = 3000;
const row = (k: number): unknown[] => [k % 9 === 0 ? null : k, k % 5 === 0 ? NaN : k / 4, Numeric.of(BigInt(k), 2), `v${k % 4}`];

async function file() {
  const io = memoryWriteIO();
  const w = new ParquetDataWriter(io, 'mem://t/data', schema, { rowGroupRows: 1000 });
  await w.add({ length: N, columns: schema.fields.map((_f, c) => Array.from({ length: N }, (_v, k) => row(k)[c])) });
  const [f] = await w.close();
  return { io, path: f!.path, size: f!.fileSizeInBytes };
}

/** the reader's filter as file-scan-task-reader.ts builds it (field 99: not in the file) */
function filterOf(p: BoundPredicate, reqs: readonly ParquetColumnRequest[]): ChunkFilter {
  const at = new Map(reqs.map((r, i) => [r.fieldId, i]));
  const test = compileRowTest(p, at)!;
  const selectArrow = compileArrowSelect(p, at);
  return {
    columns: [...referencedFieldIds(p)].map((id) => at.get(id)!),
    ...(selectArrow === null ? {} : { selectArrow }),
    select: (cols, length) => Array.from({ length }, (_v, r) => r).filter((r) => test(cols as unknown[][], r)),
  };
}

const lt = (fieldId: number, value: unknown): BoundPredicate => ({ kind: 'compare', op: '<', fieldId, type: typeOf(fieldId), value });

describe('exact chunks of late materialization', () => {
  it('marks chunks only when the Arrow pass judged the whole filter', async () => {
    const { io, path, size } = await file();
    const reqs: ParquetColumnRequest[] = [1, 2, 3, 4, 99].map((id) => ({ fieldId: id, type: typeOf(id), missingValue: id === 99 ? 5 : null }));
    const cases: [string, BoundPredicate, boolean, (r: unknown[]) => boolean][] = [
      ['integer', lt(1, 2500), true, (r) => r[0] !== null && (r[0] as number) < 2500],
      ['integer and decimal and string', { kind: 'and', args: [lt(1, 2500), lt(3, Numeric.of(2000n, 2)), { kind: 'in', fieldId: 4, type: typeOf(4), values: ['v1', 'v2'] }] }, true,
        (r) => r[0] !== null && (r[0] as number) < 2500 && (r[2] as Numeric).compare(Numeric.of(2000n, 2)) < 0 && (r[3] === 'v1' || r[3] === 'v2')],
      ['a float conjunct (NaN)', { kind: 'and', args: [lt(1, 2500), lt(2, 100)] }, false, (r) => r[0] !== null && (r[0] as number) < 2500 && (Number.isNaN(r[1]) || (r[1] as number) < 100)],
      ['a column the file lacks', { kind: 'and', args: [lt(1, 2500), lt(99, 7)] }, false, (r) => r[0] !== null && (r[0] as number) < 2500],
      ['an OR with a float arm', { kind: 'or', args: [lt(1, 10), lt(2, 1)] }, false, (r) => (r[0] !== null && (r[0] as number) < 10) || Number.isNaN(r[1]) || (r[1] as number) < 1],
    ];
    for (const [name, p, exact, want] of cases) {
      let marked = 0, unmarked = 0, rows = 0;
      for await (const c of readParquetColumns({ io, size }, path, reqs, { filter: filterOf(p, reqs) })) {
        if (isExact(c)) marked++;
        else unmarked++;
        for (let r = 0; r < c.length; r++) {
          const v = c.columns.map((col) => col[r]);
          expect(want(v), `${name}: row ${JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? String(x) : x))}`).toBe(true);
          rows++;
        }
      }
      expect(rows, name).toBe(Array.from({ length: N }, (_v, k) => row(k)).filter(want).length);
      expect(exact ? [marked > 0, unmarked] : [marked, unmarked > 0], name).toEqual(exact ? [true, 0] : [0, true]);
    }
  });
});
