/**
 * Held pieces merged on an encode thread (StreamingDataWriter `mergeInWorkerMinBytes`, LAKEGATE_COPY_MERGE_WORKER=on):
 * the thread that stages rows runs no merge, and the file is byte for byte the one an in-thread merge makes — same
 * row groups, rows in input order, also when a merge is still running while later pieces arrive. Off by default.
 */
import { describe, expect, it, vi } from 'vitest';
import { parseSchema } from '../spec/schema.ts';
import { readParquetColumns } from '../read/parquet-reader.ts';
import { parquetFooterOf } from './parquet-splice.ts';
import { StreamingDataWriter } from './streaming-data-writer.ts';
import { listField } from './thrift-compact-tree.ts';
import { memoryWriteIO, type MemoryWriteIO } from './testing/memory-write-io.ts';
import type { Batch } from '../../common/batch.ts';

/** merges run on this thread (the module as the writer sees it here; the encode thread loads its own copy) */
const here = vi.hoisted(() => ({ merges: 0 }));
vi.mock('./parquet-row-group-merge.ts', async (load) => {
  const m = await load<typeof import('./parquet-row-group-merge.ts')>();
  return { ...m, mergeRowGroups: (pieces: readonly Uint8Array[]) => { here.merges++; return m.mergeRowGroups(pieces); } };
});

const schema = parseSchema({
  type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'id', required: true, type: 'long' },
    { id: 2, name: 's', required: false, type: 'string' },
  ],
});

function batch(from: number, n: number): Batch {
  const ids: unknown[] = [];
  const ss: unknown[] = [];
  for (let r = from; r < from + n; r++) {
    ids.push(BigInt(r));
    ss.push(r % 11 === 0 ? null : `s${(r * 37) % 101}`);
  }
  return { length: n, columns: [ids, ss] };
}

/** 12 flushes of 100 rows, merged into row groups of up to 300 rows; the one file's bytes and its rows */
async function write(mergeInWorkerMinBytes?: number): Promise<{ bytes: Uint8Array; rows: unknown[][]; io: MemoryWriteIO }> {
  const io = memoryWriteIO();
  const w = new StreamingDataWriter(io, 'mem://t/data', schema, { mergeRowGroups: true, rowGroupRows: 300, ...(mergeInWorkerMinBytes === undefined ? {} : { mergeInWorkerMinBytes }) });
  for (let k = 0; k < 12; k++) {
    await w.add(batch(k * 100, 100));
    await w.flushRowGroup();
  }
  const files = await w.close();
  expect(files).toHaveLength(1);
  const bytes = io.files.get(files[0]!.path)!;
  const rows: unknown[][] = [];
  const fields = schema.fields.map((x) => ({ fieldId: x.id, type: x.type, missingValue: null }));
  for await (const chunk of readParquetColumns(bytes, files[0]!.path, fields)) {
    for (let r = 0; r < chunk.length; r++) rows.push(chunk.columns.map((c) => c[r]));
  }
  return { bytes, rows, io };
}

describe('held pieces merged on an encode thread', () => {
  it('no merge on the staging thread; the same file as merged in-thread, rows in order', async () => {
    here.merges = 0;
    const inThread = await write(Infinity);
    expect(here.merges).toBeGreaterThan(0);
    here.merges = 0;
    const inWorker = await write(0);
    expect(here.merges).toBe(0);
    expect(listField(parquetFooterOf(inWorker.bytes).meta, 4)).toHaveLength(4);
    expect(inWorker.rows.map((r) => r[0])).toEqual(Array.from({ length: 1200 }, (_, i) => BigInt(i)));
    expect(inWorker.rows).toEqual(inThread.rows);
    expect(Buffer.from(inWorker.bytes).equals(Buffer.from(inThread.bytes))).toBe(true);
  }, 60_000);

  it('off by default (LAKEGATE_COPY_MERGE_WORKER unset): merges stay on the staging thread', async () => {
    expect(process.env.LAKEGATE_COPY_MERGE_WORKER ?? '').toBe('');
    here.merges = 0;
    await write();
    expect(here.merges).toBeGreaterThan(0);
  }, 60_000);
});
