/**
 * The per-file rules of metadata aggregates on hand-made DataFiles: when a file's metadata is exact (counts,
 * bounds, identity partition values) and when it is not (deletes, missing counts, NaN, a float bound of 0,
 * string bounds, a filter the file only partly satisfies).
 */
import { describe, expect, it } from 'vitest';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import type { MetadataAggregate, ScanPredicate } from '../../catalog/table-source.ts';
import type { DataFile } from '../spec/manifest.ts';
import type { PartitionSpec } from '../spec/partition-spec.ts';
import { parsePrimitive, type NestedField } from '../spec/schema.ts';
import { singleValueBytes } from '../write/single-value-bytes.ts';
import { addFile, aggregateTargets, bindExact, initialValues, mustMatch, type AggregateColumn } from './metadata-aggregate.ts';
import type { FileScanTask } from './table-scan.ts';

const field = (id: number, name: string, type: string): NestedField => ({ id, name, required: false, type: parsePrimitive(type) });
// columns: 0 i int, 1 f double, 2 n decimal(10,2), 3 s string, 4 p int (identity partition, field 1000)
const COLUMNS: AggregateColumn[] = [
  { field: field(1, 'i', 'int'), oid: Oid.int4, comparable: true },
  { field: field(2, 'f', 'double'), oid: Oid.float8, comparable: true },
  { field: field(3, 'n', 'decimal(10, 2)'), oid: Oid.numeric, comparable: true },
  { field: field(4, 's', 'string'), oid: Oid.text, comparable: true },
  { field: field(5, 'p', 'int'), oid: Oid.int4, comparable: true },
];
const SPEC: PartitionSpec = { specId: 0, fields: [{ sourceId: 5, fieldId: 1000, name: 'p', transform: 'identity' }] };

interface Stats { nulls?: number; nans?: number; lo?: unknown; hi?: unknown }

/** a data file of `rows` rows with stats per field id and identity partition value p */
function file(rows: number, stats: Record<number, Stats>, p: number | null = 1): DataFile {
  const m = <T>(f: (s: Stats, id: number) => T | undefined): Map<number, T> => {
    const out = new Map<number, T>();
    for (const [id, s] of Object.entries(stats)) {
      const v = f(s, Number(id));
      if (v !== undefined) out.set(Number(id), v);
    }
    return out;
  };
  const type = (id: number) => COLUMNS.find((c) => c.field.id === id)!.field.type as ReturnType<typeof parsePrimitive>;
  return {
    content: 0, filePath: `f${rows}`, fileFormat: 'PARQUET', partition: new Map([[1000, p]]), specId: 0, recordCount: BigInt(rows),
    fileSizeInBytes: 100n, columnSizes: new Map(), valueCounts: m(() => BigInt(rows)),
    nullValueCounts: m((s) => (s.nulls === undefined ? undefined : BigInt(s.nulls))),
    nanValueCounts: m((s) => (s.nans === undefined ? undefined : BigInt(s.nans))),
    lowerBounds: m((s, id) => (s.lo === undefined ? undefined : singleValueBytes(type(id), s.lo))),
    upperBounds: m((s, id) => (s.hi === undefined ? undefined : singleValueBytes(type(id), s.hi))),
    keyMetadata: null, splitOffsets: null, equalityIds: null, sortOrderId: null, referencedDataFile: null, firstRowId: null,
    contentOffset: null, contentSizeInBytes: null,
  };
}

const task = (f: DataFile, extra: Partial<FileScanTask> = {}): FileScanTask => ({ file: f, spec: SPEC, dataSequenceNumber: 1n, positionDeletes: [], equalityDeletes: [], ...extra });

/** the answer over these tasks, or null */
function answer(aggs: MetadataAggregate[], tasks: FileScanTask[], filters?: ScanPredicate[]): unknown[] | null {
  const targets = aggregateTargets(COLUMNS, aggs);
  const filter = bindExact(filters, COLUMNS);
  if (targets === null || filter === null) return null;
  const values = initialValues(aggs);
  return tasks.every((t) => addFile(values, aggs, targets, t, filter)) ? values : null;
}

const A = {
  star: { kind: 'countStar' } as MetadataAggregate,
  count: (column: number): MetadataAggregate => ({ kind: 'count', column }),
  min: (column: number): MetadataAggregate => ({ kind: 'min', column }),
  max: (column: number): MetadataAggregate => ({ kind: 'max', column }),
};

