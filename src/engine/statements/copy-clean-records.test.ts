/**
 * The clean-record path of the typed COPY decoder (csv records without quotes, text records without
 * backslashes: split and converted in one walk) against the general readers, record by record: over seeded
 * random inputs mixing clean and quoted/escaped records, NULLs, bad values, too few and too many fields,
 * CRLF, a header and the end marker, both give the same rows, or the same first error (code, message,
 * CONTEXT) — PostgreSQL's order: extra data before conversion errors, a missing column after the columns
 * before it converted.
 */
import { describe, expect, it } from 'vitest';
import { CopyTypedDecoder } from './copy-typed-decoder.ts';
import { csvOptions, textOptions, typedCopyTarget } from '../testing/copy-fixtures.ts';
import type { CopyOptions } from './copy-options.ts';
import { Oid, type SqlType } from '../../common/pgtypes/oids.ts';
import { DEFAULT_OUTPUT_SETTINGS } from '../../common/pgtypes/output-settings.ts';
import { toGatewayError } from '../../common/errors.ts';
import { rowsOfBatch } from '../../common/batch.ts';
import { mulberry32 } from '../../common/prng.ts';

const csv = csvOptions;
const text = textOptions;
const { types, target } = typedCopyTarget(5);

const rng = mulberry32;

const good: readonly (readonly string[])[] = [
  ['0', '-12', '2147483647', '-2147483648', '77'],
  ['1', '-9007199254740991', '123456789012345', '42'],
  ['1.5', '-0.25', '12', '0.01', '9999999999999.99', '-3'],
  ['2024-02-29', '1999-12-31', '0001-01-01', '2020-01-01'],
  ['hello', 'é ü', 'x', 'a b c', 'ZZZ'],
  ['short', 'éèêëé', '', 'ninechars'],
  ['ab', 'abc', 'éé', ''],
];
const odd = [' 12', '+5', '1e3', '12.345', 'x', '2020-02-30', '99999999999', 'infinity', '1,5', '"q"', '"a,b"', '"a""b"', '\\N', 'a\\tb', '\\x41', '12345678901', 'toolongvalue!!',
  'a"b', '"x\ny"', '"ab"\rc', '"ab"c', '"a\\"b"', '""', '"12"', '"1,2",x', '"é,"'];

function input(r: () => number, format: 'csv' | 'text', errors: boolean, delimiter?: string): string {
  const d = delimiter ?? (format === 'csv' ? ',' : '\t');
  const lines: string[] = [];
  const n = 1 + Math.floor(r() * 60);
  for (let i = 0; i < n; i++) {
    const fields = types.map((_, c) => {
      const x = r();
      if (x < 0.08) return format === 'csv' ? '' : '\\N';
      if (errors && x < 0.11) return odd[Math.floor(r() * odd.length)]!;
      if (format === 'csv' && x < 0.16) return `"${good[c]![Math.floor(r() * good[c]!.length)]}"`;
      if (format === 'csv' && x < 0.18) return '""';
      if (format === 'text' && x < 0.14) return 'a\\\\b';
      return good[c]![Math.floor(r() * good[c]!.length)]!;
    });
    if (errors && r() < 0.02) fields.pop();
    if (errors && r() < 0.02) fields.push('7');
    lines.push(fields.join(d) + (r() < 0.1 ? '\r' : ''));
  }
  if (r() < 0.2) lines.push('\\.', 'ignored');
  return lines.join('\n') + '\n';
}

function run(options: CopyOptions, data: string, clean: boolean): unknown {
  const dec = new CopyTypedDecoder(options, target, DEFAULT_OUTPUT_SETTINGS, 16, clean);
  try {
    const bytes = new TextEncoder().encode(data);
    dec.decode(bytes, 0, true);
    const rows = dec.take().flatMap((b) => rowsOfBatch(b));
    const last = dec.finish();
    if (last !== null) rows.push(...rowsOfBatch(last));
    return { rows: rows.map((r) => r.map((v) => (typeof v === 'object' && v !== null ? String(v) : v))) };
  } catch (e) {
    const g = toGatewayError(e);
    return { error: [g.code, g.message, g.where] };
  }
}

