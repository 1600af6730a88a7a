/**
 * Partitioned typed batches split on the split thread (partition-split.mjs, partition-split-pool.ts) and staged as
 * runs (TypedStage with perm null): the split's groups and rows equal typedPartitionGroups' (same group order,
 * rows in input order, NULL keys a group of their own), through the worker as in-thread, and a PartitionedDataWriter
 * writes the same partitions, rows (in order) and metrics whether it splits on the split thread or on its own
 * thread, under a budget small enough to flush partitions many times.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { rowsOfBatch } from '../../common/batch.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { readParquetColumns } from '../read/parquet-reader.ts';
import { parseSchema } from '../spec/schema.ts';
import { bindPartitionSpec } from '../transforms/partition-path.ts';
import { PartitionedDataWriter, partitionSplitDefaults } from './partitioned-data-writer.ts';
import { splitByPartition } from './partition-split.mjs';
import { splitInWorker } from './partition-split-pool.ts';
import { memoryWriteIO } from './testing/memory-write-io.ts';
import { DecimalBuilder, Int32Builder, Int64Builder, Utf8Builder } from './typed-column-builders.ts';
import { TypedBatch, type TypedColumn } from './typed-columns.ts';
import type { BufferColumn } from './typed-file-ipc.mjs';
import { typedPartitionGroups } from './typed-partition-groups.ts';
import { TypedStage } from './typed-stage.ts';

const schema = parseSchema({
  type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'i', required: true, type: 'int' },
    { id: 2, name: 'l', required: false, type: 'long' },
    { id: 3, name: 'n', required: false, type: 'decimal(15, 2)' },
    { id: 4, name: 'd', required: false, type: 'date' },
    { id: 5, name: 's', required: false, type: 'string' },
  ],
});
const enc = new TextEncoder();

/** rows k·n … k·n+n−1 as buffer columns; every 11th row NULL where nullable (a NULL date: the NULL partition) */
function columns(k: number, n: number): BufferColumn[] {
  const i = new Int32Builder(n, 'int');
  const l = new Int64Builder(n);
  const d = new DecimalBuilder(n, 15, 2);
  const dt = new Int32Builder(n, 'date');
  const s = new Utf8Builder(n);
  for (let r = k * n; r < k * n + n; r++) {
    const x = (r * 7919) % 307;
    i.append(x - 500);
    if (r % 11 === 5) {
      l.appendNull(); d.appendNull(); dt.appendNull(); s.appendNull();
      continue;
    }
    l.appendNumber(x * 1_000_003 - 400_000_000);
    d.appendUnscaled(x * 37 - 20_000);
    dt.append(8000 + ((x * 31) % 1500) - (r % 17 === 0 ? 12_000 : 0));
    const b = enc.encode(x % 3 === 0 ? `é${x}ü${'z'.repeat(x % 150)}` : `s${x % 41}`);
    s.appendBytes(b, 0, b.length);
  }
  return [i.finish(), l.finish(), d.finish(), dt.finish(), s.finish()] as BufferColumn[];
}

function fieldsOf(spec: ReadonlyArray<[string, string]>) {
  return bindPartitionSpec({
    specId: 0,
    fields: spec.map(([col, transform], k) => ({ sourceId: schema.fields.find((f) => f.name === col)!.id, fieldId: 1000 + k, name: `${col}_${k}`, transform })),
  }, schema);
}

const splitFields = (spec: ReadonlyArray<[string, string]>) => fieldsOf(spec).map((f) => ({ pos: f.sourcePos, name: f.transform.name, param: f.transform.param }));

/** the rows of each group as typedPartitionGroups groups them (groups in order of first appearance) */
function expectedGroups(cols: readonly TypedColumn[], n: number, spec: ReadonlyArray<[string, string]>): unknown[][][] {
  const groups = typedPartitionGroups(fieldsOf(spec), cols, n);
  const rows = rowsOfBatch(new TypedBatch(n, cols));
  const out: unknown[][][] = Array.from({ length: groups.count }, () => []);
  for (let r = 0; r < n; r++) out[groups.groupOf[r]!]!.push(rows[r]!);
  return out;
}

function groupsOfSplit(r: { columns: readonly BufferColumn[]; starts: Int32Array; count: number }): unknown[][][] {
  const n = r.starts[r.count]!;
  const rows = rowsOfBatch(new TypedBatch(n, r.columns));
  return Array.from({ length: r.count }, (_, g) => rows.slice(r.starts[g]!, r.starts[g + 1]!));
}

const specs: ReadonlyArray<ReadonlyArray<[string, string]>> = [
  [['d', 'month']], [['d', 'year']], [['d', 'day']], [['d', 'bucket[7]']], [['i', 'truncate[100]']], [['i', 'identity']],
  [['d', 'month'], ['i', 'bucket[3]']],
];

