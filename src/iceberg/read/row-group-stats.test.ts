/**
 * Row groups and their statistics as lakegate's writer produces them: the footer parsed with ranged reads
 * (thrift-compact.ts), per-type min/max/null counts decoded to JS values equal to the written extremes, row
 * groups selected by a predicate, and readParquetColumns reading only those (positions kept for deletes).
 */
import { describe, expect, it } from 'vitest';
import { ParquetDataWriter } from '../write/parquet-data-writer.ts';
import { parseSchema, type PrimitiveType } from '../spec/schema.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { readParquetFooter } from './parquet-footer.ts';
import { rowGroupFieldStats, selectRowGroups } from './row-group-stats.ts';
import { readParquetColumns } from './parquet-reader.ts';
import { emptyScanMetrics } from '../../catalog/table-source.ts';
import type { BoundPredicate } from '../scan/bound-predicate.ts';
import { memoryWriteIO } from '../write/testing/memory-write-io.ts';

const memoryIO = memoryWriteIO;

const schema = parseSchema({
  type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'i', required: true, type: 'int' },
    { id: 2, name: 'l', required: false, type: 'long' },
    { id: 3, name: 'd', required: false, type: 'double' },
    { id: 4, name: 'n', required: false, type: 'decimal(12, 2)' },
    { id: 5, name: 's', required: false, type: 'string' },
    { id: 6, name: 'dt', required: false, type: 'date' },
    { id: 7, name: 'tz', required: false, type: 'timestamptz' },
    { id: 8, name: 'b', required: false, type: 'boolean' },
    { id: 9, name: 'bin', required: false, type: 'binary' },
  ],
});
const N = 1000;
const RG = 300;
const row = (k: number): unknown[] => [
  k, k % 7 === 0 ? null : BigInt(k) * 1_000_000_000n, k / 8, Numeric.of(BigInt(k * 3 - 500), 2), `s${String(k).padStart(5, '0')}é`,
  19000 + k, 1_700_000_000_000_000n + BigInt(k) * 3_600_000_000n, k % 2 === 0, new Uint8Array([k >> 8, k & 255]),
];

async function writeFile(): Promise<{ io: ReturnType<typeof memoryIO>; path: string; size: number }> {
  const io = memoryIO();
  const w = new ParquetDataWriter(io, 'mem://t/data', schema, { rowGroupRows: RG });
  const columns = schema.fields.map((_f, c) => Array.from({ length: N }, (_v, k) => row(k)[c]));
  await w.add({ length: N, columns });
  const [file] = await w.close();
  return { io, path: file!.path, size: file!.fileSizeInBytes };
}

describe('Parquet row-group statistics', () => {
  it('the writer cuts row groups at rowGroupRows and every type decodes to the written extremes', async () => {
    const { io, path, size } = await writeFile();
    const footer = await readParquetFooter(io, path, size);
    expect(footer.rowGroups.map((g) => g.numRows)).toEqual([300, 300, 300, 100]);
    expect(footer.hasColumnOrders).toBe(true);
    for (let g = 0; g < 4; g++) {
      const first = g * RG;
      const last = Math.min(N, first + RG) - 1;
      const st = (id: number) => rowGroupFieldStats(footer, g, id, schema.fields[id - 1]!.type as PrimitiveType);
      expect(st(1)).toMatchObject({ lower: first, upper: last, nullCount: 0 });
      const nulls = Array.from({ length: last - first + 1 }, (_v, j) => first + j).filter((k) => k % 7 === 0).length;
      expect(st(2)).toMatchObject({ lower: row(first % 7 === 0 ? first + 1 : first)[1], upper: row(last % 7 === 0 ? last - 1 : last)[1], nullCount: nulls });
      expect(st(3)!.lower === first / 8 && st(3)!.upper === last / 8).toBe(true); // min 0 may be written as -0
      expect((st(4)!.lower as Numeric).toString()).toBe(Numeric.of(BigInt(first * 3 - 500), 2).toString());
      expect((st(4)!.upper as Numeric).toString()).toBe(Numeric.of(BigInt(last * 3 - 500), 2).toString());
      expect(st(5)).toMatchObject({ lower: row(first)[4], upper: row(last)[4] });
      expect(st(6)).toMatchObject({ lower: 19000 + first, upper: 19000 + last });
      expect(st(7)).toMatchObject({ lower: row(first)[6], upper: row(last)[6] });
      expect(st(8)).toMatchObject({ lower: false, upper: true });
      expect(st(9)).toMatchObject({ lower: row(first)[8], upper: row(last)[8] });
    }
  });

  it('selects the row groups a predicate may match and reads only those (positions kept)', async () => {
    const { io, path, size } = await writeFile();
    const footer = await readParquetFooter(io, path, size);
    const typeOf = (id: number) => schema.fields[id - 1]!.type as PrimitiveType;
    const t = (id: number) => typeOf(id);
    const p = (b: BoundPredicate): number[] => selectRowGroups(footer, b, typeOf);
    expect(p({ kind: 'compare', op: '=', fieldId: 1, type: t(1), value: 450 })).toEqual([1]);
    expect(p({ kind: 'compare', op: '>=', fieldId: 6, type: t(6), value: 19000 + 899 })).toEqual([2, 3]);
    expect(p({ kind: 'compare', op: '<', fieldId: 5, type: t(5), value: 's00300' })).toEqual([0]);
    expect(p({ kind: 'startsWith', fieldId: 5, type: t(5), prefix: 's009' })).toEqual([3]);
    expect(p({ kind: 'compare', op: '>', fieldId: 3, type: t(3), value: 1 })).toEqual([0, 1, 2, 3]); // no NaN count in Parquet
    expect(p({ kind: 'compare', op: '<', fieldId: 3, type: t(3), value: 1 })).toEqual([0]);
    expect(p({ kind: 'compare', op: '>', fieldId: 4, type: t(4), value: Numeric.parse('22') })).toEqual([3]);
    expect(p({ kind: 'compare', op: '>', fieldId: 7, type: t(7), value: 1_700_000_000_000_000n + 950n * 3_600_000_000n })).toEqual([3]);
    expect(p({ kind: 'isNull', fieldId: 1, type: t(1) })).toEqual([]);

    const m = emptyScanMetrics();
    const before = io.ranged;
    const chunks = [];
    for await (const c of readParquetColumns({ io, size }, path, [{ fieldId: 1, type: t(1), missingValue: null }], { rowGroups: [1, 3], metrics: m })) chunks.push(c);
    expect(chunks.map((c) => c.firstRowPosition)).toEqual([300, 900]);
    expect(chunks.flatMap((c) => c.columns[0]!)).toEqual([...Array.from({ length: 300 }, (_v, j) => 300 + j), ...Array.from({ length: 100 }, (_v, j) => 900 + j)]);
    expect(m).toMatchObject({ rowGroupsTotal: 4, rowGroupsScanned: 2, rowsDecoded: 400 });
    // a file under 64 KiB came whole with its footer tail: every range is answered from the footer cache
    expect(m.bytesRead).toBe(io.ranged - before);
    expect(m.bytesRead).toBe(0);
  });
});
