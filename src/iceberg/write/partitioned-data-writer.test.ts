/**
 * PartitionedDataWriter with typed batches (COPY) against the same rows as JS values: for every partition
 * transform over every typed column kind (and JS-values columns), the same partitions (tuples, directories),
 * the same rows per partition in the same order, the same per-file metrics; many partitions under a small
 * buffer budget still write one file per partition without losing or reordering rows, its many flushes merged
 * into row groups of up to rowGroupRows rows (metrics merged over them), and roll at the target size; the
 * encoded pieces held for merging stay within their own budget; the fast grouping helpers equal the transforms
 * they stand for.
 */
import { describe, expect, it } from 'vitest';
import { PartitionedDataWriter, type PartitionedFileInfo } from './partitioned-data-writer.ts';
import { readParquetColumns } from '../read/parquet-reader.ts';
import { parseSchema } from '../spec/schema.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { bindPartitionSpec } from '../transforms/partition-path.ts';
import { partitionTransform } from '../transforms/partition-transform.ts';
import { DecimalBuilder, Int32Builder, Int64Builder, Utf8Builder } from './typed-column-builders.ts';
import { TypedBatch, materializeColumn, type TypedColumn } from './typed-columns.ts';
import { monthOfDays, murmurLong, murmurRange, typedPartitionGroups } from './typed-partition-groups.ts';
import { partitionKey } from '../transforms/partition-path.ts';
import { murmur3x86_32 } from '../transforms/murmur3.ts';
import { memoryWriteIO } from './testing/memory-write-io.ts';
import { parquetFooterOf } from './parquet-splice.ts';
import { intField, listField, type TStruct } from './thrift-compact-tree.ts';
import { encodeSlotsInUse } from './parquet-encode-pool.ts';
import { ENCODE_SLOTS } from './parquet-data-writer.ts';

const schema = parseSchema({
  type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'i', required: true, type: 'int' },
    { id: 2, name: 'l', required: false, type: 'long' },
    { id: 3, name: 'n', required: false, type: 'decimal(15, 2)' },
    { id: 4, name: 'd', required: false, type: 'date' },
    { id: 5, name: 's', required: false, type: 'string' },
    { id: 6, name: 'ts', required: false, type: 'timestamp' },
  ],
});
const enc = new TextEncoder();

/** rows k·n … k·n+n−1 as typed columns; every 11th row NULL where nullable; ts is a JS-values column */
function typedBatch(k: number, n: number): TypedBatch {
  const i = new Int32Builder(n, 'int');
  const l = new Int64Builder(n);
  const d = new DecimalBuilder(n, 15, 2);
  const dt = new Int32Builder(n, 'date');
  const s = new Utf8Builder(n);
  const ts: unknown[] = [];
  for (let r = k * n; r < k * n + n; r++) {
    const x = (r * 7919) % 307;
    i.append(x - 500);
    if (r % 11 === 5) {
      l.appendNull(); d.appendNull(); dt.appendNull(); s.appendNull(); ts.push(null);
      continue;
    }
    if (r % 13 === 0) l.value(-(2n ** 62n) + BigInt(x)); else l.appendNumber(x * 1_000_003 - 400_000_000);
    d.appendUnscaled(x * 37 - 20_000);
    dt.append(8000 + ((x * 31) % 1500) - (r % 17 === 0 ? 12_000 : 0));
    const str = x % 3 === 0 ? `é${x}ü` : `s${x % 41}`;
    const b = enc.encode(str);
    s.appendBytes(b, 0, b.length);
    ts.push(BigInt(x - 300) * 3_600_000_000n + 1_234_567n);
  }
  const cols: TypedColumn[] = [i.finish(), l.finish(), d.finish(), dt.finish(), s.finish(), { kind: 'values', length: n, values: ts }];
  return new TypedBatch(n, cols);
}

type Spec = ReadonlyArray<[string, string]>;

