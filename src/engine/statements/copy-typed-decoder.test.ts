/**
 * COPY's typed decoding (copy-typed-decoder.ts + copy-column-sinks.ts): every value must be what the type
 * input function (textIn + the char(n)/varchar(n) rules) gives for the same text, and every error the one it
 * raises — the fast paths only take canonical spellings. Checked per lineitem type with edge cases, then
 * CSV/text record rules (NULL vs empty, quotes, escapes, CRLF) on typed columns.
 */
import { describe, expect, it } from 'vitest';
import { decodeCopyInTyped } from './copy-typed-decoder.ts';
import type { CopyTarget } from './copy-in-decoder.ts';
import type { CopyOptions } from './copy-options.ts';
import { charTypmod } from './copy-text-fields.ts';
import { textIn } from '../../common/pgtypes/index.ts';
import { Oid, type SqlType } from '../../common/pgtypes/oids.ts';
import { DEFAULT_OUTPUT_SETTINGS } from '../../common/pgtypes/output-settings.ts';
import { toGatewayError } from '../../common/errors.ts';
import { rowsOfBatch } from '../../common/batch.ts';
import type { TypedColumn } from '../../iceberg/write/typed-columns.ts';

const csv: CopyOptions = {
  format: 'csv', header: false, delimiter: ',', nullString: '', quote: '"', escape: '"', forceQuote: [], forceNotNull: [], forceNull: [],
};
const text: CopyOptions = { ...csv, format: 'text', delimiter: '\t', nullString: '\\N' };
const numeric = (p: number, s: number): SqlType => ({ oid: Oid.numeric, typmod: ((p << 16) | s) + 4 });
const t = (oid: number, typmod = -1): SqlType => ({ oid, typmod });

async function decode(input: string, options: CopyOptions, types: readonly SqlType[], batchRows?: number, cuts: readonly number[] = []): Promise<{ rows: unknown[][]; kinds: string[] }> {
  const target: CopyTarget = { table: 't', columns: types.map((type, i) => ({ name: `c${i}`, type })) };
  const bytes = new TextEncoder().encode(input);
  const at = [0, ...cuts.filter((c) => c > 0 && c < bytes.length), bytes.length];
  async function* one(): AsyncIterable<Uint8Array> {
    for (let i = 0; i + 1 < at.length; i++) yield bytes.slice(at[i], at[i + 1]);
  }
  const rows: unknown[][] = [];
  const kinds: string[] = [];
  for await (const b of decodeCopyInTyped(one(), options, target, DEFAULT_OUTPUT_SETTINGS, batchRows)) {
    rows.push(...rowsOfBatch(b));
    kinds.push(...b.typed.map((c: TypedColumn) => c.kind));
  }
  return { rows, kinds };
}

/** what the input function says: the value, or the error's code and message */
function oracle(type: SqlType, s: string): unknown {
  try {
    return { value: charTypmod(type, textIn(type.oid, type.typmod, s, DEFAULT_OUTPUT_SETTINGS)) };
  } catch (e) {
    const g = toGatewayError(e);
    return { code: g.code, message: g.message };
  }
}

async function typed(type: SqlType, s: string): Promise<unknown> {
  const quoted = `"${s.replace(/"/g, '""')}"`;
  try {
    const { rows } = await decode(`${quoted}\n`, csv, [type]);
    return { value: rows[0]![0] };
  } catch (e) {
    const g = toGatewayError(e);
    expect(g.where).toBe(`COPY t, line 1, column c0: "${s}"`);
    return { code: g.code, message: g.message };
  }
}

const cases: ReadonlyArray<[string, SqlType, readonly string[]]> = [
  ['int2', t(Oid.int2), ['0', '-0', '7', '-32768', '32767', '32768', '-32769', '+5', ' 12 ', '007', '1_000', '', 'x']],
  ['int4', t(Oid.int4), ['1', '-1', '999999999', '1000000000', '2147483647', '-2147483648', '2147483648', '-2147483649', '1.0', '1e3', '٣']],
  ['int8', t(Oid.int8), ['0', '-1', '123456789012345', '999999999999999', '1000000000000000', '9007199254740993', '9223372036854775807',
    '-9223372036854775808', '9223372036854775808', '-9223372036854775809', '12a']],
  ['numeric(15,2)', numeric(15, 2), ['5516.79', '0.06', '0', '-0', '-0.00', '.5', '5.', '-.5', '1.005', '-1.005', '2.675', '123.456', '1e3', '1.5E-1', '-2.5e+2',
    '9999999999999.99', '9999999999999.995', '10000000000000', '0001.10', ' 12.3 ', 'NaN', 'Infinity', '1.2.3', '.', '-', '']],
  ['numeric(38,10)', numeric(38, 10), ['1234567890123456789012345678.1234567891', '-0.00000000005', '12345.6789', '1e27', '1e28']],
  ['numeric(5,0)', numeric(5, 0), ['99999', '100000', '99999.4', '99999.5', '-12']],
  ['date', t(Oid.date), ['1996-10-05', '1970-01-01', '1969-12-31', '2000-02-29', '1900-02-29', '2001-02-29', '1996-13-01', '1996-00-10', '1996-04-31',
    '0001-01-01', '0000-01-01', '9999-12-31', 'infinity', '-infinity', '2000-01-01 BC', '19961005', '1996-1-5', 'Oct 5 1996', 'epoch', ' 1996-10-05']],
  ['text', t(Oid.text), ['', ' ', 'plain', 'héllo wörld', 'with "quotes", and\nnewline', '\\N', 'tab\there']],
  ['char(5)', t(Oid.bpchar, 9), ['', 'ab', 'abcde', 'abcdef', 'abcde   ', 'é', 'ééééé', 'éééééé', ' ']],
  ['varchar(3)', t(Oid.varchar, 7), ['', 'abc', 'abcd', 'abc  ', 'éé', 'éééé']],
];

