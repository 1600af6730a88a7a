/**
 * A partitioned write never encodes a piece worth a worker on its own thread: with every encode slot taken,
 * its flushes wait for a thread (PartitionedDataWriter's busyInThreadMaxBytes is 0), since that thread already
 * stages every row and merges the pieces. Once a slot is free the pieces are encoded there, rows and order intact.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PartitionedDataWriter } from './partitioned-data-writer.ts';
import { ENCODE_THREADS, encodeSlotsInUse, releaseEncodeSlot, tryEncodeSlot } from './parquet-encode-pool.ts';
import { readParquetColumns } from '../read/parquet-reader.ts';
import { parseSchema } from '../spec/schema.ts';
import { bindPartitionSpec } from '../transforms/partition-path.ts';
import { Int32Builder } from './typed-column-builders.ts';
import { TypedBatch } from './typed-columns.ts';
import { memoryWriteIO } from './testing/memory-write-io.ts';

const schema = parseSchema({
  type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'i', required: true, type: 'int' },
    { id: 2, name: 'd', required: false, type: 'date' },
  ],
});
const fields = bindPartitionSpec({ specId: 0, fields: [{ sourceId: 2, fieldId: 1000, name: 'd_month', transform: 'month' }] }, schema);

/** rows from … from+n−1, row r in January 2024 when r is even, February otherwise */
function batch(from: number, n: number): TypedBatch {
  const i = new Int32Builder(n, 'int');
  const d = new Int32Builder(n, 'date');
  for (let r = from; r < from + n; r++) {
    i.append(r);
    d.append(19723 + (r % 2 === 0 ? 0 : 31) + (r % 28));
  }
  return new TypedBatch(n, [i.finish(), d.finish()]);
}

describe('PartitionedDataWriter: busy encode threads', () => {
  let held = 0;
  afterEach(() => {
    for (; held > 0; held--) releaseEncodeSlot();
  });

  it('pieces wait for an encode thread instead of being encoded on the writer\'s thread', async () => {
    // parquet-wasm loaded on this thread first (a small write encoded here), so an in-thread encode would be quick
    const warm = new PartitionedDataWriter(memoryWriteIO(), 'memory://w/data', schema, fields, { relationName: 'w', workerMinBytes: Infinity });
    await warm.add(batch(0, 100));
    expect((await warm.close()).length).toBe(2);
    while (tryEncodeSlot(ENCODE_THREADS + 1)) held++;
    expect(held).toBe(ENCODE_THREADS + 1);
    const io = memoryWriteIO();
    const w = new PartitionedDataWriter(io, 'memory://t/data', schema, fields, { relationName: 't', workerMinBytes: 0 });
    for (let k = 0; k < 4; k++) await w.add(batch(k * 5000, 5000));
    let closed = false;
    const closing = w.close().then((files) => {
      closed = true;
      return files;
    });
    await new Promise((r) => setTimeout(r, 2000));
    // every slot is held: no piece was encoded here, so nothing could finish
    expect(closed).toBe(false);
    expect(encodeSlotsInUse()).toBe(held);
    releaseEncodeSlot();
    held--;
    const files = await closing;
    expect(encodeSlotsInUse()).toBe(held);
    expect(files.map((f) => f.partition[0]).sort()).toEqual([648, 649]);
    for (const f of files) {
      const rows: number[] = [];
      for await (const c of readParquetColumns(io.files.get(f.path)!, f.path, [{ fieldId: 1, type: schema.fields[0]!.type, missingValue: null }])) rows.push(...(c.columns[0] as number[]));
      const parity = f.partition[0] === 648 ? 0 : 1;
      expect(rows).toEqual(Array.from({ length: 10000 }, (_, k) => 2 * k + parity));
    }
  }, 120_000);
});