describe('metadata aggregates per file', () => {
  const f1 = file(10, { 1: { nulls: 2, lo: -5, hi: 7 }, 2: { nulls: 0, nans: 0, lo: 1.5, hi: 9.25 }, 3: { nulls: 1, lo: Numeric.of(-150n, 2), hi: Numeric.of(99999n, 2) }, 4: { nulls: 0, lo: 'a', hi: 'q' } }, 1);
  const f2 = file(5, { 1: { nulls: 5 }, 2: { nulls: 1, nans: 0, lo: -3.5, hi: 2 }, 3: { nulls: 0, lo: Numeric.of(1n, 2), hi: Numeric.of(100n, 2) }, 4: { nulls: 5 } }, 2);

  it('sums record and null counts and takes min / max of the bounds', () => {
    const got = answer([A.star, A.count(0), A.min(0), A.max(0), A.min(1), A.max(1), A.min(2), A.max(2), A.count(3)], [task(f1), task(f2)]);
    expect(got?.map((v) => (Numeric.isNumeric(v) ? v.toString() : v))).toEqual([15n, 8n, -5, 7, -3.5, 9.25, '-1.50', '999.99', 10n]);
    expect(answer([A.star, A.min(0)], [])).toEqual([0n, null]);
  });

  it('falls back on deletes, unknown task parts and missing counts or bounds', () => {
    const del = { file: f1, sequenceNumber: 2n };
    expect(answer([A.star], [task(f1, { positionDeletes: [del] })])).toBeNull();
    expect(answer([A.star], [task(f1, { equalityDeletes: [del] })])).toBeNull();
    expect(answer([A.star], [{ ...task(f1), deletionVector: {} } as FileScanTask])).toBeNull();
    expect(answer([A.count(0)], [task(file(3, { 1: { lo: 1, hi: 2 } }))])).toBeNull();
    expect(answer([A.max(0)], [task(file(3, { 1: { nulls: 0, lo: 1 } }))])).toBeNull();
    // no value in the file: no bound needed
    expect(answer([A.max(0)], [task(file(3, { 1: { nulls: 3 } }))])).toEqual([null]);
  });

  it('floats need nan counts of 0 and a non-zero bound; strings never give min / max', () => {
    expect(answer([A.max(1)], [task(file(3, { 2: { nulls: 0, nans: 1, lo: 1, hi: 2 } }))])).toBeNull();
    expect(answer([A.max(1)], [task(file(3, { 2: { nulls: 0, lo: 1, hi: 2 } }))])).toBeNull();
    // Parquet writes -0.0 as the lower bound of +0.0 values: the sign is not known
    expect(answer([A.min(1)], [task(file(3, { 2: { nulls: 0, nans: 0, lo: -0, hi: 2 } }))])).toBeNull();
    expect(answer([A.max(1)], [task(file(3, { 2: { nulls: 0, nans: 0, lo: -1, hi: 0 } }))])).toBeNull();
    expect(answer([A.min(3)], [task(f1)])).toBeNull();
    expect(answer([A.count(3)], [task(f1)])).toEqual([10n]);
  });

  it('a filter answers only when every kept file satisfies it for all rows', () => {
    const p = (op: '=' | '<' | '>' | '>=' | '<>', value: unknown, column = 4): ScanPredicate => ({ kind: 'compare', op, column, value });
    expect(answer([A.star], [task(f1)], [p('=', 1)])).toEqual([10n]);
    expect(answer([A.star], [task(f1)], [{ kind: 'in', column: 4, values: [1, 3] }])).toEqual([10n]);
    expect(answer([A.star], [task(f1)], [p('<>', 2), { kind: 'isNotNull', column: 4 }])).toEqual([10n]);
    expect(answer([A.star], [task(file(4, {}, null))], [{ kind: 'isNull', column: 4 }])).toEqual([4n]);
    // bounds: all of i in [-5, 7] but 2 nulls: `i >= -5` is not true for every row
    expect(answer([A.star], [task(f1)], [p('>=', -5, 0)])).toBeNull();
    expect(answer([A.star], [task(f2)], [p('>=', 1n, 2)].map((x) => ({ ...x, value: Numeric.of(1n, 2) })))).toEqual([5n]);
    expect(answer([A.star], [task(f2)], [p('<', Numeric.of(100n, 2), 2)])).toBeNull();
    // a string range on a string column is never taken as exact (collation), equality is
    const sf = file(2, { 4: { nulls: 0, lo: 'a', hi: 'q' } });
    expect(answer([A.star], [task(sf)], [p('<', 'z', 3)])).toBeNull();
    // an unbindable leaf (NaN) makes the whole filter inexact instead of being dropped
    expect(bindExact([p('>', NaN, 1), p('=', 1)], COLUMNS)).toBeNull();
    expect(mustMatch({ kind: 'or', args: [{ kind: 'false' }, { kind: 'true' }] }, f1, SPEC)).toBe(true);
  });
});
