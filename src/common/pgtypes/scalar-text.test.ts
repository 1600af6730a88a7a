import { describe, expect, it } from 'vitest';
import { textIn, textOut } from './text-io.ts';
import { Oid } from './oids.ts';
import { DEFAULT_OUTPUT_SETTINGS } from './output-settings.ts';
import { GatewayError } from '../errors.ts';

const S = DEFAULT_OUTPUT_SETTINGS;
const rt = (oid: number, text: string, settings = S) => textOut(oid, textIn(oid, -1, text, settings), settings);
function err(oid: number, text: string): [string, string] {
  try { textIn(oid, -1, text, S); } catch (e) { return [(e as GatewayError).code, (e as GatewayError).message]; }
  return ['none', ''];
}

// every expected value below was printed by PostgreSQL 15.18
describe('bool', () => {
  it.each([['t', 't'], ['tr', 't'], [' YES ', 't'], ['of', 'f'], ['on', 't'], ['1', 't'], ['0', 'f'], ['FALSE', 'f'], ['n', 'f']])('%j → %s', (i, o) => expect(rt(Oid.bool, i)).toBe(o));
  it.each(['o', '', 'tru e', '2', 'yess'])('rejects %j', (s) => expect(err(Oid.bool, s)).toEqual(['22P02', `invalid input syntax for type boolean: "${s}"`]));
});

describe('integers and oid', () => {
  it.each([[Oid.int4, ' 12 ', '12'], [Oid.int2, '  -0', '0'], [Oid.int4, '-2147483648', '-2147483648'], [Oid.int8, '-9223372036854775808', '-9223372036854775808'],
    [Oid.oid, '-1', '4294967295'], [Oid.oid, '4294967295', '4294967295'], [Oid.int2, '+7', '7']])('%i %j → %s', (oid, i, o) => expect(rt(oid, i)).toBe(o));
  it('errors', () => {
    expect(err(Oid.int4, '2147483648')).toEqual(['22003', 'value "2147483648" is out of range for type integer']);
    expect(err(Oid.int2, '32768')).toEqual(['22003', 'value "32768" is out of range for type smallint']);
    expect(err(Oid.int8, '12a')).toEqual(['22P02', 'invalid input syntax for type bigint: "12a"']);
    expect(err(Oid.int8, '9223372036854775808')).toEqual(['22003', 'value "9223372036854775808" is out of range for type bigint']);
    expect(err(Oid.int4, '')).toEqual(['22P02', 'invalid input syntax for type integer: ""']);
    expect(err(Oid.int4, '1.5')).toEqual(['22P02', 'invalid input syntax for type integer: "1.5"']);
    expect(err(Oid.oid, '4294967296')).toEqual(['22003', 'value "4294967296" is out of range for type oid']);
    expect(err(Oid.oid, 'x')).toEqual(['22P02', 'invalid input syntax for type oid: "x"']);
  });
  it('int8 values are bigint', () => expect(textIn(Oid.int8, -1, '42', S)).toBe(42n));
});

describe('float4 / float8 (extra_float_digits 1)', () => {
  it.each([['1e20', '1e+20'], ['1.5e-7', '1.5e-07'], ['0.1', '0.1'], ['1e15', '1e+15'], ['1e16', '1e+16'], ['123456789012345678', '1.2345678901234568e+17'],
    ['1e-4', '0.0001'], ['1e-5', '1e-05'], ['inf', 'Infinity'], ['-0', '-0'], ['1.7976931348623157e308', '1.7976931348623157e+308'], ['5e-324', '5e-324'],
    ['100', '100'], ['1e14', '100000000000000'], ['999999999999999', '999999999999999'], ['0.00015000000000000001', '0.00015000000000000001'],
    [' NaN ', 'NaN'], ['-Infinity', '-Infinity'], ['62283349121278416', '6.2283349121278416e+16'], ['41911094528905312', '4.191109452890531e+16'],
    ['2.9671483832629985e+19', '2.9671483832629985e+19']])('float8 %j → %s', (i, o) => expect(rt(Oid.float8, i)).toBe(o));
  it.each([['0.1', '0.1'], ['1e20', '1e+20'], ['3.4028235e38', '3.4028235e+38'], ['1.5', '1.5'], ['12345678', '1.2345678e+07'], ['123456789', '1.2345679e+08'],
    ['1e-45', '1e-45'], ['123456', '123456'], ['1234567', '1.234567e+06'], ['0.0001', '0.0001'], ['0.00001', '1e-05'], ['2.5e-5', '2.5e-05'], ['-337188.1198227267', '-337188.12']])('float4 %j → %s', (i, o) => expect(rt(Oid.float4, i)).toBe(o));
  it('extra_float_digits 0', () => {
    const s0 = { ...S, extraFloatDigits: 0 };
    expect(textOut(Oid.float8, 0.1, s0)).toBe('0.1');
    expect(textOut(Oid.float8, 1e20, s0)).toBe('1e+20');
    expect(textOut(Oid.float8, 1 / 3, s0)).toBe('0.333333333333333');
    expect(textOut(Oid.float8, 1e-5, s0)).toBe('1e-05');
    expect(textOut(Oid.float8, 123456789012345678, s0)).toBe('1.23456789012346e+17');
    expect(textOut(Oid.float8, 100, s0)).toBe('100');
  });
  it('errors', () => {
    expect(err(Oid.float8, ' 1e400 ')).toEqual(['22003', '"1e400" is out of range for type double precision']);
    expect(err(Oid.float8, '1e-400')).toEqual(['22003', '"1e-400" is out of range for type double precision']);
    expect(err(Oid.float4, 'abc')).toEqual(['22P02', 'invalid input syntax for type real: "abc"']);
    expect(err(Oid.float4, '1e39')).toEqual(['22003', '"1e39" is out of range for type real']);
    expect(rt(Oid.float8, '0x10')).toBe('16'); // strtod reads hexadecimal
  });
});

