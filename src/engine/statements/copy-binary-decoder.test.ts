/**
 * Binary COPY into typed buffers (copy-binary-decoder.ts + copy-column-sinks.ts `binary`): every value must be
 * what binaryIn gives plus the column's typmod (PostgreSQL's receive functions: numeric(p,s) rounds / 22003,
 * char(n) pads, 22001), every error the one it raises, with the line and column; tuples split anywhere
 * across payloads; NULLs; the typed kinds kept; a partial tuple at the end is 22P04.
 */
import { describe, expect, it } from 'vitest';
import { decodeCopyInBinaryTyped } from './copy-binary-decoder.ts';
import type { CopyTarget } from './copy-in-decoder.ts';
import { charTypmod } from './copy-text-fields.ts';
import { binaryIn, binaryOut, textIn } from '../../common/pgtypes/index.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { Oid, type SqlType } from '../../common/pgtypes/oids.ts';
import { DEFAULT_OUTPUT_SETTINGS } from '../../common/pgtypes/output-settings.ts';
import { toGatewayError } from '../../common/errors.ts';
import { rowsOfBatch } from '../../common/batch.ts';

const numeric = (p: number, s: number): SqlType => ({ oid: Oid.numeric, typmod: ((p << 16) | s) + 4 });
const t = (oid: number, typmod = -1): SqlType => ({ oid, typmod });

const HEADER = Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]);
const TRAILER = Buffer.from([0xff, 0xff]);

function tuple(fields: readonly (Uint8Array | null)[]): Buffer {
  const parts: Buffer[] = [Buffer.from([fields.length >> 8, fields.length & 0xff])];
  for (const f of fields) {
    const len = Buffer.alloc(4);
    len.writeInt32BE(f === null ? -1 : f.length);
    parts.push(len);
    if (f !== null) parts.push(Buffer.from(f));
  }
  return Buffer.concat(parts);
}

async function decode(bytes: Uint8Array, types: readonly SqlType[], batchRows?: number, cuts: readonly number[] = []): Promise<{ rows: unknown[][]; kinds: string[] }> {
  const target: CopyTarget = { table: 't', columns: types.map((type, i) => ({ name: `c${i}`, type })) };
  const at = [0, ...cuts.filter((c) => c > 0 && c < bytes.length), bytes.length];
  async function* chunks(): AsyncIterable<Uint8Array> {
    for (let i = 0; i + 1 < at.length; i++) yield bytes.slice(at[i], at[i + 1]);
  }
  const rows: unknown[][] = [];
  const kinds: string[] = [];
  for await (const b of decodeCopyInBinaryTyped(chunks(), target, DEFAULT_OUTPUT_SETTINGS, batchRows)) {
    rows.push(...rowsOfBatch(b));
    kinds.push(...b.typed.map((c) => c.kind));
  }
  return { rows, kinds };
}

/** binaryIn and the typmod, or the error's code and message */
function oracle(type: SqlType, bytes: Uint8Array): unknown {
  try {
    let v = binaryIn(type.oid, bytes);
    if (type.oid === Oid.numeric && type.typmod >= 4) v = textIn(Oid.numeric, type.typmod, String(v), DEFAULT_OUTPUT_SETTINGS);
    return { value: charTypmod(type, v) };
  } catch (e) {
    const g = toGatewayError(e);
    return { code: g.code, message: g.message };
  }
}

async function typed(type: SqlType, bytes: Uint8Array): Promise<unknown> {
  try {
    const { rows } = await decode(Buffer.concat([HEADER, tuple([bytes]), TRAILER]), [type]);
    return { value: rows[0]![0] };
  } catch (e) {
    const g = toGatewayError(e);
    expect(g.where).toBe('COPY t, line 1, column c0');
    return { code: g.code, message: g.message };
  }
}

