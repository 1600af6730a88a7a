import { afterEach, describe, expect, it } from 'vitest';
import { DateDay, Decimal, Field, Float32, Float64, Int32, Int64, RecordBatch, Schema, Struct, Table, Utf8, makeData, tableToIPC, vectorFromArray, type DataType } from 'apache-arrow';
import { Compression, Table as WasmTable, WriterPropertiesBuilder, WriterVersion, writeParquet } from 'parquet-wasm';
import { resetEnvSettings } from '../../common/env-settings.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import type { IcebergIO } from '../io.ts';
import type { IcebergType } from '../spec/schema.ts';
import { clearFileCache, configureFileCache, DEFAULT_FILE_CACHE_BYTES } from './file-cache.ts';
import { readParquetFooter } from './parquet-footer.ts';
import { readParquetColumns } from './parquet-reader.ts';
import { decodeRowGroupJs, jsLeavesFor } from './js-row-group-decode.ts';
import { arrowDataToValues } from './arrow-values.ts';
import { isDeepStrictEqual } from 'node:util';
import { decimalData } from './testing/decimal-data.ts';

const N = 20_000;
const P = (name: string, extra: Partial<IcebergType> = {}): IcebergType => ({ kind: 'primitive', name, ...extra }) as IcebergType;


interface Col { readonly name: string; readonly type: DataType; readonly ice: IcebergType; readonly data: ReturnType<typeof makeData> }

function columns(): Col[] {
  const ints = Array.from({ length: N }, (_, i) => (i % 97 === 0 ? null : ((i * 7919) % 2001) - 1000));
  const longs = Array.from({ length: N }, (_, i) => BigInt(i) * 3_000_000_007n - 7n);
  const price = Array.from({ length: N }, (_, i) => (i % 50 === 3 ? null : BigInt((i * 104_729) % 10_000_000) - 5_000_000n));
  const big = Array.from({ length: N }, (_, i) => (i % 2 === 0 ? 999_999_999_999_999_999n - BigInt(i) : -BigInt(i) * 12345n));
  const qty = Array.from({ length: N }, (_, i) => BigInt((i % 50) + 1) * 100n);
  const dates = Array.from({ length: N }, (_, i) => (i % 13 === 0 ? null : new Date(Date.UTC(1992, 0, 1) + (i % 2500) * 86_400_000)));
  const dbl = Array.from({ length: N }, (_, i) => (i % 11 === 0 ? null : i / 7 - 100));
  const flt = Array.from({ length: N }, (_, i) => Math.fround(i / 3));
  const flags = Array.from({ length: N }, (_, i) => (i % 31 === 0 ? null : ['A', 'N', 'R', 'é'][i % 4]!));
  const text = Array.from({ length: N }, (_, i) => (i % 17 === 0 ? null : i % 5 === 0 ? '' : `comment ${i} ${'x'.repeat(i % 40)}${i % 9 === 0 ? ' über' : ''}`));
  const v = (vals: unknown[], t: DataType) => vectorFromArray(vals, t).data[0]!;
  return [
    { name: 'i', type: new Int32(), ice: P('int'), data: v(ints, new Int32()) },
    { name: 'l', type: new Int64(), ice: P('long'), data: v(longs, new Int64()) },
    { name: 'price', type: new Decimal(2, 15, 128), ice: P('decimal', { precision: 15, scale: 2 }), data: decimalData(price, 15, 2) },
    { name: 'big', type: new Decimal(4, 18, 128), ice: P('decimal', { precision: 18, scale: 4 }), data: decimalData(big, 18, 4) },
    { name: 'qty', type: new Decimal(2, 15, 128), ice: P('decimal', { precision: 15, scale: 2 }), data: decimalData(qty, 15, 2) },
    { name: 'd', type: new DateDay(), ice: P('date'), data: v(dates, new DateDay()) },
    { name: 'dbl', type: new Float64(), ice: P('double'), data: v(dbl, new Float64()) },
    { name: 'flt', type: new Float32(), ice: P('float'), data: v(flt, new Float32()) },
    { name: 'flag', type: new Utf8(), ice: P('string'), data: v(flags, new Utf8()) },
    { name: 'txt', type: new Utf8(), ice: P('string'), data: v(text, new Utf8()) },
    // columns of NULLs only: their pages hold no dictionary indices at all
    { name: 'none_i', type: new Int32(), ice: P('int'), data: v(Array.from({ length: N }, () => null), new Int32()) },
    { name: 'none_s', type: new Utf8(), ice: P('string'), data: v(Array.from({ length: N }, () => null), new Utf8()) },
  ];
}

interface WriteOpts { readonly codec: Compression; readonly dictionary: boolean; readonly version: WriterVersion; readonly pageBytes?: number; readonly dictPageBytes?: number }