describe('numeric via textIn', () => {
  it('applies numeric(p,s) typmods', () => {
    expect(textOut(Oid.numeric, textIn(Oid.numeric, ((5 << 16) | 2) + 4, '1.005', S), S)).toBe('1.01');
    try { textIn(Oid.numeric, ((5 << 16) | 2) + 4, '1000', S); expect.fail(); } catch (e) { expect((e as GatewayError).code).toBe('22003'); }
  });
});

describe('bytea', () => {
  it('hex and escape output', () => {
    expect(rt(Oid.bytea, '\\x00015c41ff7f20')).toBe('\\x00015c41ff7f20');
    expect(rt(Oid.bytea, '\\x00015c41ff7f20', { ...S, byteaOutput: 'escape' })).toBe('\\000\\001\\\\A\\377\\177 ');
    expect(rt(Oid.bytea, 'ab\\000c')).toBe('\\x61620063');
    expect(rt(Oid.bytea, '\\x DE ad')).toBe('\\xdead');
    expect(rt(Oid.bytea, '\\\\9')).toBe('\\x5c39');
    expect(rt(Oid.bytea, 'é')).toBe('\\xc3a9');
  });
  it('errors', () => {
    expect(err(Oid.bytea, '\\x0g')).toEqual(['22023', 'invalid hexadecimal digit: "g"']);
    expect(err(Oid.bytea, '\\x0')).toEqual(['22023', 'invalid hexadecimal data: odd number of digits']);
    expect(err(Oid.bytea, 'héllo\\x')).toEqual(['22P02', 'invalid input syntax for type bytea']);
  });
});

describe('uuid', () => {
  it.each(['{a0eebc99-9c0b4ef8-bb6d6bb9-bd380a11}', 'A0EEBC999C0B4EF8BB6D6BB9BD380A11', 'a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11'])('%j', (s) =>
    expect(rt(Oid.uuid, s)).toBe('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'));
  it.each(['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1', 'x0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '-a0eebc999c0b4ef8bb6d6bb9bd380a11', ''])('rejects %j', (s) =>
    expect(err(Oid.uuid, s)).toEqual(['22P02', `invalid input syntax for type uuid: "${s}"`]));
});

describe('json / jsonb', () => {
  it('json keeps text', () => expect(rt(Oid.json, ' [1, "a"] ')).toBe(' [1, "a"] '));
  it.each([
    ['{"b":[1,2.50,1e2,-0,1E-2],"a":1,"aa":{},"a":"x\\u00e9\\n\\u0001/","c":[], "ab":null, "B":true}', '{"B": true, "a": "xé\\n\\u0001/", "b": [1, 2.50, 100, 0, 0.01], "c": [], "aa": {}, "ab": null}'],
    ['"\\ud83d\\ude00"', '"😀"'], ['-0.0', '0.0'], ['[]', '[]'], ['{}', '{}'],
    ['{"aa":1,"b":2,"a":{"y":1,"x":[]}}', '{"a": {"x": [], "y": 1}, "b": 2, "aa": 1}'], ['"a\\"b\\\\c\\td"', '"a\\"b\\\\c\\td"'],
    ['1.000', '1.000'], ['-1.5e3', '-1500'], [' null ', 'null'], ['{"a":1,"a":2}', '{"a": 2}'],
  ])('jsonb %j', (i, o) => expect(rt(Oid.jsonb, i)).toBe(o));
  it.each([
    ['{"a":1', 'The input string ended unexpectedly.'], ['{"a":}', 'Expected JSON value, but found "}".'], ['[1,]', 'Expected JSON value, but found "]".'],
    ['tru', 'Token "tru" is invalid.'], ['01', 'Token "01" is invalid.'], ['{"a" 1}', 'Expected ":", but found "1".'], ['"abc', 'Token ""abc" is invalid.'],
    ['1 2', 'Expected end of input, but found "2".'], ["'x'", 'Token "\'" is invalid.'],
  ])('json rejects %j', (s, detail) => {
    try { textIn(Oid.json, -1, s, S); expect.fail(); } catch (e) {
      expect((e as GatewayError).code).toBe('22P02');
      expect((e as GatewayError).message).toBe('invalid input syntax for type json');
      expect((e as GatewayError).detail).toBe(detail);
    }
  });
  it('jsonb rejects \\u0000 with 22P05', () => expect(err(Oid.jsonb, '"\\u0000"')[0]).toBe('22P05'));
});

describe('jsonb surrogate escapes (verified on PostgreSQL 15.18)', () => {
  it.each([
    ['"\\ud83d"', 'Unicode low surrogate must follow a high surrogate.'], ['"\\ude00"', 'Unicode low surrogate must follow a high surrogate.'],
    ['"\\ud83d\\ud83d"', 'Unicode high surrogate must not follow a high surrogate.'], ['"\\ud83dx"', 'Unicode low surrogate must follow a high surrogate.'],
  ])('jsonb rejects %j; json keeps it', (s, detail) => {
    try { textIn(Oid.jsonb, -1, s, S); expect.fail(); } catch (e) {
      expect((e as GatewayError).code).toBe('22P02');
      expect((e as GatewayError).detail).toBe(detail);
    }
    expect(rt(Oid.json, s)).toBe(s);
  });
  it('pairs decode', () => expect(rt(Oid.jsonb, '"\\ud83d\\ude00"')).toBe('"😀"'));
});
