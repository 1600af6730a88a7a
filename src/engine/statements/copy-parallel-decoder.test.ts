/**
 * COPY text/csv decoded in chunks (copy-chunker.ts → copy-decode-task.ts, on this thread or on the decode
 * workers) must give what the one-stream decoder gives (decodeCopyInTyped): the same rows in the same order,
 * or the same first error with its line counted over the whole input — over seeded random inputs with quoted
 * newlines, doubled quotes, a backslash ESCAPE, NULLs, bad values, missing and extra fields, CRLF, a header,
 * the end marker and a last record without its newline, cut into payloads and chunks at random places.
 */
import { describe, expect, it } from 'vitest';
import { decodeCopyInTyped } from './copy-typed-decoder.ts';
import { decodeCopyInParallel, parallelDecodable, type ParallelDecodeOptions } from './copy-parallel-decoder.ts';
import { CopyChunker, csvRecordsEnd } from './copy-chunker.ts';
import { csvOptions, textOptions, typedCopyTarget } from '../testing/copy-fixtures.ts';
import type { CopyTarget } from './copy-in-decoder.ts';
import type { CopyOptions } from './copy-options.ts';
import { Oid, type SqlType } from '../../common/pgtypes/oids.ts';
import { DEFAULT_OUTPUT_SETTINGS } from '../../common/pgtypes/output-settings.ts';
import { toGatewayError } from '../../common/errors.ts';
import { rowsOfBatch } from '../../common/batch.ts';
import { mulberry32 } from '../../common/prng.ts';
import type { TypedBatch } from '../../iceberg/write/typed-columns.ts';

const csv = csvOptions;
const text = textOptions;
const { types, target } = typedCopyTarget(9);
const enc = new TextEncoder();

const good: readonly (readonly string[])[] = [
  ['0', '-12', '2147483647', '77'], ['1', '-9007199254740991', '42'], ['1.5', '-0.25', '12', '0.01'],
  ['2024-02-29', '1999-12-31', '2020-01-01'], ['hello', 'é ü', 'x', 'a b c'], ['short', 'éèêëé', '', 'ninechars'], ['ab', 'abc', 'éé', ''],
];
const odd = [' 12', '1e3', '12.345', 'x', '2020-02-30', '99999999999', 'infinity', 'toolongvalue!!', 'a"b', '"x\ny"', '"a""b"', '"a\\"b"', '"1,2",x', 'a\\tb', '\\x41', 'muchtoolongvalue'];

function input(r: () => number, format: 'csv' | 'text', errors: boolean, rows: number): string {
  const d = format === 'csv' ? ',' : '\t';
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) {
    const fields = types.map((_, c) => {
      const x = r();
      if (x < 0.06) return format === 'csv' ? '' : '\\N';
      if (errors && x < 0.07) return odd[Math.floor(r() * odd.length)]!;
      const v = good[c]![Math.floor(r() * good[c]!.length)]!;
      if (format === 'csv' && c >= 4 && x < 0.2) return `"${v}"`;
      if (format === 'csv' && c === 4 && x < 0.3) return `"${v}\n""${v}"""`;
      if (format === 'text' && x < 0.1) return 'a\\\\b';
      return v;
    });
    if (errors && r() < 0.005) fields.pop();
    if (errors && r() < 0.005) fields.push('7');
    lines.push(fields.join(d) + (r() < 0.1 ? '\r' : ''));
  }
  if (r() < 0.2) lines.push('\\.', 'ignored');
  return lines.join('\n') + (r() < 0.8 ? '\n' : '');
}

/** the input as payloads cut at random places */
async function* payloads(bytes: Uint8Array, r: () => number, maxPayload: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < bytes.length;) {
    const n = 1 + Math.floor(r() * maxPayload);
    yield bytes.slice(i, i + n);
    i += n;
  }
}

async function collect(batches: AsyncIterable<TypedBatch>): Promise<unknown> {
  try {
    const rows: unknown[][] = [];
    for await (const b of batches) rows.push(...rowsOfBatch(b));
    return { rows: rows.map((row) => row.map((v) => (typeof v === 'object' && v !== null ? String(v) : v))) };
  } catch (e) {
    const g = toGatewayError(e);
    return { error: [g.code, g.message, g.where] };
  }
}

async function both(options: CopyOptions, data: string, seed: number, o: ParallelDecodeOptions): Promise<[unknown, unknown]> {
  const bytes = enc.encode(data);
  const expected = await collect(decodeCopyInTyped(payloads(bytes, mulberry32(seed), 4096), options, target, DEFAULT_OUTPUT_SETTINGS));
  const actual = await collect(decodeCopyInParallel(payloads(bytes, mulberry32(seed + 1), 300), options, target, DEFAULT_OUTPUT_SETTINGS, o));
  return [actual, expected];
}

