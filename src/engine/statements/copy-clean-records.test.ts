/**
 * The clean-record paths of the typed COPY decoder (csv records without quotes, text records without
 * backslashes: split and converted in one walk — by cleanRecord, or by the loop generated per schema,
 * copy-record-compiler.ts) against the general readers, record by record: over seeded
 * random inputs mixing clean and quoted/escaped records, NULLs, bad values, too few and too many fields,
 * CRLF, a header and the end marker, both give the same rows, or the same first error (code, message,
 * CONTEXT) — PostgreSQL's order: extra data before conversion errors, a missing column after the columns
 * before it converted.
 */
import { describe, expect, it } from 'vitest';
import { CopyTypedDecoder } from './copy-typed-decoder.ts';
import { csvOptions, textOptions, typedCopyTarget } from '../testing/copy-fixtures.ts';
import type { CopyOptions } from './copy-options.ts';
import type { CopyTarget } from './copy-in-decoder.ts';
import { Oid, type SqlType } from '../../common/pgtypes/oids.ts';
import { DEFAULT_OUTPUT_SETTINGS } from '../../common/pgtypes/output-settings.ts';
import { toGatewayError } from '../../common/errors.ts';
import { rowsOfBatch } from '../../common/batch.ts';
import { mulberry32 } from '../../common/prng.ts';

const csv = csvOptions;
const text = textOptions;
const { types, target } = typedCopyTarget(5);
const wide = typedCopyTarget(9).target;

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

/**
 * `order`: the target's columns in the record (the generated loop reads the last field apart from the others);
 * `quoting` < 1 keeps that share of the quoted (csv) / escaped (text) fields, so that fewer than a quarter of the
 * records are left to the general readers and the decoder keeps trying the clean path (cleanRarely)
 */
function input(r: () => number, format: 'csv' | 'text', errors: boolean, delimiter?: string, order: readonly number[] = types.map((_, c) => c), quoting = 1): string {
  const d = delimiter ?? (format === 'csv' ? ',' : '\t');
  const lines: string[] = [];
  const n = 1 + Math.floor(r() * 60);
  for (let i = 0; i < n; i++) {
    const fields = order.map((c) => {
      const x = r();
      if (x < 0.08) return format === 'csv' ? '' : '\\N';
      if (errors && x < 0.11) return odd[Math.floor(r() * odd.length)]!;
      if (quoting < 1 && x >= 0.11 && x < 0.18 && r() >= quoting) return good[c]![Math.floor(r() * good[c]!.length)]!;
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

/** records the generated loop decoded in the last run (whether the run ended in an error or not) */
let loopRecords = 0;

function run(options: CopyOptions, data: string, clean: boolean, compiled = true, on: CopyTarget = target): unknown {
  const dec = new CopyTypedDecoder(options, on, DEFAULT_OUTPUT_SETTINGS, 16, clean, compiled);
  try {
    const bytes = new TextEncoder().encode(data);
    loopRecords = 0;
    try {
      dec.decode(bytes, 0, true);
    } finally {
      loopRecords = dec.compiledRecords;
    }
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
        expect(run(options, data, true, false)).toEqual(expected);
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
        const expected = run(options, data, false);
        expect(run(options, data, true, false)).toEqual(expected);
        expect(run(options, data, true)).toEqual(expected);
      }
    });
  }

  // a number, a date or a string last, strings before numbers: each column kind read where the loop reads it apart
  for (const order of [[6, 5, 4, 3, 2, 1, 0], [4, 0, 6, 1, 5, 3, 2], [5, 3], [0, 2, 3, 1, 6, 5, 4], [3, 6]]) {
    for (const format of ['csv', 'text'] as const) {
      it(`${format}, columns in the order ${order.join(' ')}`, () => {
        // varchar(9): every good value fits (varchar(5) refuses 'ninechars', which ends most inputs above early)
        const on: CopyTarget = { table: 't', columns: order.map((c) => wide.columns[c]!) };
        let viaLoop = 0;
        for (let seed = 1; seed <= 30; seed++) {
          const r = rng(seed * 53 + order[0]!);
          const options = format === 'csv' ? { ...csv, ...(seed % 4 === 1 ? { escape: '\\' } : {}), ...(seed % 5 === 2 ? { forceNull: ['c3', 'c4'], forceNotNull: ['c2', 'c5'] } : {}) } : text;
          const data = input(r, format, seed % 3 === 0, undefined, order, 0.1);
          const expected = run(options, data, false, true, on);
          expect(run(options, data, true, false, on)).toEqual(expected);
          expect(run(options, data, true, true, on)).toEqual(expected);
          viaLoop += loopRecords;
        }
        // the generated loop read many of them (text: a NULL \N holds a backslash, a record the loop leaves)
        expect(viaLoop).toBeGreaterThan(format === 'csv' ? 100 : 20);
      });
    }
  }

  it('the generated loop reads clean records, NULLs, CRLF and a simply quoted last field; the decoder the rest', () => {
    const counts = (options: CopyOptions, data: string): [number, number] => {
      const dec = new CopyTypedDecoder(options, target, DEFAULT_OUTPUT_SETTINGS, 16);
      dec.decode(new TextEncoder().encode(data), 0, true);
      return [dec.compiledRecords, dec.lines];
    };
    const clean = '1,2,3.5,2020-01-01,a,b,c\n,,,,,,\n-7,-900719925474099,0.01,0001-01-01,é ü,éèêëé,ééé\r\n4,5,6,2024-02-29,x,y," c,"\n';
    expect(counts(csv, clean.repeat(10))).toEqual([40, 40]);
    expect(counts(text, '1\t2\t3.5\t2020-01-01\ta\tb\tc\n'.repeat(20))).toEqual([20, 20]);
    // left to the decoder, each: spellings the parsers refuse, a quoted field before the last, an escaped quote in
    // the last field; the records around them stay in the loop
    for (const odd of ['1,2,1e3,2020-01-01,a,b,c', ' 12,2,3,2020-01-01,a,b,c', '1,2,3,2020-01-01,"a",b,c', '1,2,3,2020-01-01,a,b,"c""d"', '1,2,3,2020-1-01,a,b,c']) {
      const data = `${clean}${odd}\n${clean}`;
      expect([odd, counts(csv, data)]).toEqual([odd, [8, 9]]);
      expect(run(csv, data, true)).toEqual(run(csv, data, false));
    }
    // errors (too many / too few fields, too long a string, a bad value) as the general readers give them
    for (const bad of ['1,2,3,2020-01-01,a,b,c,d', '1,2,3,2020-01-01,a,b', '1,2,3,2020-01-01,a,b,toolong', 'x,2,3,2020-01-01,a,b,c,d', '1,2,3,2020-02-30,a,b,c']) {
      const data = `${clean}${bad}\n${clean}`;
      expect(run(csv, data, true)).toMatchObject({ error: expect.anything() });
      expect(run(csv, data, true)).toEqual(run(csv, data, false));
    }
    expect(counts(csv, `${clean}\\.\n${clean}`)).toEqual([4, 5]);
    // FORCE_NOT_NULL: an empty field is a value (the loop leaves it to the decoder for numbers); FORCE_NULL: a quoted '' is NULL
    const forced = { ...csv, forceNotNull: ['c4'], forceNull: ['c6'] };
    expect(counts(forced, '1,2,3,2020-01-01,,b,""\n')).toEqual([1, 1]);
    expect(run(forced, '1,2,3,2020-01-01,,b,""\n', true)).toEqual({ rows: [[1, 2n, '3.00', 18262, '', 'b', null]] });
  });

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
