/**
 * StreamingDataWriter: rows flushed several times become row groups of one file (streamed through
 * IcebergWriteIO.writeStream, or buffered and written whole without it) with the same rows and metrics as one
 * ParquetDataWriter file; the file rolls at the target size; a failed store or an aborted statement leaves no file.
 */
import { describe, expect, it } from 'vitest';
import { parseSchema } from '../spec/schema.ts';
import { readParquetColumns } from '../read/parquet-reader.ts';
import { ParquetDataWriter, type DataFileInfo } from './parquet-data-writer.ts';
import { parquetFooterOf } from './parquet-splice.ts';
import { StreamingDataWriter } from './streaming-data-writer.ts';
import { listField } from './thrift-compact-tree.ts';
import { memoryWriteIO, type MemoryWriteIO } from './testing/memory-write-io.ts';
import type { Batch } from '../../common/batch.ts';

const schema = parseSchema({
  type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'id', required: true, type: 'long' },
    { id: 2, name: 's', required: false, type: 'string' },
    { id: 3, name: 'd', required: false, type: 'double' },
  ],
});

function batch(from: number, n: number): Batch {
  const ids: unknown[] = [];
  const ss: unknown[] = [];
  const ds: unknown[] = [];
  for (let r = from; r < from + n; r++) {
    ids.push(BigInt(r) - 500n);
    ss.push(r % 7 === 0 ? null : `v${(r * 31) % 97}`);
    ds.push(r % 13 === 0 ? Number.NaN : r / 3);
  }
  return { length: n, columns: [ids, ss, ds] };
}

/** memoryWriteIO plus a streaming write that takes the body chunk by chunk; `failAfter` bytes: the store fails */
function streamingIO(failAfter = Infinity): MemoryWriteIO & { streamed: number } {
  const io = Object.assign(memoryWriteIO(), { streamed: 0 });
  io.writeStream = async (uri, body) => {
    const parts: Buffer[] = [];
    let n = 0;
    for await (const c of body) {
      n += c.byteLength;
      if (n > failAfter) throw new Error('disk full');
      parts.push(Buffer.from(c));
    }
    io.streamed++;
    io.files.set(uri, new Uint8Array(Buffer.concat(parts)));
  };
  return io;
}

async function rowsOf(io: MemoryWriteIO, f: DataFileInfo): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  const fields = schema.fields.map((x) => ({ fieldId: x.id, type: x.type, missingValue: null }));
  for await (const chunk of readParquetColumns(io.files.get(f.path)!, f.path, fields)) {
    for (let r = 0; r < chunk.length; r++) rows.push(chunk.columns.map((c) => c[r]));
  }
  return rows;
}

const rowGroups = (io: MemoryWriteIO, f: DataFileInfo): number => listField(parquetFooterOf(io.files.get(f.path)!).meta, 4).length;
const metrics = (f: DataFileInfo): unknown => f.metrics.map((m) => [m.fieldId, m.valueCount, m.nullCount, m.nanCount, m.lowerBound(), m.upperBound()]);

describe('StreamingDataWriter', () => {
  for (const mode of ['streamed', 'buffered'] as const) {
    it(`${mode}: flushed rows become row groups of one file, same rows and metrics as one ParquetDataWriter file`, async () => {
      const io = mode === 'streamed' ? streamingIO() : memoryWriteIO();
      const w = new StreamingDataWriter(io, 'memory://t/data', schema, { workerMinBytes: Infinity, relationName: 't' });
      const ref = new ParquetDataWriter(memoryWriteIO(), 'memory://t/data', schema, { workerMinBytes: Infinity });
      for (let k = 0; k < 5; k++) {
        await w.add(batch(k * 900, 900));
        await ref.add(batch(k * 900, 900));
        if (k % 2 === 1) await w.flushRowGroup();
      }
      expect(w.bufferedBytes).toBeGreaterThan(0);
      const [f, ...more] = await w.close();
      const [r] = await ref.close();
      expect(more).toEqual([]);
      expect(io.files.size).toBe(1);
      if ('streamed' in io) expect(io.streamed).toBe(1);
      expect(f!.recordCount).toBe(4500);
      expect(f!.fileSizeInBytes).toBe(io.files.get(f!.path)!.byteLength);
      expect(rowGroups(io, f!)).toBe(3);
      expect(metrics(f!)).toEqual(metrics(r!));
      const want = Array.from({ length: 5 }, (_, k) => batch(k * 900, 900)).flatMap((b) => Array.from({ length: b.length }, (_, i) => b.columns.map((c) => c[i])));
      expect(await rowsOf(io, f!)).toEqual(want);
    });
  }

  it('rolls to a new file at the target size; row groups in between stay in the file', async () => {
    const io = streamingIO();
    const w = new StreamingDataWriter(io, 'memory://t/data', schema, { workerMinBytes: Infinity, targetFileSizeBytes: 40_000 });
    for (let k = 0; k < 20; k++) {
      await w.add(batch(k * 200, 200));
      await w.flushRowGroup();
    }
    const files = await w.close();
    expect(files.length).toBeGreaterThan(2);
    expect(files.length).toBeLessThan(8);
    expect(files.reduce((s, f) => s + f.recordCount, 0)).toBe(4000);
    for (const f of files) expect(rowGroups(io, f)).toBeGreaterThan(1);
    expect(io.files.size).toBe(files.length);
  });

  it('a store that fails mid-file fails the statement (no hang), and abort leaves no file behind', async () => {
    const io = streamingIO(6_000);
    io.delete = async (uri) => {
      io.files.delete(uri);
    };
    const w = new StreamingDataWriter(io, 'memory://t/data', schema, { workerMinBytes: Infinity, targetFileSizeBytes: 1_000_000 });
    const run = async (): Promise<void> => {
      for (let k = 0; k < 40; k++) {
        await w.add(batch(k * 300, 300));
        await w.flushRowGroup();
      }
      await w.close();
    };
    await expect(run()).rejects.toThrow(/disk full/);
    await w.abort();
    expect(io.files.size).toBe(0);
  });

  it('abort while a file is open drops it and removes the files already finished', async () => {
    const io = streamingIO();
    io.delete = async (uri) => {
      io.files.delete(uri);
    };
    const w = new StreamingDataWriter(io, 'memory://t/data', schema, { workerMinBytes: Infinity, targetFileSizeBytes: 30_000 });
    for (let k = 0; k < 10; k++) {
      await w.add(batch(k * 300, 300));
      await w.flushRowGroup();
    }
    expect(io.files.size).toBeGreaterThan(0);
    await w.abort();
    expect(io.files.size).toBe(0);
    expect(io.streamed).toBeGreaterThan(0);
  });
});