function writeFile(cols: readonly Col[], o: WriteOpts): Uint8Array {
  const fields = cols.map((c, i) => new Field(c.name, c.type, true, new Map([['PARQUET:field_id', String(i + 1)]])));
  const batch = new RecordBatch(new Schema(fields), makeData({ type: new Struct(fields), length: N, nullCount: 0, children: cols.map((c) => c.data) }));
  let b = new WriterPropertiesBuilder().setCompression(o.codec).setDictionaryEnabled(o.dictionary).setWriterVersion(o.version).setMaxRowGroupSize(12_000);
  if (o.pageBytes !== undefined) b = b.setDataPageSizeLimit(o.pageBytes);
  if (o.dictPageBytes !== undefined) b = b.setDictionaryPageSizeLimit(o.dictPageBytes);
  return writeParquet(WasmTable.fromIPCStream(tableToIPC(new Table([batch]), 'stream')), b.build());
}

/** ranges come back as Node Buffers at odd offsets of one pool, as the local store's may (no alignment assumed) */
const ioOf = (bytes: Uint8Array): IcebergIO => ({
  read: () => Promise.resolve(bytes),
  readRange: (_u, offset, length) => {
    const pool = Buffer.alloc(length + 3);
    pool.set(bytes.subarray(offset, offset + length), 3);
    return Promise.resolve(pool.subarray(3, 3 + length));
  },
});

async function readAll(bytes: Uint8Array, cols: readonly Col[], js: boolean, path: string): Promise<unknown[][]> {
  process.env.LAKEGATE_PARQUET_JS_DECODE = js ? 'on' : 'off';
  resetEnvSettings();
  clearFileCache();
  const out: unknown[][] = cols.map(() => []);
  const requests = cols.map((c, i) => ({ fieldId: i + 1, type: c.ice, missingValue: null }));
  for await (const ch of readParquetColumns({ io: ioOf(bytes), size: bytes.byteLength }, path, requests)) {
    ch.columns.forEach((v, i) => { for (const x of v) out[i]!.push(x); });
  }
  return out;
}

/** whether every row group of the file decodes in JS (not handed to parquet-wasm) */
async function decodesInJs(bytes: Uint8Array, cols: readonly Col[], path: string): Promise<boolean> {
  const footer = await readParquetFooter(ioOf(bytes), path, bytes.byteLength);
  const leaves = jsLeavesFor(footer, cols.map((c) => c.name));
  if (leaves === null) return false;
  for (let rg = 0; rg < footer.rowGroups.length; rg++) {
    if (await decodeRowGroupJs(footer, rg, leaves, (o, l) => Promise.resolve(bytes.subarray(o, o + l))) === null) return false;
  }
  return true;
}

afterEach(() => {
  delete process.env.LAKEGATE_PARQUET_JS_DECODE;
  resetEnvSettings();
  configureFileCache(DEFAULT_FILE_CACHE_BYTES);
});

