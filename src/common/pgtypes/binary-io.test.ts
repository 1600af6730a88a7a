import { describe, expect, it } from 'vitest';
import { binaryIn, binaryOut } from './binary-io.ts';
import { textIn, textOut } from './text-io.ts';
import { Oid } from './oids.ts';
import { DEFAULT_OUTPUT_SETTINGS } from './output-settings.ts';
import { GatewayError } from '../errors.ts';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const unhex = (s: string) => new Uint8Array(Buffer.from(s, 'hex'));
const S = DEFAULT_OUTPUT_SETTINGS;

// [oid, text literal, PostgreSQL 15.18 *_send output] (TimeZone UTC)
const CASES: [number, string, string][] = [
  [Oid.bool, 't', '01'],
  [Oid.int2, '-2', 'fffe'],
  [Oid.int4, '123456', '0001e240'],
  [Oid.int8, '-9000000000', 'fffffffde78ee600'],
  [Oid.oid, '4294967295', 'ffffffff'],
  [Oid.float4, '1.5', '3fc00000'],
  [Oid.float8, '0.1', '3fb999999999999a'],
  [Oid.text, 'héllo', '68c3a96c6c6f'],
  [Oid.bytea, '\\x00ff', '00ff'],
  [Oid.uuid, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'a0eebc999c0b4ef8bb6d6bb9bd380a11'],
  [Oid.jsonb, '{"a": [true, null], "b": 1}', '017b2261223a205b747275652c206e756c6c5d2c202262223a20317d'],
  [Oid.json, '[1, 2]', '5b312c20325d'],
  [Oid.date, '2024-01-31', '0000225c'],
  [Oid.date, 'infinity', '7fffffff'],
  [Oid.date, '1999-12-31', 'ffffffff'],
  [Oid.time, '10:11:12.5', '0000000889d9f120'],
  [Oid.timetz, '10:11:12+05:30', '0000000889d25000ffffb2a8'],
  [Oid.timestamp, '2024-01-31 10:11:12.5', '0002b339de007120'],
  [Oid.timestamptz, '2024-01-31 10:11:12.5+00', '0002b339de007120'],
  [Oid.timestamp, 'infinity', '7fffffffffffffff'],
  [Oid.timestamp, '-infinity', '8000000000000000'],
  [Oid.interval, '1 year 2 mons 3 days 04:05:06.5', '000000036c9361a0000000030000000e'],
  [Oid._int4, '{1,NULL,3}', '00000001000000010000001700000003000000010000000400000001ffffffff0000000400000003'],
  [Oid._text, '[0:1][1:2]={{a,b},{c,d}}', '000000020000000000000019000000020000000000000002000000010000000161000000016200000001630000000164'],
  [Oid._int4, '{}', '000000000000000000000017'],
  [Oid.char, 'x', '78'],
  [Oid.numeric, '12345.6789', '0003000100000004000109291a85'],
];

describe('binary send/recv (bytes verified on PostgreSQL 15.18)', () => {
  it.each(CASES)('oid %i %j', (oid, text, bytes) => {
    const v = textIn(oid, -1, text, S);
    expect(hex(binaryOut(oid, v))).toBe(bytes);
    const back = binaryIn(oid, unhex(bytes));
    expect(textOut(oid, back, S)).toBe(textOut(oid, v, S));
  });

  it('record_send', () => {
    const rec = { kind: 'record' as const, fieldOids: [Oid.int4, Oid.text, Oid.int4], values: [1, 'a', null] };
    expect(hex(binaryOut(Oid.record, rec))).toBe('0000000300000017000000040000000100000019000000016100000017ffffffff');
  });

  it('bad input is 22P03', () => {
    const code = (f: () => unknown) => { try { f(); } catch (e) { return (e as GatewayError).code; } return 'none'; };
    expect(code(() => binaryIn(Oid.int4, unhex('0001')))).toBe('22P03');
    expect(code(() => binaryIn(Oid.int4, unhex('0000000001')))).toBe('22P03');
    expect(code(() => binaryIn(Oid.int8, new Uint8Array(0)))).toBe('22P03');
    expect(code(() => binaryIn(Oid._int4, unhex('000000010000000000000017000000020000000100000004')))).toBe('22P03');
    expect(code(() => binaryIn(Oid.jsonb, unhex('027b7d')))).toBe('22P03');
    expect(code(() => binaryIn(Oid.numeric, unhex('0001')))).toBe('22P03');
    try { binaryIn(Oid.int2, unhex('01')); } catch (e) { expect((e as Error).message).toBe('insufficient data left in message'); }
  });

  it('float specials and -0 round-trip', () => {
    for (const v of [NaN, Infinity, -Infinity, -0, 5e-324]) expect(Object.is(binaryIn(Oid.float8, binaryOut(Oid.float8, v)), v)).toBe(true);
  });
});