describe('splitByPartition', () => {
  for (const spec of specs) {
    it(`groups rows as typedPartitionGroups: ${spec.map(([c, t]) => `${t}(${c})`).join(', ')}`, () => {
      const cols = columns(1, 900);
      const want = expectedGroups(cols, 900, spec);
      const got = groupsOfSplit(splitByPartition({ length: 900, columns: cols, fields: splitFields(spec) }));
      expect(got.length).toBeGreaterThan(1);
      expect(got).toEqual(want);
    });
  }

  it('one partition: the columns come back as they are', () => {
    const cols = columns(0, 50).map((c) => (c.kind === 'int32' && c.domain === 'date' ? { ...c, values: new Int32Array(50).fill(9000), validity: null, nullCount: 0 } : c));
    const r = splitByPartition({ length: 50, columns: cols, fields: splitFields([['d', 'month']]) });
    expect(r.count).toBe(1);
    expect(r.columns).toBe(cols);
    expect([...r.starts]).toEqual([0, 50]);
  });

  it('on the split thread: the same groups, the buffers moved there and back', async () => {
    const spec: ReadonlyArray<[string, string]> = [['d', 'month']];
    for (let k = 0; k < 3; k++) {
      const cols = columns(k, 2000);
      const want = expectedGroups(cols, 2000, spec);
      const r = await splitInWorker({ length: 2000, columns: cols, fields: splitFields(spec) });
      // moved: the input's buffers are detached here
      expect(cols[0]!.kind === 'int32' && cols[0]!.values.length).toBe(0);
      expect(groupsOfSplit(r)).toEqual(want);
    }
  });
});

describe('TypedStage runs (perm null)', () => {
  it('stages the same rows as the permutation does', () => {
    const spec: ReadonlyArray<[string, string]> = [['d', 'month']];
    const cols = columns(2, 1000);
    const want = expectedGroups(cols, 1000, spec);
    const r = splitByPartition({ length: 1000, columns: cols, fields: splitFields(spec) });
    const stages = Array.from({ length: r.count }, () => new TypedStage(5, 64));
    const got: unknown[][][] = Array.from({ length: r.count }, () => []);
    // a few rows per stage through appendGroups, the rest through append (stages filling up at 64 rows)
    const counts = Int32Array.from({ length: r.count }, (_, g) => Math.min(3, r.starts[g + 1]! - r.starts[g]!));
    TypedStage.appendGroups(stages, r.columns, null, r.starts, counts);
    for (let g = 0; g < r.count; g++) {
      let at = r.starts[g]! + counts[g]!;
      while (at < r.starts[g + 1]!) {
        at += stages[g]!.append(r.columns, null, at, r.starts[g + 1]!);
        if (stages[g]!.full) got[g]!.push(...rowsOfBatch(stages[g]!.finish()));
      }
      if (stages[g]!.rows > 0) got[g]!.push(...rowsOfBatch(stages[g]!.finish()));
    }
    expect(got).toEqual(want);
  });
});

describe('PartitionedDataWriter: split on the split thread = on its own thread', () => {
  afterEach(() => { partitionSplitDefaults.inWorker = null; });

  async function write(spec: ReadonlyArray<[string, string]>, inWorker: boolean): Promise<{ byDir: Map<string, unknown[][]>; metrics: unknown; splits: number }> {
    partitionSplitDefaults.inWorker = inWorker;
    const io = memoryWriteIO();
    const w = new PartitionedDataWriter(io, 'memory://t/data', schema, fieldsOf(spec), { relationName: 't', workerMinBytes: Infinity, partitionBufferBytes: 256 * 1024 });
    for (let k = 0; k < 4; k++) await w.add(new TypedBatch(1200, columns(k, 1200)));
    const files = await w.close();
    const byDir = new Map<string, unknown[][]>();
    for (const f of files) {
      const dir = f.path.slice(0, f.path.lastIndexOf('/'));
      const rows = byDir.get(dir) ?? [];
      byDir.set(dir, rows);
      for await (const chunk of readParquetColumns(io.files.get(f.path)!, f.path, schema.fields.map((x) => ({ fieldId: x.id, type: x.type, missingValue: null })))) {
        for (let r = 0; r < chunk.length; r++) rows.push(chunk.columns.map((c) => c[r]));
      }
    }
    const metrics = files.map((f) => ({
      dir: f.path.slice(0, f.path.lastIndexOf('/')),
      rows: f.recordCount,
      partition: f.partition,
      m: f.metrics.map((m) => [m.fieldId, m.valueCount, m.nullCount, String(m.lowerBound()), String(m.upperBound())]),
    })).sort((a, b) => a.dir.localeCompare(b.dir));
    return { byDir, metrics, splits: w.stats.workerSplits };
  }

  for (const spec of [[['d', 'month']], [['d', 'month'], ['i', 'bucket[3]']]] as ReadonlyArray<ReadonlyArray<[string, string]>>) {
    it(spec.map(([c, t]) => `${t}(${c})`).join(', '), async () => {
      const here = await write(spec, false);
      const there = await write(spec, true);
      expect(here.splits).toBe(0);
      expect(there.splits).toBe(4);
      expect(there.byDir.size).toBeGreaterThan(10);
      expect([...there.byDir.keys()].sort()).toEqual([...here.byDir.keys()].sort());
      for (const [dir, rows] of here.byDir) expect(there.byDir.get(dir)).toEqual(rows);
      expect([...there.byDir.values()].reduce((s, r) => s + r.length, 0)).toBe(4800);
      expect(there.metrics).toEqual(here.metrics);
      // the decimal column round-trips as Numeric
      expect(Numeric.isNumeric([...there.byDir.values()][0]![0]![2] ?? Numeric.of(0n, 0))).toBe(true);
    });
  }
});
