/**
 * The field scanners (parse while finding the field's end) against the sinks' fast parsers on split fields: for
 * every column type and many spellings — canonical, odd, out of range, followed by the delimiter, by the end or by
 * other bytes — a scanner appends exactly what `fast` appends for the field up to the delimiter, returns that
 * delimiter's index, and returns -1 (nothing appended) exactly where `fast` refuses.
 */
import { describe, expect, it } from 'vitest';
import { CopyColumnSink } from './copy-column-sinks.ts';
import { Oid, type SqlType } from '../../common/pgtypes/oids.ts';
import { materializeColumn } from '../../iceberg/write/typed-columns.ts';
import { mulberry32 } from '../../common/prng.ts';

const numeric = (p: number, s: number): SqlType => ({ oid: Oid.numeric, typmod: ((p << 16) | s) + 4 });
const TYPES: readonly [string, SqlType][] = [
  ['int2', { oid: Oid.int2, typmod: -1 }], ['int4', { oid: Oid.int4, typmod: -1 }], ['int8', { oid: Oid.int8, typmod: -1 }],
  ['numeric(15,2)', numeric(15, 2)], ['numeric(5,3)', numeric(5, 3)], ['numeric(38,0)', numeric(38, 0)], ['date', { oid: Oid.date, typmod: -1 }],
  ['text', { oid: Oid.text, typmod: -1 }], ['varchar(5)', { oid: Oid.varchar, typmod: 9 }], ['char(3)', { oid: Oid.bpchar, typmod: 7 }],
];
const SPELLINGS = [
  '0', '-0', '7', '-12', '32767', '32768', '-32768', '-32769', '2147483647', '2147483648', '-2147483648', '123456789', '1234567890',
  '123456789012345', '1234567890123456', '-', '', '+5', ' 1', '1 ', '1e3', '1.', '.5', '-.5', '1.5', '12.345', '0.01', '99.999',
  '9999999999999.99', '99999999999999.9', '1.2.3', '2024-02-29', '2023-02-29', '1999-12-31', '0000-01-01', '0001-01-01', '2020-13-01',
  '2020-1-01', '20200101', '2020-01-011', 'abc', 'é', 'éèêëé', 'ab cd', 'abcdef', 'x"y',
];

const enc = new TextEncoder();

describe('field scanners = split + fast', () => {
  for (const [name, type] of TYPES) {
    it(name, () => {
      const r = mulberry32(name.length * 7919);
      for (let round = 0; round < 400; round++) {
        const field = round < SPELLINGS.length ? SPELLINGS[round]! : randomSpelling(r);
        const tail = ['', ',', ',next', 'x', 'x,y', '.', '-'][round % 7]!;
        const bytes = enc.encode(`${field}${tail}`);
        const comma = bytes.indexOf(44);
        const e = comma < 0 ? bytes.length : comma;
        const byFast = new CopyColumnSink(type, 8);
        const fastOk = byFast.fast(bytes, 0, e);
        const byScan = new CopyColumnSink(type, 8);
        const got = byScan.scan(bytes, 0, bytes.length, 44);
        expect([field, tail, got]).toEqual([field, tail, fastOk ? e : -1]);
        expect(materializeColumn(byScan.finish(false))).toEqual(materializeColumn(byFast.finish(false)));
      }
    });
  }
});

function randomSpelling(r: () => number): string {
  const alphabet = '0123456789-.-0123456789';
  const n = Math.floor(r() * 18);
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(r() * alphabet.length)]!;
  return s;
}
