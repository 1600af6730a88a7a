/**
 * The JS writer picks each column chunk's codec (js-parquet-chunk-codec.mjs): in a snappy file, chunks whose
 * dictionary and first data page shrink keep snappy, the others are written uncompressed — dictionary codes of
 * random values, random keys PLAIN, a column of NULLs only — and an uncompressed file stays uncompressed. Every
 * reader sees the same rows: lakegate's reader (JS page decoder), parquet-wasm and DuckDB.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Field, Int32, Int64, Schema as ArrowSchema, Table, Utf8, tableFromIPC, tableToIPC } from 'apache-arrow';
import { parquetMetadata } from 'hyparquet';
import { readParquet } from 'parquet-wasm';
import { afterAll, describe, expect, it } from 'vitest';
import { readParquetColumns } from '../read/parquet-reader.ts';
import { parseSchema } from '../spec/schema.ts';
import { writeTypedParquet } from './js-parquet-writer.mjs';
import { Int32Builder, Int64Builder, Utf8Builder } from './typed-column-builders.ts';
import { materializeColumn, type TypedColumn } from './typed-columns.ts';
import type { BufferColumn, TypedFileBatch } from './typed-file-ipc.mjs';

// sorted keys (PLAIN, shrink), random keys (PLAIN, do not), random codes of a small dictionary (do not),
// a repeating line number (dictionary, shrinks), text (PLAIN, shrinks), NULLs only (do not)
const NAMES = ['sorted', 'random', 'code', 'line', 'text', 'none'];
const TYPES = [new Int64(), new Int32(), new Int32(), new Int32(), new Utf8(), new Utf8()];
const NO_DICTIONARY = ['sorted', 'random', 'text'];
const schemaIpc = tableToIPC(new Table(new ArrowSchema(NAMES.map((n, k) => new Field(n, TYPES[k]!, n === 'none', new Map([['PARQUET:field_id', String(k + 1)]])))), []), 'stream');
const icebergSchema = parseSchema({
  type: 'struct', 'schema-id': 0,
  fields: NAMES.map((name, k) => ({ id: k + 1, name, required: name !== 'none', type: ['long', 'int', 'int', 'int', 'string', 'string'][k]! })),
});

/** mulberry32: the same pseudo-random values on every run */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function batch(from: number, n: number): TypedFileBatch {
  const next = random(from + 1);
  const sorted = new Int64Builder(n);
  const rand = new Int32Builder(n, 'int');
  const code = new Int32Builder(n, 'int');
  const line = new Int32Builder(n, 'int');
  const text = new Utf8Builder(n);
  const none = new Utf8Builder(n);
  const enc = new TextEncoder();
  const words = ['furiously', 'quickly', 'final', 'deposits', 'ironic', 'packages', 'sleep', 'blithely'];
  for (let r = from; r < from + n; r++) {
    sorted.appendNumber(1000 + (r >> 2));
    rand.append(Math.floor(next() * 2 ** 31));
    code.append(Math.floor(next() * 2000));
    line.append(1 + ((r * 5) % 7 === 0 ? 0 : r % 7));
    const s = enc.encode(`${words[r % 8]} ${words[(r >> 3) % 8]} ${words[(r >> 6) % 8]}`);
    text.appendBytes(s, 0, s.length);
    none.appendNull();
  }
  const cols: TypedColumn[] = [sorted.finish(), rand.finish(), code.finish(), line.finish(), text.finish(), none.finish()];
  return { length: n, columns: cols as BufferColumn[] };
}

const codecsOf = (file: Uint8Array): string[][] =>
  parquetMetadata(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer).row_groups.map((g) => g.columns.map((c) => c.meta_data!.codec));

const dir = mkdtempSync(join(tmpdir(), 'chunk-codec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function readers(file: Uint8Array, batches: TypedFileBatch[]): Promise<void> {
  const source = NAMES.map((_, c) => batches.flatMap((b) => materializeColumn(b.columns[c]!)));
  const ours: unknown[][] = NAMES.map(() => []);
  const cols = icebergSchema.fields.map((f) => ({ fieldId: f.id, type: f.type, missingValue: null }));
  for await (const chunk of readParquetColumns(file, 'mem.parquet', cols)) chunk.columns.forEach((col, c) => { for (const v of col) ours[c]!.push(v); });
  expect(ours).toEqual(source);
  const wasm = tableFromIPC(readParquet(file).intoIPCStream());
  expect(NAMES.map((n) => Array.from(wasm.getChild(n)!.toArray() as ArrayLike<unknown>))).toEqual(source);
  const path = join(dir, `f${Math.random().toString(36).slice(2)}.parquet`);
  writeFileSync(path, file);
  const db = await DuckDBInstance.create(':memory:', { threads: '1' });
  const c = await db.connect();
  try {
    const r = await c.runAndReadAll(`SELECT count(*)::INT, sum(sorted)::BIGINT, sum(random)::BIGINT, sum(code)::BIGINT, sum(line)::BIGINT, count(DISTINCT text)::INT, count(none)::INT FROM read_parquet('${path}')`);
    const sum = (c: number): bigint => source[c]!.reduce<bigint>((s, v) => s + BigInt(v as number | bigint), 0n);
    expect(r.getRows()[0]).toEqual([source[0]!.length, sum(0), sum(1), sum(2), sum(3), new Set(source[4]).size, 0]);
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

describe('per column chunk codec of the JS Parquet writer', () => {
  const batches = [batch(0, 30_000), batch(30_000, 20_000)];

  it('a snappy file leaves the chunks that would not shrink uncompressed; every reader reads it', async () => {
    const file = writeTypedParquet({ schema: schemaIpc, batches, options: { rowGroupRows: 25_000, noDictionary: NO_DICTIONARY } })!;
    const expected = ['SNAPPY', 'UNCOMPRESSED', 'UNCOMPRESSED', 'SNAPPY', 'SNAPPY', 'UNCOMPRESSED'];
    expect(codecsOf(file)).toEqual([expected, expected]);
    await readers(file, batches);
  }, 60_000);

  it('an uncompressed file stays uncompressed', async () => {
    const file = writeTypedParquet({ schema: schemaIpc, batches, options: { rowGroupRows: 25_000, noDictionary: NO_DICTIONARY, compressionCodec: 'uncompressed' } })!;
    expect(codecsOf(file).flat().every((c) => c === 'UNCOMPRESSED')).toBe(true);
    await readers(file, batches);
  }, 60_000);
});