const num = (s: string): Uint8Array => binaryOut(Oid.numeric, Numeric.parse(s));
const str = (s: string): Uint8Array => new TextEncoder().encode(s);
const cases: ReadonlyArray<[string, SqlType, readonly Uint8Array[]]> = [
  ['int2', t(Oid.int2), [binaryOut(Oid.int2, 0), binaryOut(Oid.int2, -32768), binaryOut(Oid.int2, 32767), Uint8Array.of(1), Uint8Array.of(0, 0, 1)]],
  ['int4', t(Oid.int4), [binaryOut(Oid.int4, -1), binaryOut(Oid.int4, 2147483647), binaryOut(Oid.int4, -2147483648), Uint8Array.of(1, 2, 3)]],
  ['int8', t(Oid.int8), [0n, -1n, 9007199254740991n, 9007199254740993n, -(2n ** 63n), 2n ** 63n - 1n, 2n ** 53n, -(2n ** 53n) - 1n].map((v) => binaryOut(Oid.int8, v))
    .concat([Uint8Array.of(0, 0, 0, 0)])],
  ['numeric(15,2)', numeric(15, 2), ['0', '-0', '5516.79', '0.06', '-0.5', '1.005', '2.675', '9999999999999.99', '9999999999999.995', '10000000000000', '12345678.9',
    '100000000', '0.0001', '1e10', 'NaN', 'Infinity', '-Infinity'].map(num).concat([Uint8Array.of(0, 1, 0, 0, 0x40, 0, 0, 0), Uint8Array.of(0, 0)])],
  ['numeric(38,10)', numeric(38, 10), ['1234567890123456789012345678.1234567891', '-0.00000000005', '12345.6789', '1e27', '1e28'].map(num)],
  ['numeric(5,0)', numeric(5, 0), ['99999', '100000', '99999.4', '99999.5', '-12'].map(num)],
  ['date', t(Oid.date), [0, -10957, 9774, -800_000, 2_000_000, Infinity, -Infinity].map((d) => binaryOut(Oid.date, d)).concat([Uint8Array.of(0, 0)])],
  ['text', t(Oid.text), ['', ' ', 'plain', 'héllo', 'tab\there'].map(str).concat([Uint8Array.of(0xc3, 0x28)])],
  ['char(5)', t(Oid.bpchar, 9), ['', 'ab', 'abcde', 'abcdef', 'abcde   ', 'é', 'ééééé', 'éééééé'].map(str)],
  ['varchar(3)', t(Oid.varchar, 7), ['', 'abc', 'abcd', 'abc  ', 'éé', 'éééé'].map(str)],
  ['float8 (JS values)', t(Oid.float8), [1.5, -0, Number.NaN].map((v) => binaryOut(Oid.float8, v))],
];

describe('binary COPY into typed buffers = binaryIn + typmod', () => {
  for (const [name, type, inputs] of cases) {
    it(name, async () => {
      for (const b of inputs) {
        const label = Buffer.from(b).toString('hex');
        expect([label, await typed(type, b)]).toEqual([label, oracle(type, b)]);
      }
    });
  }

  it('keeps lineitem columns typed, NULLs, batches, any payload boundaries', async () => {
    const types = [t(Oid.int8), t(Oid.int4), numeric(15, 2), t(Oid.date), t(Oid.bpchar, 9), t(Oid.varchar, 48)];
    const rows = [
      [binaryOut(Oid.int8, 1n), binaryOut(Oid.int4, 2), num('3.50'), binaryOut(Oid.date, 9774), str('N'), str('a, b')],
      [null, binaryOut(Oid.int4, -7), null, null, null, str('')],
      [binaryOut(Oid.int8, -5n), null, num('-0.01'), binaryOut(Oid.date, -1), str('xyz'), null],
    ];
    const bytes = Buffer.concat([HEADER, ...rows.map(tuple), TRAILER]);
    const { rows: out, kinds } = await decode(bytes, types, 2);
    expect(kinds).toEqual(['int64', 'int32', 'decimal', 'int32', 'utf8', 'utf8', 'int64', 'int32', 'decimal', 'int32', 'utf8', 'utf8']);
    expect(out).toEqual([
      [1n, 2, Numeric.parse('3.50'), 9774, 'N    ', 'a, b'],
      [null, -7, null, null, null, ''],
      [-5n, null, Numeric.parse('-0.01'), -1, 'xyz  ', null],
    ]);
    for (let cut = 1; cut < bytes.length; cut++) expect((await decode(bytes, types, 2, [cut])).rows).toEqual(out);
    expect((await decode(bytes, types, 16, Array.from({ length: bytes.length }, (_, i) => i))).rows).toEqual(out);
    // no trailer: the end of the data between tuples ends the COPY, as in PostgreSQL
    expect((await decode(Buffer.concat([HEADER, ...rows.map(tuple)]), types)).rows).toEqual(out);
  });

  it('format errors: signature, field count, partial tuple at the end, invalid field size', async () => {
    const one = [t(Oid.int4)];
    await expect(decode(Buffer.from('PGCOPX\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1'), one)).rejects.toMatchObject({ code: '22P04', message: 'COPY file signature not recognized' });
    await expect(decode(Buffer.concat([HEADER, tuple([binaryOut(Oid.int4, 1)]), tuple([binaryOut(Oid.int4, 1), null])]), one))
      .rejects.toMatchObject({ code: '22P04', message: 'row field count is 2, expected 1', where: 'COPY t, line 2' });
    const partial = Buffer.concat([HEADER, tuple([binaryOut(Oid.int4, 1)])]);
    await expect(decode(Buffer.concat([partial, tuple([binaryOut(Oid.int4, 2)]).subarray(0, 5)]), one))
      .rejects.toMatchObject({ code: '22P04', message: 'unexpected EOF in COPY data', where: 'COPY t, line 2' });
    await expect(decode(Buffer.concat([HEADER, Buffer.from([0, 1, 0xff, 0xff, 0xff, 0xfe]), TRAILER]), one))
      .rejects.toMatchObject({ code: '22P04', message: 'invalid field size' });
  });
});