describe('csvRecordsEnd', () => {
  const end = (s: string, escape = '"'): number => csvRecordsEnd(enc.encode(s), 34, escape.charCodeAt(0));
  it('cuts after the last newline outside quotes', () => {
    expect(end('a,b\nc,d\n')).toBe(8);
    expect(end('a,b\nc,"d\n')).toBe(4);
    expect(end('a,"b\nc"\nd')).toBe(8);
    expect(end('a,"b""\n"\nx,"y\n')).toBe(9);
    expect(end('"a\nb"')).toBe(0);
    expect(end('abc')).toBe(0);
    // ESCAPE '\': \" inside quotes is data, a backslash outside quotes is not special
    expect(end('a,"b\\"\n"\nc', '\\')).toBe(9);
    expect(end('a,"b\\\\"\nc', '\\')).toBe(8);
    expect(end('a\\,"b"\nc', '\\')).toBe(7);
  });

  it('a chunker keeps a record longer than its target whole', () => {
    const c = new CopyChunker(true, 34, 34, 8);
    expect(c.push(enc.encode('"0123456789\n'))).toBeNull();
    expect(c.push(enc.encode('abcdefgh'))).toBeNull();
    expect(new TextDecoder().decode(c.push(enc.encode('",1\nx,2')) ?? new Uint8Array(0))).toBe('"0123456789\nabcdefgh",1\n');
    expect(new TextDecoder().decode(c.end() ?? new Uint8Array(0))).toBe('x,2');
  });
});

describe('chunked decoding = one-stream decoding', () => {
  it('typed columns only', () => {
    expect(parallelDecodable(csv, target)).toBe(true);
    expect(parallelDecodable({ ...csv, format: 'binary' }, target)).toBe(false);
    expect(parallelDecodable(csv, { table: 't', columns: [{ name: 'x', type: { oid: Oid.timestamp, typmod: -1 } }] })).toBe(false);
  });

  for (const format of ['csv', 'text'] as const) {
    for (let seed = 1; seed <= 40; seed++) {
      it(`${format} seed ${seed} (this thread)`, async () => {
        const r = mulberry32(seed * 17 + (format === 'csv' ? 0 : 5));
        const options = format === 'csv'
          ? { ...csv, header: seed % 5 === 0, ...(seed % 4 === 1 ? { escape: '\\' } : {}), ...(seed % 7 === 2 ? { forceNull: ['c4'], forceNotNull: ['c6'] } : {}) }
          : { ...text, header: seed % 6 === 0 };
        const data = input(r, format, seed % 3 !== 0, 20 + Math.floor(r() * 300));
        const [actual, expected] = await both(options, data, seed, { workers: false, chunkBytes: 16 + Math.floor(r() * 2000) });
        expect(actual).toEqual(expected);
      });
    }
  }
});

describe('line numbers', () => {
  it('count the newlines inside quotes, as PostgreSQL does (psql answered line 6 for this input)', async () => {
    const two: CopyTarget = { table: 't', columns: [{ name: 'id', type: { oid: Oid.int8, typmod: -1 } }, { name: 's', type: { oid: Oid.text, typmod: -1 } }] };
    const data = enc.encode('id,s\n1,"a\nb\nc"\n2,x\nx,y\n');
    const one = async function* (): AsyncIterable<Uint8Array> { yield data; };
    const options = { ...csv, header: true };
    const where = 'COPY t, line 6, column id: "x"';
    expect(await collect(decodeCopyInTyped(one(), options, two, DEFAULT_OUTPUT_SETTINGS))).toEqual({ error: ['22P02', 'invalid input syntax for type bigint: "x"', where] });
    expect(await collect(decodeCopyInParallel(one(), options, two, DEFAULT_OUTPUT_SETTINGS, { workers: false, chunkBytes: 8 }))).toEqual({ error: ['22P02', 'invalid input syntax for type bigint: "x"', where] });
  });
});

describe('decode workers', () => {
  const workers: ParallelDecodeOptions = { workerMinBytes: 0, waitForWorkers: true, chunkBytes: 4096 };

  it('rows in order and an error on a late line, counted over the whole input', async () => {
    const r = mulberry32(99);
    const data = input(r, 'csv', false, 3000);
    const [rows, expected] = await both(csv, data, 5, workers);
    expect(rows).toEqual(expected);
    expect(rows).toMatchObject({ rows: expect.any(Array) });
    expect((rows as { rows: unknown[] }).rows.length).toBeGreaterThan(1000);
    const bad = `${data.endsWith('\n') ? data : `${data}\n`}1,2,3.5,2020-01-01,a,b,c\nx,2,3.5,2020-01-01,a,b,c\n`.replace('\\.\n', '');
    const [err, expectedErr] = await both(csv, bad, 6, workers);
    expect(err).toEqual(expectedErr);
    expect(err).toMatchObject({ error: ['22P02', 'invalid input syntax for type integer: "x"', expect.stringMatching(/^COPY t, line \d{4}, column c0: "x"$/)] });
  }, 60_000);

  it('a column that must hold JS values (date infinity) and text escapes', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `${i}\t${i * 3}\t${i}.25\t${i === 1500 ? 'infinity' : '2020-01-02'}\ta\\tb\\\\${i}\t\\N\tx`);
    const [actual, expected] = await both(text, `${lines.join('\n')}\n`, 7, workers);
    expect(actual).toEqual(expected);
    expect((actual as { rows: unknown[][] }).rows[1500]![3]).toBe(Infinity);
  }, 60_000);
});
