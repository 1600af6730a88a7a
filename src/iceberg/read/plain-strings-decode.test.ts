/**
 * PLAIN string pages decoded by parquet-page-decoder.ts: each value's bytes land in the chunk's buffer without
 * a view made per value (a native Snappy body is a Buffer; its subarray is a FastBuffer through the species
 * constructor — TPC-H q13's 1.5M o_comments), and the values, NULLs and empty strings read back as written,
 * across pages and values shorter and longer than 16 bytes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Field, RecordBatch, Schema, Struct, Table, Utf8, makeData, tableToIPC, vectorFromArray } from 'apache-arrow';
import { Compression, Table as WasmTable, WriterPropertiesBuilder, WriterVersion, writeParquet } from 'parquet-wasm';
import { readParquetFooter } from './parquet-footer.ts';
import { decodeRowGroupJs, jsLeavesFor } from './js-row-group-decode.ts';
import { arrowDataToValues } from './arrow-values.ts';
import { nativeSnappyLoaded } from './native-snappy.ts';

const N = 12_000;
const WORDS = ['special', 'requests', 'carefully', 'final', 'deposits', 'sleep', 'ironic', 'pinto beans', 'é', '日本'];
/** 0–80 bytes of compressible text (Snappy shrinks the pages: they go native), every 11th NULL, every 13th '' */
const value = (i: number): string | null =>
  i % 11 === 0 ? null : i % 13 === 0 ? '' : Array.from({ length: i % 9 }, (_v, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ');

function writeFile(values: readonly (string | null)[]): Uint8Array {
  const fields = [new Field('s', new Utf8(), true, new Map([['PARQUET:field_id', '1']]))];
  const data = vectorFromArray(values, new Utf8()).data[0]!;
  const batch = new RecordBatch(new Schema(fields), makeData({ type: new Struct(fields), length: values.length, nullCount: 0, children: [data] }));
  const props = new WriterPropertiesBuilder().setCompression(Compression.SNAPPY).setDictionaryEnabled(false).setWriterVersion(WriterVersion.V1).setDataPageSizeLimit(16 * 1024).build();
  return writeParquet(WasmTable.fromIPCStream(tableToIPC(new Table([batch]), 'stream')), props);
}

async function decode(bytes: Uint8Array): Promise<unknown[]> {
  const footer = await readParquetFooter({ read: () => Promise.resolve(bytes), readRange: (_u, o, l) => Promise.resolve(bytes.subarray(o, o + l)) }, 'mem://s.parquet', bytes.byteLength);
  const read = (o: number, l: number): Promise<Uint8Array> => Promise.resolve(Buffer.from(bytes.subarray(o, o + l)));
  const t = (await decodeRowGroupJs(footer, 0, jsLeavesFor(footer, ['s'])!, read))!;
  return t.byName.get('s')!.flatMap((d) => arrowDataToValues(d, { kind: 'primitive', name: 'string' }, 'mem://s.parquet'));
}

afterEach(() => vi.restoreAllMocks());

describe('PLAIN string pages', () => {
  const values = Array.from({ length: N }, (_v, i) => value(i));

  it('read back every value, NULL and empty string as written', async () => {
    expect(await decode(writeFile(values))).toEqual(values);
  });

  it('make no Buffer view per value', async () => {
    expect(nativeSnappyLoaded()).toBe(true);
    const file = writeFile(values);
    const subarray = vi.spyOn(Buffer.prototype, 'subarray');
    await decode(file);
    // one per page and a few per chunk; a view per value made ~9,000
    expect(subarray.mock.calls.length).toBeLessThan(N / 20);
  });
});
