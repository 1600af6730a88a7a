/**
 * A failed statement's data files: abort() removes every file the writers wrote or were writing (rolled
 * files, files still in flight, every partition's), and the writer never holds more than MAX_UNCOLLECTED
 * files between encoding and storage (the memory bound of a big COPY), whatever the store's speed.
 */
import { describe, expect, it } from 'vitest';
import { ParquetDataWriter, MAX_UNCOLLECTED } from './parquet-data-writer.ts';
import { PartitionedDataWriter } from './partitioned-data-writer.ts';
import { parseSchema } from '../spec/schema.ts';
import { bindPartitionSpec } from '../transforms/partition-path.ts';
import { Int32Builder, Utf8Builder } from './typed-column-builders.ts';
import { TypedBatch } from './typed-columns.ts';
import { memoryWriteIO } from './testing/memory-write-io.ts';
import type { IcebergWriteIO } from './write-io.ts';

const schema = parseSchema({
  type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'i', required: true, type: 'int' },
    { id: 2, name: 'd', required: false, type: 'date' },
    { id: 3, name: 's', required: false, type: 'string' },
  ],
});
const enc = new TextEncoder();

function batch(k: number, n: number): TypedBatch {
  const i = new Int32Builder(n, 'int');
  const d = new Int32Builder(n, 'date');
  const s = new Utf8Builder(n);
  for (let r = k * n; r < k * n + n; r++) {
    i.append(r);
    d.append(18000 + (r % 90) * 10);
    const b = enc.encode(`row ${r} ${'x'.repeat(r % 37)}`);
    s.appendBytes(b, 0, b.length);
  }
  return new TypedBatch(n, [i.finish(), d.finish(), s.finish()]);
}

/** memoryWriteIO with delete, and writes that can be held back */
function deletingIO(): IcebergWriteIO & { files: Map<string, Uint8Array>; deleted: string[]; writing: number; maxWriting: number; hold: boolean; release(): void } {
  const io = memoryWriteIO();
  let waiters: (() => void)[] = [];
  const t = {
    ...io,
    deleted: [] as string[],
    writing: 0,
    maxWriting: 0,
    hold: false,
    release(): void {
      const w = waiters;
      waiters = [];
      for (const f of w) f();
    },
    write: async (u: string, d: Uint8Array): Promise<void> => {
      t.writing++;
      t.maxWriting = Math.max(t.maxWriting, t.writing);
      if (t.hold) await new Promise<void>((r) => waiters.push(r));
      t.writing--;
      io.files.set(u, d);
    },
    delete: async (u: string): Promise<void> => {
      t.deleted.push(u);
      io.files.delete(u);
    },
  };
  return t;
}

describe('data writers on a failed statement', () => {
  it('ParquetDataWriter.abort removes rolled and in-flight files', async () => {
    const io = deletingIO();
    const w = new ParquetDataWriter(io, 'memory://t/data', schema, { targetFileSizeBytes: 20_000, workerMinBytes: Infinity });
    for (let k = 0; k < 6; k++) await w.add(batch(k, 1000));
    expect(io.files.size).toBeGreaterThanOrEqual(3);
    const written = [...io.files.keys()];
    io.hold = true;
    await w.add(batch(6, 1000)); // one more file, its write held back
    const aborting = w.abort();
    io.hold = false;
    io.release();
    await aborting;
    expect(io.files.size).toBe(0);
    expect(io.deleted).toEqual(expect.arrayContaining(written));
  });

  it('PartitionedDataWriter.abort removes every partition’s files, buffered rows are dropped', async () => {
    const io = deletingIO();
    const fields = bindPartitionSpec({ specId: 0, fields: [{ sourceId: 2, fieldId: 1000, name: 'd_month', transform: 'month' }] }, schema);
    const w = new PartitionedDataWriter(io, 'memory://t/data', schema, fields, { targetFileSizeBytes: 8_000, partitionBufferBytes: 40_000, workerMinBytes: Infinity });
    for (let k = 0; k < 8; k++) await w.add(batch(k, 2000));
    const dirs = new Set([...io.files.keys()].map((p) => p.slice(0, p.lastIndexOf('/'))));
    expect(dirs.size).toBeGreaterThan(1);
    await w.abort();
    expect(io.files.size).toBe(0);
  });

  it('a store without delete keeps the files (abort still settles)', async () => {
    const io = memoryWriteIO();
    const w = new ParquetDataWriter(io, 'memory://t/data', schema, { targetFileSizeBytes: 20_000, workerMinBytes: Infinity });
    for (let k = 0; k < 3; k++) await w.add(batch(k, 1000));
    await w.abort();
    expect(io.files.size).toBeGreaterThan(0);
  });

  it('holds at most MAX_UNCOLLECTED files between encoding and storage', async () => {
    const io = deletingIO();
    io.hold = true;
    const w = new ParquetDataWriter(io, 'memory://t/data', schema, { targetFileSizeBytes: 10_000, workerMinBytes: Infinity });
    let added = 0;
    const adding = (async () => {
      for (let k = 0; k < 3 * MAX_UNCOLLECTED; k++) {
        await w.add(batch(k, 1000));
        added++;
      }
    })();
    // the writer stalls once MAX_UNCOLLECTED + 1 files wait for the store
    for (let t = 0; t < 50 && io.writing <= MAX_UNCOLLECTED; t++) await new Promise((r) => setTimeout(r, 10));
    expect(io.writing).toBe(MAX_UNCOLLECTED + 1);
    const stalledAt = added;
    await new Promise((r) => setTimeout(r, 50));
    expect(added).toBe(stalledAt);
    io.hold = false;
    io.release();
    await adding;
    const files = await w.close();
    expect(io.maxWriting).toBe(MAX_UNCOLLECTED + 1);
    expect(files.reduce((s, f) => s + f.recordCount, 0)).toBe(3 * MAX_UNCOLLECTED * 1000);
  });
});