interface Written {
  readonly files: PartitionedFileInfo[];
  readonly rows: unknown[][];
  /** row groups of each file */
  readonly rowGroups: number[];
  /** rows of each row group of each file */
  readonly groupRows: number[];
}

async function write(spec: Spec, plain: boolean, options: { partitionBufferBytes?: number; targetFileSizeBytes?: number; rowGroupRows?: number; batches?: number; rows?: number } = {}): Promise<Map<string, Written>> {
  const fields = bindPartitionSpec({
    specId: 0,
    fields: spec.map(([col, transform], k) => ({ sourceId: schema.fields.find((f) => f.name === col)!.id, fieldId: 1000 + k, name: `${col}_${k}`, transform })),
  }, schema);
  const io = memoryWriteIO();
  const w = new PartitionedDataWriter(io, 'memory://t/data', schema, fields, { relationName: 't', workerMinBytes: Infinity, ...options });
  // fresh batches each time: the typed path recycles a batch's buffers once its rows are staged
  for (let k = 0; k < (options.batches ?? 4); k++) {
    const b = typedBatch(k, options.rows ?? 700);
    await w.add(plain ? { length: b.length, columns: b.typed.map(materializeColumn) } : b);
  }
  const out = new Map<string, Written>();
  for (const f of await w.close()) {
    const dir = f.path.slice(0, f.path.lastIndexOf('/'));
    let p = out.get(dir);
    if (p === undefined) out.set(dir, (p = { files: [], rows: [], rowGroups: [], groupRows: [] }));
    p.files.push(f);
    const bytes = io.files.get(f.path)!;
    expect(f.fileSizeInBytes).toBe(bytes.byteLength);
    const groups = listField(parquetFooterOf(bytes).meta, 4);
    p.rowGroups.push(groups.length);
    p.groupRows.push(...groups.map((g) => intField(g.v as TStruct, 3)!));
    for await (const chunk of readParquetColumns(bytes, f.path, schema.fields.map((x) => ({ fieldId: x.id, type: x.type, missingValue: null })))) {
      for (let r = 0; r < chunk.length; r++) p.rows.push(chunk.columns.map((c) => c[r]));
    }
  }
  return out;
}

const metricsOf = (files: readonly PartitionedFileInfo[]): unknown => files.map((f) => ({
  rows: f.recordCount,
  partition: f.partition.map((v) => (Numeric.isNumeric(v) ? v.toString() : v)),
  m: f.metrics.map((m) => [m.fieldId, m.valueCount, m.nullCount, m.lowerBound(), m.upperBound()]),
}));

const specs: ReadonlyArray<[string, Spec]> = [
  ['month(date)', [['d', 'month']]],
  ['year(date)', [['d', 'year']]],
  ['day(date)', [['d', 'day']]],
  ['identity(date)', [['d', 'identity']]],
  ['bucket(date)', [['d', 'bucket[7]']]],
  ['identity(int)', [['i', 'identity']]],
  ['bucket(int)', [['i', 'bucket[5]']]],
  ['truncate(int)', [['i', 'truncate[100]']]],
  ['identity(long)', [['l', 'identity']]],
  ['bucket(long)', [['l', 'bucket[3]']]],
  ['truncate(long)', [['l', 'truncate[1000000000]']]],
  ['identity(string)', [['s', 'identity']]],
  ['bucket(string)', [['s', 'bucket[4]']]],
  ['truncate(string)', [['s', 'truncate[1]']]],
  ['identity(decimal)', [['n', 'identity']]],
  ['truncate(decimal)', [['n', 'truncate[5000]']]],
  ['bucket(decimal)', [['n', 'bucket[3]']]],
  ['hour(timestamp)', [['ts', 'hour']]],
  ['day(timestamp)', [['ts', 'day']]],
  ['void', [['i', 'void']]],
  ['month(date), bucket(string), truncate(int)', [['d', 'month'], ['s', 'bucket[2]'], ['i', 'truncate[500]']]],
];

