/**
 * The JS Parquet writer (js-parquet-writer.mjs) against parquet-wasm's files of the same typed buffers: every
 * type COPY stages typed (int, date incl. negative days, bigint, decimals at both physical-type edges 9/10 and
 * 18/19 digits and at 38, text incl. empty strings and unicode), NULLs, all-NULL pages, page and row-group
 * boundaries across batches, a string dictionary that outgrows its limit (PLAIN fallback), columns kept off the
 * dictionary, uncompressed and snappy. Read back by lakegate's reader, by parquet-wasm and by DuckDB, row for
 * row equal to the source (and to the parquet-wasm file); chunk statistics and page indexes as the reader sees
 * them equal parquet-wasm's; a codec it does not cover (zstd) is left to parquet-wasm.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Decimal, DateDay, Field, Int32, Int64, Schema as ArrowSchema, Table, Utf8, tableFromIPC, tableToIPC } from 'apache-arrow';
import { readParquet } from 'parquet-wasm';
import { afterAll, describe, expect, it } from 'vitest';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { readParquetColumns } from '../read/parquet-reader.ts';
import { decodeColumnChunk } from '../read/parquet-page-decoder.ts';
import { parquetMetadata } from 'hyparquet';
import { parseSchema } from '../spec/schema.ts';
import { writeTypedParquet } from './js-parquet-writer.mjs';
import { encodeParquetIpc } from './parquet-encode.mjs';
import { typedFileIpc } from './typed-file-ipc.mjs';
import { DecimalBuilder, Int32Builder, Int64Builder, Utf8Builder } from './typed-column-builders.ts';
import { materializeColumn, type TypedColumn } from './typed-columns.ts';
import type { BufferColumn, TypedFileBatch } from './typed-file-ipc.mjs';
import { ParquetDataWriter } from './parquet-data-writer.ts';
import { TypedBatch } from './typed-columns.ts';
import { memoryWriteIO } from './testing/memory-write-io.ts';

const FIELDS: readonly [string, string, boolean][] = [
  ['i', 'int', true], ['d', 'date', false], ['l', 'long', false], ['n9', 'decimal(9, 2)', false], ['n10', 'decimal(10, 0)', false],
  ['n18', 'decimal(18, 4)', false], ['n19', 'decimal(19, 0)', false], ['n38', 'decimal(38, 6)', false], ['s', 'string', false], ['u', 'string', false],
];
const icebergSchema = parseSchema({ type: 'struct', 'schema-id': 0, fields: FIELDS.map(([name, type, required], k) => ({ id: k + 1, name, type, required })) });
const arrowTypes = [new Int32(), new DateDay(), new Int64(), new Decimal(2, 9, 128), new Decimal(0, 10, 128), new Decimal(4, 18, 128), new Decimal(0, 19, 128), new Decimal(6, 38, 128), new Utf8(), new Utf8()];
const arrowSchema = new ArrowSchema(FIELDS.map(([name, , required], k) => new Field(name, arrowTypes[k]!, !required, new Map([['PARQUET:field_id', String(k + 1)]]))));
const schemaIpc = tableToIPC(new Table(arrowSchema, []), 'stream');

const enc = new TextEncoder();
const pow10 = (p: number): bigint => 10n ** BigInt(p);

/**
 * rows from … from+n−1. `nullRun`: rows [a, b) NULL in every nullable column (an all-NULL page); `wide`: the
 * `u` column's strings unique and long (its dictionary passes 1 MiB: PLAIN fallback)
 */
