/**
 * ParquetDataWriter's busyInThreadMaxBytes: a typed file goes to the encode threads while a slot is free; with every
 * slot taken, a file up to busyInThreadMaxBytes is encoded on the writer's own thread instead of waiting (here the
 * slots are held by the test, so waiting would never end), and one above it still waits for a slot.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ParquetDataWriter } from './parquet-data-writer.ts';
import { ENCODE_THREADS, encodeSlotsInUse, releaseEncodeSlot, tryEncodeSlot } from './parquet-encode-pool.ts';
import { readParquetColumns } from '../read/parquet-reader.ts';
import { parseSchema } from '../spec/schema.ts';
import { Int32Builder, Utf8Builder } from './typed-column-builders.ts';
import { TypedBatch } from './typed-columns.ts';
import { memoryWriteIO } from './testing/memory-write-io.ts';

const schema = parseSchema({
  type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'i', required: true, type: 'int' },
    { id: 2, name: 's', required: false, type: 'string' },
  ],
});
const enc = new TextEncoder();

function batch(from: number, n: number): TypedBatch {
  const i = new Int32Builder(n, 'int');
  const s = new Utf8Builder(n);
  for (let r = from; r < from + n; r++) {
    i.append(r);
    const b = enc.encode(`row ${r % 97}`);
    s.appendBytes(b, 0, b.length);
  }
  return new TypedBatch(n, [i.finish(), s.finish()]);
}

/** holds every encode slot (as busy threads would) until released */
function takeAllSlots(): number {
  let n = 0;
  while (tryEncodeSlot(ENCODE_THREADS + 1)) n++;
  return n;
}

async function rowsOf(bytes: Uint8Array): Promise<number[]> {
  const out: number[] = [];
  for await (const c of readParquetColumns(bytes, 'f', [{ fieldId: 1, type: schema.fields[0]!.type, missingValue: null }])) out.push(...(c.columns[0] as number[]));
  return out;
}

describe('ParquetDataWriter: busy encode threads', () => {
  let held = 0;
  afterEach(() => {
    for (; held > 0; held--) releaseEncodeSlot();
  });

  it('a small typed file is encoded on this thread while every slot is taken', async () => {
    held = takeAllSlots();
    expect(held).toBe(ENCODE_THREADS + 1);
    const io = memoryWriteIO();
    const w = new ParquetDataWriter(io, 'memory://t/data', schema, { workerMinBytes: 0, busyInThreadMaxBytes: 1 << 20 });
    await w.add(batch(0, 3000));
    await w.flush();
    await w.add(batch(3000, 2000));
    const files = await w.close();
    expect(files.map((f) => f.recordCount)).toEqual([3000, 2000]);
    // the slots were never given up: both files were encoded here, not in a thread
    expect(encodeSlotsInUse()).toBe(held);
    const all = [];
    for (const f of files) all.push(...(await rowsOf(io.files.get(f.path)!)));
    expect(all).toEqual(Array.from({ length: 5000 }, (_, r) => r));
  }, 60_000);

  it('a file above busyInThreadMaxBytes waits for a slot', async () => {
    held = takeAllSlots();
    const io = memoryWriteIO();
    const w = new ParquetDataWriter(io, 'memory://t/data', schema, { workerMinBytes: 0, busyInThreadMaxBytes: 1024 });
    await w.add(batch(0, 3000));
    let flushed = false;
    const flushing = w.flush().then(() => { flushed = true; });
    await new Promise((r) => setTimeout(r, 200));
    expect(flushed).toBe(false);
    // a thread becomes free: the file goes to it
    releaseEncodeSlot();
    held--;
    await flushing;
    const files = await w.close();
    expect(files.map((f) => f.recordCount)).toEqual([3000]);
    expect(await rowsOf(io.files.get(files[0]!.path)!)).toEqual(Array.from({ length: 3000 }, (_, r) => r));
  }, 60_000);
});
