/**
 * Dictionary-coded int / date chunks decoded in JS: their row values are gathered only when read, once for the
 * chunk's batches, and equal what the codes and entries say (NULL rows: entry 0, as the eager gather gave);
 * the codes stay beside each batch for the filters.
 */
import { describe, expect, it } from 'vitest';
import { DateDay, Field, Int32, RecordBatch, Schema, Struct, Table, makeData, tableToIPC, vectorFromArray, type DataType } from 'apache-arrow';
import { Compression, Table as WasmTable, WriterPropertiesBuilder, WriterVersion, writeParquet } from 'parquet-wasm';
import type { IcebergIO } from '../io.ts';
import { readParquetFooter } from './parquet-footer.ts';
import { decodeRowGroupJs, jsLeavesFor } from './js-row-group-decode.ts';
import { dictionaryCodesOf } from './dictionary-codes.ts';
import { valuesPending } from './dictionary-int-data.ts';

const N = 20_000;

function writeFile(): Uint8Array {
  const dates = Array.from({ length: N }, (_, i) => (i % 13 === 0 ? null : new Date(Date.UTC(1995, 5, 1) + (i % 30) * 86_400_000)));
  const ints = Array.from({ length: N }, (_, i) => ((i * 7) % 50) - 20);
  const cols: [string, DataType, unknown[]][] = [['d', new DateDay(), dates], ['i', new Int32(), ints]];
  const fields = cols.map(([name, type], k) => new Field(name, type, true, new Map([['PARQUET:field_id', String(k + 1)]])));
  const children = cols.map(([, type, vals]) => vectorFromArray(vals, type).data[0]!);
  const batch = new RecordBatch(new Schema(fields), makeData({ type: new Struct(fields), length: N, nullCount: 0, children }));
  const props = new WriterPropertiesBuilder().setCompression(Compression.SNAPPY).setDictionaryEnabled(true).setWriterVersion(WriterVersion.V1).setMaxRowGroupSize(12_000).build();
  return writeParquet(WasmTable.fromIPCStream(tableToIPC(new Table([batch]), 'stream')), props);
}

const ioOf = (bytes: Uint8Array): IcebergIO => ({ read: () => Promise.resolve(bytes), readRange: (_u, o, l) => Promise.resolve(bytes.subarray(o, o + l)) });

describe('dictionary-coded int / date chunks', () => {
  it('gather their row values on first read, once per chunk, as the codes and entries say', async () => {
    const bytes = writeFile();
    const footer = await readParquetFooter(ioOf(bytes), 'mem://dict-int.parquet', bytes.byteLength);
    const t = (await decodeRowGroupJs(footer, 0, jsLeavesFor(footer, ['d', 'i'])!, (o, l) => Promise.resolve(bytes.subarray(o, o + l))))!;
    for (const name of ['d', 'i']) {
      const batches = t.byName.get(name)!;
      expect(batches.length).toBeGreaterThan(1);
      // nothing gathered by the decode: a filter judges the codes, and an exactly judged batch reads no value
      for (const d of batches) expect(valuesPending(d), name).toBe(true);
      const buffers = new Set<ArrayBufferLike>();
      for (const d of batches) {
        const dc = dictionaryCodesOf(d)!;
        const entries = dc.dictionary.values as Int32Array;
        const values = d.values as Int32Array;
        expect(values.length).toBe(d.length);
        for (let r = 0; r < d.length; r++) expect(values[r], `${name} row ${r}`).toBe(entries[dc.codes[r]!]);
        expect(valuesPending(d)).toBe(false);
        expect(d.values).toBe(values); // made once
        buffers.add(values.buffer);
      }
      expect(buffers.size).toBe(1); // one gather for the chunk's batches
    }
    // the values themselves: row 1 of d is 1995-06-02, row 0 NULL
    const d0 = t.byName.get('d')![0]!;
    expect(d0.getValid(0)).toBe(false);
    expect((d0.values as Int32Array)[1]).toBe(Date.UTC(1995, 5, 2) / 86_400_000);
    expect((t.byName.get('i')![0]!.values as Int32Array)[3]).toBe(1);
  });

  it('decoded for picks: gathered at once, at the asked rows (the picks array stays the caller\'s)', async () => {
    const bytes = writeFile();
    const footer = await readParquetFooter(ioOf(bytes), 'mem://dict-int-at.parquet', bytes.byteLength);
    const at = [1, 2, 9000, 11_999];
    const t = (await decodeRowGroupJs(footer, 0, jsLeavesFor(footer, ['d', 'i'])!, (o, l) => Promise.resolve(bytes.subarray(o, o + l)), at))!;
    let start = 0;
    for (const d of t.byName.get('i')!) {
      expect(valuesPending(d)).toBe(false);
      const values = d.values as Int32Array;
      for (const r of at) if (r >= start && r < start + d.length) expect(values[r - start], `row ${r}`).toBe(((r * 7) % 50) - 20);
      start += d.length;
    }
  });
});