describe('JS Parquet page decoding', () => {
  const cols = columns();
  const cases: [string, WriteOpts, boolean][] = [
    ['snappy, dictionary, pages v1 (what lakegate writes)', { codec: Compression.SNAPPY, dictionary: true, version: WriterVersion.V1 }, true],
    ['uncompressed, dictionary, pages v1', { codec: Compression.UNCOMPRESSED, dictionary: true, version: WriterVersion.V1 }, true],
    ['uncompressed, plain, small pages v1', { codec: Compression.UNCOMPRESSED, dictionary: false, version: WriterVersion.V1, pageBytes: 2000 }, true],
    ['snappy, dictionary falling back to plain mid-chunk', { codec: Compression.SNAPPY, dictionary: true, version: WriterVersion.V1, pageBytes: 4000, dictPageBytes: 3000 }, true],
    ['snappy, dictionary, pages v2', { codec: Compression.SNAPPY, dictionary: true, version: WriterVersion.V2, dictPageBytes: 1 << 20 }, true],
    ['pages v2 without a dictionary (DELTA encodings: parquet-wasm decodes them)', { codec: Compression.SNAPPY, dictionary: false, version: WriterVersion.V2 }, false],
    ['zstd (parquet-wasm decodes it)', { codec: Compression.ZSTD, dictionary: true, version: WriterVersion.V1 }, false],
  ];
  for (const [name, opts, js] of cases) {
    it(`reads the same values as parquet-wasm: ${name}`, async () => {
      configureFileCache(0);
      const bytes = writeFile(cols, opts);
      const path = `mem://${name}.parquet`;
      expect(await decodesInJs(bytes, cols, path)).toBe(js);
      const viaWasm = await readAll(bytes, cols, false, path);
      const viaJs = await readAll(bytes, cols, true, path);
      expect(viaWasm[0]!.length).toBe(N);
      for (let c = 0; c < cols.length; c++) expect(viaJs[c], cols[c]!.name).toEqual(viaWasm[c]);
    });
  }

  it('decodes only the pages holding the asked rows: same values there, placeholders elsewhere', async () => {
    for (const opts of [cases[2]![1], cases[3]![1]]) {
      const bytes = writeFile(cols, opts);
      const footer = await readParquetFooter(ioOf(bytes), 'mem://sel.parquet', bytes.byteLength);
      const leaves = jsLeavesFor(footer, cols.map((c) => c.name))!;
      const read = (o: number, l: number) => Promise.resolve(bytes.subarray(o, o + l));
      const whole = (await decodeRowGroupJs(footer, 0, leaves, read))!;
      const at = [5, 6, 7000, 11_999];
      const part = (await decodeRowGroupJs(footer, 0, leaves, read, at))!;
      expect(part.batchLengths).toEqual(whole.batchLengths);
      let placeholders = 0;
      for (const [c, col] of cols.entries()) {
        let start = 0;
        for (const [b, len] of whole.batchLengths.entries()) {
          const all = arrowDataToValues(whole.byName.get(col.name)![b]!, col.ice, 'mem://sel.parquet');
          const got = arrowDataToValues(part.byName.get(col.name)![b]!, col.ice, 'mem://sel.parquet');
          for (let r = 0; r < len; r++) {
            if (at.includes(start + r)) expect(got[r], `${cols[c]!.name} row ${start + r}`).toEqual(all[r]);
            else if (!isDeepStrictEqual(got[r], all[r])) placeholders++;
          }
          start += len;
        }
      }
      expect(placeholders).toBeGreaterThan(N / 4); // pages without asked rows were not decoded
    }
  });

  it('a v2 data page file with only dictionary-encodable columns decodes in JS', async () => {
    // V2 writers use DELTA encodings once a dictionary is off or full; with a roomy dictionary every page is RLE_DICTIONARY
    const few = cols.filter((c) => c.name === 'qty' || c.name === 'flag' || c.name === 'd');
    const bytes = writeFile(few, { codec: Compression.SNAPPY, dictionary: true, version: WriterVersion.V2, dictPageBytes: 1 << 20 });
    expect(await decodesInJs(bytes, few, 'mem://v2.parquet')).toBe(true);
    expect(await readAll(bytes, few, true, 'mem://v2.parquet')).toEqual(await readAll(bytes, few, false, 'mem://v2.parquet'));
  });

  it('gives exact values: decimals past 2^53, NULLs, non-ASCII strings', async () => {
    configureFileCache(0);
    const bytes = writeFile(cols, { codec: Compression.SNAPPY, dictionary: true, version: WriterVersion.V1 });
    const [i, l, price, big, , d, , , flag, txt] = await readAll(bytes, cols, true, 'mem://exact.parquet');
    expect(i![0]).toBeNull();
    expect(i![1]).toBe(7919 % 2001 - 1000);
    expect(l![N - 1]).toBe(BigInt(N - 1) * 3_000_000_007n - 7n);
    expect(price![3]).toBeNull();
    expect(String(price![1])).toBe(Numeric.of(104_729n - 5_000_000n, 2).toString());
    expect(String(big![0])).toBe('99999999999999.9999');
    expect(String(big![1])).toBe('-1.2345');
    expect(d![0]).toBeNull();
    expect(d![1]).toBe(Date.UTC(1992, 0, 2) / 86_400_000);
    expect(flag![3]).toBe('é');
    expect(txt![9]).toBe(`comment 9 ${'x'.repeat(9)} über`);
    expect(txt![10]).toBe('');
    expect(txt![17]).toBeNull();
  });

  it('Decimal128 words built on demand equal the written ones (doubles kept in place, negatives sign-extended)', async () => {
    const few = cols.filter((c) => c.name === 'price' || c.name === 'qty' || c.name === 'big');
    const bytes = writeFile(few, { codec: Compression.SNAPPY, dictionary: true, version: WriterVersion.V1 });
    const footer = await readParquetFooter(ioOf(bytes), 'mem://words.parquet', bytes.byteLength);
    const t = (await decodeRowGroupJs(footer, 0, jsLeavesFor(footer, few.map((c) => c.name))!, (o, l) => Promise.resolve(bytes.subarray(o, o + l))))!;
    for (const c of few) {
      const want = c.data.values as Uint32Array;
      let start = 0;
      for (const d of t.byName.get(c.name)!) {
        const got = d.values as Uint32Array;
        for (let i = 0; i < d.length; i++) {
          if (!d.getValid(i)) continue;
          expect([...got.subarray(4 * i, 4 * i + 4)], `${c.name} row ${start + i}`).toEqual([...want.subarray(4 * (start + i), 4 * (start + i) + 4)]);
        }
        start += d.length;
      }
    }
  });

  it('names the file when a column chunk is damaged (XX001)', async () => {
    const few = cols.filter((c) => c.name === 'price');
    const bytes = writeFile(few, { codec: Compression.SNAPPY, dictionary: false, version: WriterVersion.V1 });
    const footer = await readParquetFooter(ioOf(bytes), 'mem://bad0.parquet', bytes.byteLength);
    const md = footer.rowGroups[0]!.columns[0]!;
    const start = Number(md.get(9));
    const damaged = bytes.slice();
    for (let k = 40; k < 200; k++) damaged[start + k] = 0xff; // inside the first page's snappy body
    await expect(readAll(damaged, few, true, 'mem://bad.parquet')).rejects.toMatchObject({ code: 'XX001', message: expect.stringContaining('mem://bad.parquet') });
  });
});
