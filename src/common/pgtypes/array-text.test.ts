import { describe, expect, it } from 'vitest';
import { textIn, textOut } from './text-io.ts';
import { binaryIn, binaryOut } from './binary-io.ts';
import { Oid } from './oids.ts';
import { DEFAULT_OUTPUT_SETTINGS } from './output-settings.ts';
import { type PgArray, type PgRecord } from './values.ts';
import { Numeric } from './numeric.ts';
import { GatewayError } from '../errors.ts';

const S = DEFAULT_OUTPUT_SETTINGS;
const rt = (oid: number, text: string) => textOut(oid, textIn(oid, -1, text, S), S);

describe('array text (verified on PostgreSQL 15.18)', () => {
  it.each([
    [Oid._int4, '{1,2,3}', '{1,2,3}'], [Oid._int4, '{{1,2},{3,4}}', '{{1,2},{3,4}}'], [Oid._text, '[0:1]={a,b}', '[0:1]={a,b}'],
    [Oid._text, '{"a b",NULL,"NULL","","x\\"y","{}", "a\\\\b"}', '{"a b",NULL,"NULL","","x\\"y","{}","a\\\\b"}'],
    [Oid._int4, '{}', '{}'], [Oid._int4, ' { 1 , 2 } ', '{1,2}'], [Oid._bytea, '{"\\\\x01"}', '{"\\\\x01"}'],
    [Oid._text, '{ "a" , b c }', '{a,"b c"}'], [Oid._numeric, '{1.5,NULL}', '{1.5,NULL}'], [Oid._text, '{{a}}', '{{a}}'],
    [Oid._timestamp, '{"2024-01-01 10:00"}', '{"2024-01-01 10:00:00"}'], [Oid._text, '{a\\,b}', '{"a,b"}'],
    [Oid._float8, '{1e20,NaN}', '{1e+20,NaN}'], [Oid._bool, '{t,f,NULL}', '{t,f,NULL}'], [Oid._date, '{2024-01-31,infinity}', '{2024-01-31,infinity}'],
    [Oid._interval, '{"1 day",01:00}', '{"1 day",01:00:00}'], [Oid._jsonb, '{"{\\"b\\":1,\\"a\\":2}"}', '{"{\\"a\\": 2, \\"b\\": 1}"}'],
  ])('%i %j → %j', (oid, input, out) => expect(rt(oid, input)).toBe(out));

  it('shape', () => {
    const a = textIn(Oid._int4, -1, '{{1,2,3},{4,5,6}}', S) as PgArray;
    expect(a).toEqual({ kind: 'array', elementOid: 23, dims: [2, 3], lowerBounds: [1, 1], values: [1, 2, 3, 4, 5, 6] });
    const e = textIn(Oid._int4, -1, '{}', S) as PgArray;
    expect(e.dims).toEqual([]);
  });

  it.each([
    ['{1,2', 'Unexpected end of input.'], ['{{1},{2,3}}', 'Multidimensional arrays must have sub-arrays with matching dimensions.'],
    ['1,2', 'Array value must start with "{" or dimension information.'], ['{1}}', 'Junk after closing right brace.'],
  ])('rejects %j', (input, detail) => {
    try { textIn(Oid._int4, -1, input, S); expect.fail(); } catch (e) {
      expect((e as GatewayError).code).toBe('22P02');
      expect((e as GatewayError).message).toBe(`malformed array literal: "${input}"`);
      expect((e as GatewayError).detail).toBe(detail);
    }
  });

  it('element errors surface', () => {
    try { textIn(Oid._int4, -1, '{1,x}', S); expect.fail(); } catch (e) {
      expect((e as GatewayError).message).toBe('invalid input syntax for type integer: "x"');
    }
  });

  it('binary round trip of nested arrays with NULLs', () => {
    for (const [oid, text] of [[Oid._int8, '{{1,NULL},{3,4}}'], [Oid._text, '[2:3]={"a b",NULL}'], [Oid._numeric, '{1.50,NaN,-2}'], [Oid._uuid, '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}']] as const) {
      const v = textIn(oid, -1, text, S);
      expect(textOut(oid, binaryIn(oid, binaryOut(oid, v)), S)).toBe(textOut(oid, v, S));
    }
  });
});

describe('record output (verified on PostgreSQL 15.18)', () => {
  it.each([
    [[Oid.int4, Oid.text, Oid.int4], [1, 'a b', null], '(1,"a b",)'],
    [[Oid.text, Oid.text, Oid.text, Oid.text, Oid.text], ['', 'x"y', 'a\\b', 'a,b', '('], '("","x""y","a\\\\b","a,b","(")'],
    [[Oid.numeric, Oid.bool], [Numeric.parse('1.50'), true], '(1.50,t)'],
  ] as const)('%j', (fieldOids, values, out) => {
    const r: PgRecord = { kind: 'record', fieldOids, values };
    expect(textOut(Oid.record, r, S)).toBe(out);
  });
});

describe('anonymous record input', () => {
  it('is 0A000 as in PostgreSQL', () => {
    try { textIn(Oid.record, -1, '(1,2)', S); expect.fail(); } catch (e) {
      expect((e as GatewayError).code).toBe('0A000');
      expect((e as GatewayError).message).toBe('input of anonymous composite types is not implemented');
    }
  });
});