function batch(from: number, n: number, opts: { nullRun?: [number, number]; wide?: boolean } = {}): TypedFileBatch {
  const i = new Int32Builder(n, 'int');
  const d = new Int32Builder(n, 'date');
  const l = new Int64Builder(n);
  const dec = [new DecimalBuilder(n, 9, 2), new DecimalBuilder(n, 10, 0), new DecimalBuilder(n, 18, 4), new DecimalBuilder(n, 19, 0), new DecimalBuilder(n, 38, 6)];
  const precisions = [9, 10, 18, 19, 38];
  const s = new Utf8Builder(n);
  const u = new Utf8Builder(n);
  for (let r = from; r < from + n; r++) {
    i.append(r % 3 === 0 ? -r : r);
    const nul = (opts.nullRun !== undefined && r >= opts.nullRun[0] && r < opts.nullRun[1]) || r % 11 === 5;
    if (nul) {
      d.appendNull(); l.appendNull(); for (const b of dec) b.appendNull(); s.appendNull(); u.appendNull();
      continue;
    }
    d.append((r % 977) - 500); // negative days: before 1970
    if (r % 13 === 0) l.value(r % 2 === 0 ? 2n ** 63n - 1n - BigInt(r) : -(2n ** 63n) + BigInt(r)); else l.appendNumber(r * 7 - 3000);
    precisions.forEach((p, k) => {
      // the precision's edges (±(10^p − 1)) every 17th row, else small values
      const edge = r % 17 === 0 ? (r % 34 === 0 ? pow10(p) - 1n : 1n - pow10(p)) : BigInt((r % 200) - 100);
      if (!dec[k]!.value(Numeric.of(edge, [2, 0, 4, 0, 6][k]!))) throw new Error(`decimal(${p}) refused ${edge}`);
    });
    const str = r % 7 === 0 ? '' : r % 5 === 0 ? `ünïcødé ✓ ${r % 40}` : `s${r % 60}`;
    const b = enc.encode(str);
    s.appendBytes(b, 0, b.length);
    const w = enc.encode(opts.wide === true ? `${'x'.repeat(60)}-${r}` : `w${r % 9}`);
    u.appendBytes(w, 0, w.length);
  }
  const cols: TypedColumn[] = [i.finish(), d.finish(), l.finish(), ...dec.map((b) => b.finish()), s.finish(), u.finish()];
  return { length: n, columns: cols as BufferColumn[] };
}

interface Options { rowGroupRows: number; noDictionary?: string[]; compressionCodec?: string }

function jsFile(batches: TypedFileBatch[], options: Options): Uint8Array {
  const bytes = writeTypedParquet({ schema: schemaIpc, batches, options });
  expect(bytes).not.toBeNull();
  return bytes!;
}

const wasmFile = (batches: TypedFileBatch[], options: Options): Uint8Array => encodeParquetIpc(typedFileIpc({ schema: schemaIpc, batches }).ipc, options);

/** the source rows as the reader's JS values, per column */
const sourceColumns = (batches: TypedFileBatch[]): unknown[][] => FIELDS.map((_, c) => batches.flatMap((b) => materializeColumn(b.columns[c]!)));

async function lakegateRead(file: Uint8Array): Promise<unknown[][]> {
  const out: unknown[][] = FIELDS.map(() => []);
  const cols = icebergSchema.fields.map((f) => ({ fieldId: f.id, type: f.type, missingValue: null }));
  for await (const chunk of readParquetColumns(file, 'mem.parquet', cols)) chunk.columns.forEach((col, c) => { for (const v of col) out[c]!.push(v); });
  return out;
}

const wasmRows = (file: Uint8Array): unknown[] => tableFromIPC(readParquet(file).intoIPCStream()).toArray().map((r: { toJSON(): Record<string, unknown> }) => JSON.stringify({ ...r.toJSON() }, (_, v) => (typeof v === 'bigint' ? String(v) : v)));