describe('PartitionedDataWriter: typed batches = JS values', () => {
  for (const [name, spec] of specs) {
    it(name, async () => {
      const plain = await write(spec, true);
      const typed = await write(spec, false);
      expect([...typed.keys()].sort()).toEqual([...plain.keys()].sort());
      for (const [dir, p] of plain) {
        const t = typed.get(dir)!;
        expect([dir, metricsOf(t.files)]).toEqual([dir, metricsOf(p.files)]);
        expect([dir, t.rows]).toEqual([dir, p.rows]);
      }
      const rows = [...typed.values()].reduce((s, p) => s + p.rows.length, 0);
      expect(rows).toBe(2800);
    }, 30_000);
  }

  it('many partitions under a small budget: one file per partition, its flushes merged into one row group, every row once, in order, same metrics', async () => {
    const spec: Spec = [['d', 'month']];
    const plain = await write(spec, true, { batches: 6, rows: 1500 });
    const typed = await write(spec, false, { batches: 6, rows: 1500, partitionBufferBytes: 32 * 1024 });
    expect(plain.size).toBeGreaterThan(40);
    expect([...typed.keys()].sort()).toEqual([...plain.keys()].sort());
    for (const [dir, p] of plain) {
      const t = typed.get(dir)!;
      expect([dir, t.files.length, p.files.length]).toEqual([dir, 1, 1]);
      expect([dir, t.rows]).toEqual([dir, p.rows]);
      // metrics merged over the row groups = metrics of the rows written in one piece
      expect([dir, metricsOf(t.files)]).toEqual([dir, metricsOf(p.files)]);
    }
    // the budget flushed partitions many times (see the stats test): the pieces were merged into one row group
    expect([...typed.values()].every((p) => p.rowGroups.length === 1 && p.rowGroups[0] === 1)).toBe(true);
    expect(Math.max(...[...plain.values()].flatMap((p) => p.rowGroups))).toBe(1);
  }, 120_000);

  it('row groups of a partitioned write are rowGroupRows rows whatever the budget (pieces merged, a new group when the next would not fit)', async () => {
    const typed = await write([['d', 'year']], false, { batches: 10, rows: 2000, partitionBufferBytes: 24 * 1024, rowGroupRows: 1000 });
    const plain = await write([['d', 'year']], true, { batches: 10, rows: 2000 });
    for (const [dir, p] of plain) {
      const t = typed.get(dir)!;
      expect([dir, t.rows]).toEqual([dir, p.rows]);
      expect(t.groupRows.reduce((s, n) => s + n, 0)).toBe(p.rows.length);
      // flushes of ≈ 24 KiB / 5 partitions ≈ 100–300 rows each fill row groups up to 1000 rows
      const full = t.groupRows.slice(0, -1);
      for (const n of full) {
        expect(n).toBeLessThanOrEqual(1000);
        expect(n).toBeGreaterThan(600);
      }
    }
    expect([...typed.values()].some((p) => p.groupRows.length > 2)).toBe(true);
  }, 60_000);

  it('a partition rolls to a new file at the target size, not before', async () => {
    const spec: Spec = [['i', 'bucket[2]']];
    const typed = await write(spec, false, { batches: 8, rows: 2000, partitionBufferBytes: 24 * 1024, targetFileSizeBytes: 64 * 1024 });
    const rows = [...typed.values()].reduce((s, p) => s + p.rows.length, 0);
    expect(rows).toBe(16_000);
    for (const p of typed.values()) {
      // ≈ 8000 rows × ≈ 37 Arrow bytes per partition: several files, each of one row group (its flushes merged)
      expect(p.files.length).toBeGreaterThan(2);
      expect(p.files.length).toBeLessThan(10);
      expect(Math.max(...p.rowGroups)).toBe(1);
      expect(p.files.reduce((s, f) => s + f.recordCount, 0)).toBe(p.rows.length);
    }
  }, 60_000);

  it('the budget holds after every batch: the largest partitions are flushed as row groups, counted in stats', async () => {
    const fields = bindPartitionSpec({ specId: 0, fields: [{ sourceId: 4, fieldId: 1000, name: 'd_month', transform: 'month' }] }, schema);
    const budget = 48 * 1024;
    const io = memoryWriteIO();
    const w = new PartitionedDataWriter(io, 'memory://t/data', schema, fields, { relationName: 't', workerMinBytes: Infinity, partitionBufferBytes: budget, idleFlushMinBytes: Infinity });
    let rows = 0;
    for (let k = 0; k < 8; k++) {
      const b = typedBatch(k, 1500);
      rows += b.length;
      await w.add(b);
      expect(w.bufferedBytes).toBeLessThanOrEqual(budget);
    }
    expect(w.stats.maxHeldBytes).toBeLessThanOrEqual(budget);
    // 12,000 rows of ≈ 40 bytes across ≈ 50 months pass a 48 KiB budget many times over
    expect(w.stats.maxHeldBytes).toBeGreaterThan(budget / 2);
    expect(w.stats.budgetFlushes).toBeGreaterThan(10);
    expect(w.stats.idleFlushes).toBe(0);
    const files = await w.close();
    expect(files.reduce((s, f) => s + f.recordCount, 0)).toBe(rows);
    // every budget flush became a piece, and each partition's pieces one row group
    const groups = files.reduce((s, f) => s + listField(parquetFooterOf(io.files.get(f.path)!).meta, 4).length, 0);
    expect(groups).toBe(files.length);
    expect(w.stats.heldFlushes).toBe(0);
    // every column chunk of every row group keeps its page index (ColumnIndex 6/7, OffsetIndex 4/5: PAGES reads them)
    for (const f of files) {
      for (const g of listField(parquetFooterOf(io.files.get(f.path)!).meta, 4)) {
        for (const c of listField(g.v as TStruct, 1)) {
          const cc = c.v as TStruct;
          expect([4, 5, 6, 7].map((id) => intField(cc, id) !== undefined)).toEqual([true, true, true, true]);
        }
      }
    }
  }, 60_000);

  it('encoded pieces held past partitionHeldBytes: the partitions holding the most write theirs as a row group', async () => {
    const fields = bindPartitionSpec({ specId: 0, fields: [{ sourceId: 4, fieldId: 1000, name: 'd_month', transform: 'month' }] }, schema);
    const io = memoryWriteIO();
    const held = 24 * 1024;
    const w = new PartitionedDataWriter(io, 'memory://t/data', schema, fields, { relationName: 't', workerMinBytes: Infinity, partitionBufferBytes: 32 * 1024, idleFlushMinBytes: Infinity, partitionHeldBytes: held });
    const heldNow = (): number => [...(w as unknown as { open: Map<string, { writer: { heldBytes: number } }> }).open.values()].reduce((s, o) => s + o.writer.heldBytes, 0);
    for (let k = 0; k < 8; k++) {
      await w.add(typedBatch(k, 1500));
      expect(heldNow()).toBeLessThanOrEqual(held);
    }
    expect(w.stats.heldFlushes).toBeGreaterThan(3);
    const files = await w.close();
    expect(files.reduce((s, f) => s + f.recordCount, 0)).toBe(12_000);
    const groups = files.reduce((s, f) => s + listField(parquetFooterOf(io.files.get(f.path)!).meta, 4).length, 0);
    expect(groups).toBeGreaterThan(files.length);
    expect(groups).toBeLessThanOrEqual(files.length + w.stats.heldFlushes);
  }, 60_000);

  it('idle encoders: the largest partition is flushed early once it holds idleFlushMinBytes, well below the budget', async () => {
    const fields = bindPartitionSpec({ specId: 0, fields: [{ sourceId: 1, fieldId: 1000, name: 'i_bucket', transform: 'bucket[2]' }] }, schema);
    const io = memoryWriteIO();
    const w = new PartitionedDataWriter(io, 'memory://t/data', schema, fields, { relationName: 't', workerMinBytes: Infinity, idleFlushMinBytes: 16 * 1024 });
    for (let k = 0; k < 6; k++) await w.add(typedBatch(k, 2000));
    expect(w.stats.budgetFlushes).toBe(0);
    expect(w.stats.idleFlushes).toBeGreaterThan(2);
    const files = await w.close();
    expect(files.length).toBe(2);
    expect(files.reduce((s, f) => s + f.recordCount, 0)).toBe(12_000);
  }, 60_000);

  it('free encode slots are filled: one add sends a partition to every free slot, not only the largest to an idle thread', async () => {
    const fields = bindPartitionSpec({ specId: 0, fields: [{ sourceId: 1, fieldId: 1000, name: 'i_bucket', transform: 'bucket[4]' }] }, schema);
    const io = memoryWriteIO();
    const w = new PartitionedDataWriter(io, 'memory://t/data', schema, fields, { relationName: 't', workerMinBytes: 0, idleFlushMinBytes: 1024 });
    expect(encodeSlotsInUse()).toBe(0);
    // 4 partitions of ≈ 1,000 rows, each past idleFlushMinBytes: each free slot takes one (ENCODE_SLOTS ≥ 2)
    await w.add(typedBatch(0, 4000));
    expect(w.stats.idleFlushes).toBe(Math.min(4, ENCODE_SLOTS));
    expect(w.stats.budgetFlushes).toBe(0);
    const files = await w.close();
    expect(files.length).toBe(4);
    expect(files.reduce((s, f) => s + f.recordCount, 0)).toBe(4000);
    expect(encodeSlotsInUse()).toBe(0);
  }, 60_000);

  it('groups JS-values columns as partitionKey does (-0 and 0 apart, NaNs together, NULL)', () => {
    const dbl = parseSchema({ type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'f', required: false, type: 'double' }] });
    const fields = bindPartitionSpec({ specId: 0, fields: [{ sourceId: 1, fieldId: 1000, name: 'f', transform: 'identity' }] }, dbl);
    const values = [0, -0, Number.NaN, 1.5, null, Number.NaN, -0, 0];
    const g = typedPartitionGroups(fields, [{ kind: 'values', length: values.length, values }], values.length);
    const keys = values.map((v) => partitionKey(fields, [v]));
    expect(g.count).toBe(new Set(keys).size);
    expect(g.count).toBe(5);
    for (let i = 0; i < values.length; i++) for (let j = 0; j < values.length; j++) expect(g.groupOf[i] === g.groupOf[j]).toBe(keys[i] === keys[j]);
  });

  it('fast helpers equal the transforms and murmur3', () => {
    const month = partitionTransform('month', { kind: 'primitive', name: 'date' });
    const year = partitionTransform('year', { kind: 'primitive', name: 'date' });
    for (let d = -800_000; d <= 3_000_000; d += 97) {
      expect(monthOfDays(d)).toBe(month.apply(d));
      expect(Math.floor(monthOfDays(d) / 12)).toBe(year.apply(d));
    }
    for (const v of [0, 1, -1, 34, 2 ** 31 - 1, -(2 ** 31), 123456789]) {
      const b = new Uint8Array(8);
      new DataView(b.buffer).setBigInt64(0, BigInt(v), true);
      expect(murmurLong(v, v < 0 ? -1 : 0)).toBe(murmur3x86_32(b));
    }
    for (const s of ['', 'a', 'ab', 'abc', 'abcd', 'iceberg', 'é€😀']) {
      const b = enc.encode(`xx${s}y`);
      expect(murmurRange(b, 2, b.length - 1)).toBe(murmur3x86_32(enc.encode(s)));
    }
    // Iceberg spec Appendix B test vectors
    expect(murmurLong(34, 0)).toBe(2017239379);
    expect(murmur3x86_32(enc.encode('iceberg'))).toBe(1210000089);
  });
});