describe('clean records = general readers', () => {
  for (const format of ['csv', 'text'] as const) {
    for (let seed = 1; seed <= 60; seed++) {
      it(`${format} seed ${seed}`, () => {
        const r = rng(seed * 31 + (format === 'csv' ? 0 : 7));
        // csv: a backslash ESCAPE, FORCE_NULL and FORCE_NOT_NULL in some runs (quoted fields on the clean path)
        const options = format === 'csv'
          ? { ...csv, header: seed % 5 === 0, ...(seed % 4 === 1 ? { escape: '\\' } : {}), ...(seed % 7 === 2 ? { forceNull: ['c4', 'c5'], forceNotNull: ['c6'] } : {}) }
          : text;
        const data = input(r, format, seed % 3 !== 0);
        const expected = run(options, data, false);
        expect(run(options, data, true)).toEqual(expected);
      });
    }
  }

  // the clean path parses numbers and dates while finding their end, except where the delimiter is spelled in them
  for (const delimiter of ['-', '.', '7', '|', ';']) {
    it(`csv with delimiter ${delimiter}`, () => {
      for (let seed = 1; seed <= 12; seed++) {
        const r = rng(seed * 131 + delimiter.charCodeAt(0));
        const options = { ...csv, delimiter };
        const data = input(r, 'csv', seed % 3 !== 0, delimiter);
        expect(run(options, data, true)).toEqual(run(options, data, false));
      }
    });
  }

  it('csv: a record whose last field is quoted with nothing inside to undo stays on the clean path', () => {
    const decoded = (data: string): number => {
      const dec = new CopyTypedDecoder(csv, target, DEFAULT_OUTPUT_SETTINGS, 16);
      dec.decode(new TextEncoder().encode(data), 0, true);
      return dec.cleanRecords;
    };
    const quotedLast = '1,2,3.5,2020-01-01,a,b," c,"\n';
    expect(decoded(quotedLast.repeat(40))).toBe(40);
    expect(decoded('1,2,3.5,2020-01-01,a,b,""\n'.repeat(3))).toBe(3);
    // a doubled quote, a quoted field before the last one, a quote after the field's start: the general reader
    expect(decoded('1,2,3.5,2020-01-01,a,b,"c""d"\n')).toBe(0);
    expect(decoded('1,2,3.5,2020-01-01,"a",b,c\n')).toBe(0);
    expect(decoded('1,2,3.5,2020-01-01,a,b,c"d"\n')).toBe(0);
    expect(run(csv, quotedLast, true)).toEqual(run(csv, quotedLast, false));
  });

  it('takes the clean path for clean records and the general one otherwise', () => {
    // a clean record with too many fields and a bad value: extra data first (PostgreSQL's order)
    expect(run(csv, '1,2,3,2020-01-01,a,b,c,extra\n', true)).toEqual({ error: ['22P04', 'extra data after last expected column', 'COPY t, line 1'] });
    expect(run(csv, 'x,2,3,2020-01-01,a,b,c,extra\n', true)).toEqual({ error: ['22P04', 'extra data after last expected column', 'COPY t, line 1'] });
    // a bad value before a missing column: the conversion error
    expect(run(csv, 'x,2\n', true)).toEqual({ error: ['22P02', 'invalid input syntax for type integer: "x"', 'COPY t, line 1, column c0: "x"'] });
    expect(run(csv, '1,2,3,2020-01-01\n', true)).toEqual({ error: ['22P04', 'missing data for column "c4"', 'COPY t, line 1'] });
  });

  it('csv: quoted fields on the clean path read as the general reader reads them', () => {
    const records = [
      '1,2,3,2020-01-01,"a,b","x","y"\n', '1,2,3,2020-01-01,"a,b","x","y"\r\n', '1,2,3,2020-01-01,"ab"\rc,x,y\n', '1,2,3,2020-01-01,"ab"c,x,y\n',
      '1,2,3,2020-01-01,a"b,x,y\n', '1,2,3,2020-01-01,"a\nb",x,y\n', '1,2,3,2020-01-01,"",,""\n', '"1","2","3","2020-01-01","é,","x,",""\n',
      '1,2,3,2020-01-01,"a""b",x,y\n', '1,2,3,2020-01-01,"a\\"b",x,y\n', '1,2,3,2020-01-01,"a,b",x\n', '1,2,3,2020-01-01,"a,b",x,y,"z"\n',
      '"x",2,3,2020-01-01,"a,b",x,y,z\n', '"x",2,3,2020-01-01,"a,b"\n', '1,2,3,2020-01-01,"a,b",x,"toolongvalue"\n', '1,2,3,2020-01-01,"a,b",x,"y"',
    ];
    // at least one record of each kind decodes (not everything an error)
    expect(run(csv, records[2]!, true)).toMatchObject({ rows: [[1, 2n, expect.anything(), 18262, 'ab\rc', 'x', 'y  ']] });
    const variants = [csv, { ...csv, escape: '\\' }, { ...csv, forceNull: ['c4', 'c6'], forceNotNull: ['c5'] }];
    for (const options of variants) {
      for (const rec of records) {
        const data = `${rec}${rec.endsWith('\n') ? '' : '\n'}2,3,4,2020-01-02,"q",r,s\n`;
        expect([rec, run(options, data, true)]).toEqual([rec, run(options, data, false)]);
      }
    }
  });
});