const dir = mkdtempSync(join(tmpdir(), 'js-parquet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let duck: Awaited<ReturnType<typeof DuckDBInstance.create>> | null = null;

async function duckRows(file: Uint8Array, name: string): Promise<unknown[]> {
  const path = join(dir, `${name}.parquet`);
  writeFileSync(path, file);
  duck ??= await DuckDBInstance.create(':memory:');
  const conn = await duck.connect();
  const cols = FIELDS.map(([n]) => `CAST(${n} AS VARCHAR)`).join(', ');
  const r = await conn.runAndReadAll(`SELECT ${cols} FROM read_parquet('${path}')`);
  return r.getRows().map((row) => row.map((v) => (v === null ? null : String(v))));
}

/**
 * the schema, and per row group and column its path, type, value count and statistics (hyparquet's reading);
 * codecs apart (footerCodecs): a JS-written chunk that does not shrink is uncompressed (js-parquet-chunk-codec.mjs)
 */
function footerFacts(file: Uint8Array): unknown {
  const m = parquetMetadata(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer);
  return JSON.stringify({
    schema: m.schema.slice(1),
    rows: m.num_rows,
    groups: m.row_groups.map((g) => [g.num_rows, g.columns.map((c) => {
      const md = c.meta_data!;
      const st = md.statistics ?? {};
      return [md.type, md.path_in_schema, md.num_values, st.null_count, st.min_value, st.max_value, c.column_index_offset !== undefined, c.offset_index_offset !== undefined];
    })]),
  }, (_, v) => (typeof v === 'bigint' ? String(v) : v instanceof Uint8Array ? Array.from(v) : v));
}

/** each column chunk's codec, per row group */
function footerCodecs(file: Uint8Array): string[][] {
  const m = parquetMetadata(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer);
  return m.row_groups.map((g) => g.columns.map((c) => c.meta_data!.codec));
}

/** every column chunk but FIXED_LEN_BYTE_ARRAY ones goes through the reader's JS page decoder (its fast path), not parquet-wasm */
function expectJsDecodable(file: Uint8Array): void {
  const m = parquetMetadata(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer);
  const types: Record<string, number> = { INT32: 1, INT64: 2, BYTE_ARRAY: 6 };
  for (const g of m.row_groups) {
    for (const c of g.columns) {
      const md = c.meta_data!;
      const physical = types[md.type];
      if (physical === undefined) continue;
      const start = Number(md.dictionary_page_offset ?? md.data_page_offset);
      const chunk = file.subarray(start, start + Number(md.total_compressed_size));
      const optional = md.path_in_schema[0] !== 'i';
      expect(decodeColumnChunk(chunk, md.codec === 'SNAPPY' ? 1 : 0, physical, optional, Number(g.num_rows)).rows).toBe(Number(g.num_rows));
    }
  }
}

async function roundTrip(batches: () => TypedFileBatch[], options: Options, name: string): Promise<Uint8Array> {

  const js = jsFile(batches(), options);
  const wasm = wasmFile(batches(), options);
  const source = sourceColumns(batches());

  expect(await lakegateRead(js)).toEqual(source);

  expect(wasmRows(js)).toEqual(wasmRows(wasm));

  expect(await duckRows(js, `${name}-js`)).toEqual(await duckRows(wasm, `${name}-wasm`));

  expect(footerFacts(js)).toEqual(footerFacts(wasm));
  // parquet-wasm's codec, or UNCOMPRESSED for a chunk that would not shrink
  const wasmCodecs = footerCodecs(wasm);
  footerCodecs(js).forEach((g, k) => g.forEach((codec, c) => expect([wasmCodecs[k]![c], 'UNCOMPRESSED']).toContain(codec)));
  expectJsDecodable(js);
  // within ~10 % of parquet-wasm's size (big files: a small one is mostly parquet-wasm's ARROW:schema metadata)
  if (wasm.byteLength > 100_000) {
    expect(js.byteLength / wasm.byteLength).toBeGreaterThan(0.75);
    expect(js.byteLength / wasm.byteLength).toBeLessThan(1.1);
  }
  return js;
}

describe('JS Parquet writer', () => {
  it('every type, NULLs, page and row-group boundaries across batches, snappy', async () => {
    // row group 1: the first batch, the 7 rows, 8,993 rows of the third; row group 2: its other 15,007 rows, all NULL
    const make = (): TypedFileBatch[] => [batch(0, 21_000), batch(21_000, 7), batch(21_007, 24_000, { nullRun: [29_000, 45_007] })];
    await roundTrip(make, { rowGroupRows: 30_000 }, 'types');
  }, 120_000);

  it('uncompressed; columns kept off the dictionary; a dictionary past 1 MiB falls back to PLAIN', async () => {
    const make = (): TypedFileBatch[] => [batch(0, 25_000, { wide: true })];
    await roundTrip(make, { rowGroupRows: 25_000, compressionCodec: 'uncompressed', noDictionary: ['i', 'l', 's'] }, 'plain');
  }, 120_000);

  it('a single row, and a row group of one value repeated', async () => {
    await roundTrip(() => [batch(5, 1)], { rowGroupRows: 10 }, 'one');
  }, 60_000);

  it('COPY\'s files are written by it by default, in-thread and on the encode threads; LAKEGATE_PARQUET_WRITER=wasm switches back', async () => {
    const createdBy = async (workerMinBytes: number): Promise<string[]> => {
      const io = memoryWriteIO();
      const w = new ParquetDataWriter(io, 'memory://t/data', icebergSchema, { workerMinBytes, relationName: 't' });
      const b = batch(0, 3000);
      await w.add(new TypedBatch(b.length, b.columns));
      const files = await w.close();
      for (const f of files) expect((await lakegateRead(io.files.get(f.path)!))[0]!.length).toBe(3000);
      return files.map((f) => {
        const file = io.files.get(f.path)!;
        return parquetMetadata(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer).created_by ?? '';
      });
    };
    expect(await createdBy(Infinity)).toEqual(['lakegate js-parquet-writer']);
    expect(await createdBy(0)).toEqual(['lakegate js-parquet-writer']);
    process.env.LAKEGATE_PARQUET_WRITER = 'wasm';
    try {
      expect((await createdBy(Infinity))[0]).toMatch(/parquet-rs/);
    } finally {
      delete process.env.LAKEGATE_PARQUET_WRITER;
    }
  }, 60_000);

  it('codecs it does not write are left to parquet-wasm', () => {
    expect(writeTypedParquet({ schema: schemaIpc, batches: [batch(0, 10)], options: { rowGroupRows: 10, compressionCodec: 'zstd' } })).toBeNull();
  });
});