describe('typed COPY decoding = the type input functions', () => {
  for (const [name, type, inputs] of cases) {
    it(name, async () => {
      for (const s of inputs) expect([s, await typed(type, s)]).toEqual([s, oracle(type, s)]);
    });
  }

  it('keeps lineitem columns in typed buffers; an unrepresentable value turns the column into JS values', async () => {
    const types = [t(Oid.int8), t(Oid.int4), numeric(15, 2), t(Oid.date), t(Oid.bpchar, 9), t(Oid.varchar, 48)];
    const { rows, kinds } = await decode('1,2,3.50,1996-10-05,N,"a, b"\n', csv, types);
    expect(kinds).toEqual(['int64', 'int32', 'decimal', 'int32', 'utf8', 'utf8']);
    expect(rows).toEqual([[1n, 2, textIn(Oid.numeric, numeric(15, 2).typmod, '3.50'), 9774, 'N    ', 'a, b']]);
    const inf = await decode('1996-10-05\ninfinity\n\n', csv, [t(Oid.date)]);
    expect(inf.kinds).toEqual(['values']);
    expect(inf.rows).toEqual([[9774], [Infinity], [null]]);
    const nan = await decode('1.5\nNaN\n', csv, [numeric(15, 2)]);
    expect(nan.kinds).toEqual(['values']);
    expect(nan.rows.map((r) => String(r[0]))).toEqual(['1.50', 'NaN']);
  });

  it('CSV: NULL is the unquoted empty field, "" is an empty string; FORCE_NULL / FORCE_NOT_NULL; CRLF', async () => {
    const types = [t(Oid.int4), t(Oid.text)];
    expect((await decode('1,\r\n2,""\r\n,x\r\n"3","y"\r\n', csv, types)).rows).toEqual([[1, null], [2, ''], [null, 'x'], [3, 'y']]);
    expect((await decode('1,""\n2,\n', { ...csv, forceNull: ['c1'] }, types)).rows).toEqual([[1, null], [2, null]]);
    expect((await decode('1,""\n2,\n', { ...csv, forceNotNull: ['c1'] }, types)).rows).toEqual([[1, ''], [2, '']]);
    expect((await decode('1,"a""b"\n2,"x"y\n3,"line\r\nbreak"\n', csv, types)).rows).toEqual([[1, 'a"b'], [2, 'xy'], [3, 'line\r\nbreak']]);
    expect((await decode('1,"x\\"y"\n', { ...csv, escape: '\\' }, types)).rows).toEqual([[1, 'x"y']]);
    expect((await decode('1,NULL\n2,"NULL"\n', { ...csv, nullString: 'NULL' }, types)).rows).toEqual([[1, null], [2, 'NULL']]);
    expect((await decode('7;"a;b"\n', { ...csv, delimiter: ';' }, types)).rows).toEqual([[7, 'a;b']]);
  });

  it('CSV quoted fields read in place or through the scratch buffer give the same values, whatever the cuts', async () => {
    const types = [t(Oid.text), t(Oid.int4), t(Oid.text)];
    // PostgreSQL 15 reads these as the rows of `want` (checked with psql \\copy … (format csv, escape '\\'))
    const input = '"plain, quoted",7,""\n"a\\"b",8,"x\\\\y"\n"",9,"e\\f"\n"ends",10,"at end"';
    const escaped = { ...csv, escape: '\\' };
    const want = [['plain, quoted', 7, ''], ['a"b', 8, 'x\\y'], ['', 9, 'e\\f'], ['ends', 10, 'at end']];
    expect((await decode(input, escaped, types)).rows).toEqual(want);
    for (let cut = 1; cut < input.length; cut += 3) expect((await decode(input, escaped, types, undefined, [cut, cut + 5])).rows).toEqual(want);
    expect((await decode('"a",1,"b"\n', { ...csv, forceNull: ['c0'] }, types)).rows).toEqual([['a', 1, 'b']]);
    expect((await decode('"",1,""\n', { ...csv, forceNull: ['c0'] }, types)).rows).toEqual([[null, 1, '']]);
  });

  it('text: \\N, backslash escapes, an escaped delimiter, CRLF', async () => {
    const types = [t(Oid.int4), t(Oid.text)];
    expect((await decode('1\t\\N\r\n2\ta\\tb\\\\c\n3\t\\x41\\101\\n\n4\tx\\\ty\n', text, types)).rows)
      .toEqual([[1, null], [2, 'a\tb\\c'], [3, 'AA\n'], [4, 'x\ty']]);
    expect((await decode('\\N\t\n', text, types)).rows).toEqual([[null, '']]);
    await expect(decode('1\\x\tx\n', text, types)).rejects.toMatchObject({ code: '22P02', where: 'COPY t, line 1, column c0: "1x"' });
  });

  it('gives the same rows whatever the payload boundaries (multi-byte characters, quoted newlines, CRLF, \\.)', async () => {
    const types = [t(Oid.int8), numeric(15, 2), t(Oid.date), t(Oid.bpchar, 8), t(Oid.text)];
    const input = '1,1.50,1996-10-05,é,"a\nb"\r\n-2,-0.5,1970-01-01,"x,y","q""q"\n3,,,,\n\\.\nignored\n';
    const expected = (await decode(input, csv, types)).rows;
    expect(expected).toHaveLength(3);
    const n = new TextEncoder().encode(input).length;
    for (let cut = 1; cut < n; cut++) expect((await decode(input, csv, types, 2, [cut])).rows).toEqual(expected);
    expect((await decode(input, csv, types, 2, Array.from({ length: n }, (_, i) => i))).rows).toEqual(expected);
    const textInput = '1\t2.5\t2000-01-01\tß\ta\\tb\r\n2\t\\N\t\\N\t\\N\tlast';
    const textRows = (await decode(textInput, text, types)).rows;
    expect(textRows).toHaveLength(2);
    for (let cut = 1; cut < textInput.length; cut++) expect((await decode(textInput, text, types, 16384, [cut])).rows).toEqual(textRows);
  });

  it('records wider than the field-bound arrays start (16): quoted csv and text fields beyond them keep their values', async () => {
    const width = 40;
    const types = Array.from({ length: width }, (_, i) => (i % 2 === 0 ? t(Oid.int4) : t(Oid.text)));
    const row = (r: number): string[] => Array.from({ length: width }, (_, i) => (i % 2 === 0 ? String(r * 100 + i) : `v${r}_${i}`));
    const expected = [0, 1, 2].map((r) => row(r).map((v, i) => (i % 2 === 0 ? Number(v) : v)));
    // quoted fields send csv records through the general reader, which records every field's bounds
    const csvInput = [0, 1, 2].map((r) => row(r).map((v, i) => (i % 2 === 1 ? `"${v}"` : v)).join(',')).join('\n') + '\n';
    expect((await decode(csvInput, csv, types)).rows).toEqual(expected);
    const textInput = [0, 1, 2].map((r) => row(r).map((v, i) => (i === width - 1 ? `${v}\\t` : v)).join('\t')).join('\n') + '\n';
    const textRows = (await decode(textInput, text, types)).rows;
    expect(textRows.map((r) => r.slice(0, width - 1))).toEqual(expected.map((r) => r.slice(0, width - 1)));
    expect(textRows.map((r) => r[width - 1])).toEqual([0, 1, 2].map((r) => `v${r}_${width - 1}\t`));
    // more fields than columns, past the grown arrays too: PostgreSQL's 22P04
    await expect(decode(`${[...row(0), ...row(1)].map((v) => `"${v}"`).join(',')}\n`, csv, types)).rejects.toMatchObject({ code: '22P04', message: 'extra data after last expected column' });
  });

  it('batches of batchRows rows; 22P04 and 22021 errors name what PostgreSQL names', async () => {
    const { rows } = await decode(Array.from({ length: 10 }, (_, i) => `${i},v${i}\n`).join(''), csv, [t(Oid.int4), t(Oid.text)], 3);
    expect(rows.map((r) => r[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await expect(decode('1,a\n2\n', csv, [t(Oid.int4), t(Oid.text)])).rejects.toMatchObject({ code: '22P04', message: 'missing data for column "c1"', where: 'COPY t, line 2' });
    // the field count is checked before any value is converted
    await expect(decode('x,a,b\n', csv, [t(Oid.int4), t(Oid.text)])).rejects.toMatchObject({ code: '22P04', message: 'extra data after last expected column' });
    await expect(decode('1,"open\n', csv, [t(Oid.int4), t(Oid.text)])).rejects.toMatchObject({ code: '22P04', message: 'unterminated CSV quoted field' });
    const bad = new Uint8Array([0x31, 0x2c, 0xc3, 0x28, 0x0a]);
    const target: CopyTarget = { table: 't', columns: [{ name: 'a', type: t(Oid.int4) }, { name: 'b', type: t(Oid.text) }] };
    const run = async (): Promise<void> => {
      async function* one(): AsyncIterable<Uint8Array> {
        yield bad;
      }
      for await (const _ of decodeCopyInTyped(one(), csv, target, DEFAULT_OUTPUT_SETTINGS)) { /* drain */ }
    };
    await expect(run()).rejects.toMatchObject({ code: '22021' });
  });
});
