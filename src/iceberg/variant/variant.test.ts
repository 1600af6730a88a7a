/**
 * The Parquet Variant binary encoding (VariantEncoding.md) both ways: every primitive type id of the spec's
 * table decoded to the jsonb text PostgreSQL prints for the nearest SQL value, the spec's object example
 * (field ids sorted by name, values in any order), 1–4 byte offsets and ids, is_large, malformed bytes, and
 * jsonb → variant → jsonb round trips through the encoder.
 */
import { describe, expect, it } from 'vitest';
import { jsonbIn, parseJsonb } from '../../common/pgtypes/json-text.ts';
import { VariantFormatError, variantDictionary, variantToJson } from './variant-decode.ts';
import { encodeVariant } from './variant-encode.ts';

const EMPTY_META: Uint8Array = Uint8Array.of(0x01, 0x00, 0x00);
const b = (...xs: number[]): Uint8Array => Uint8Array.from(xs);
const le = (n: bigint, size: number): number[] => Array.from({ length: size }, (_, i) => Number((BigInt.asUintN(size * 8, n) >> BigInt(8 * i)) & 0xffn));
const prim = (id: number, ...data: number[]): Uint8Array => b(id << 2, ...data);
const decode = (value: Uint8Array, meta: Uint8Array = EMPTY_META): string => jsonbIn(variantToJson(meta, value));

/** metadata with a dictionary of `keys` (1-byte offsets) */
function meta(keys: string[], sorted = false): Uint8Array {
  const bytes = keys.map((k) => [...Buffer.from(k)]);
  const offs = [0];
  for (const k of bytes) offs.push(offs.at(-1)! + k.length);
  return b(0x01 | (sorted ? 0x10 : 0), keys.length, ...offs, ...bytes.flat());
}

describe('variant decoding (spec primitive types)', () => {
  it('decodes null, booleans and integers of every width', () => {
    expect(decode(prim(0))).toBe('null');
    expect(decode(prim(1))).toBe('true');
    expect(decode(prim(2))).toBe('false');
    expect(decode(prim(3, 0xfe))).toBe('-2');
    expect(decode(prim(4, ...le(-300n, 2)))).toBe('-300');
    expect(decode(prim(5, ...le(123456789n, 4)))).toBe('123456789');
    expect(decode(prim(6, ...le(-9876543210n, 8)))).toBe('-9876543210');
    expect(decode(prim(6, ...le(9007199254740993n, 8)))).toBe('9007199254740993');
  });

  it('decodes decimals with their scale, exactly', () => {
    expect(decode(prim(8, 3, ...le(123456789n, 4)))).toBe('123456.789');
    expect(decode(prim(8, 2, ...le(150n, 4)))).toBe('1.50');
    expect(decode(prim(9, 9, ...le(-9876543210123456789n % (1n << 63n), 8)))).toBe('-' + decimalOf(9876543210123456789n % (1n << 63n), 9));
    expect(decode(prim(10, 9, ...le(-9876543210123456789n, 16)))).toBe('-9876543210.123456789');
    expect(decode(prim(10, 38, ...le(1n, 16)))).toBe('0.' + '0'.repeat(37) + '1');
  });

  it('decodes floats as float4out / float8out digits, non-finite as strings', () => {
    const f64 = (x: number): number[] => [...new Uint8Array(new Float64Array([x]).buffer)];
    const f32 = (x: number): number[] => [...new Uint8Array(new Float32Array([x]).buffer)];
    expect(decode(prim(7, ...f64(1.1)))).toBe('1.1');
    expect(decode(prim(7, ...f64(1e20)))).toBe('100000000000000000000');
    expect(decode(prim(7, ...f64(NaN)))).toBe('"NaN"');
    expect(decode(prim(14, ...f32(-10.11)))).toBe('-10.11');
    expect(decode(prim(14, ...f32(-Infinity)))).toBe('"-Infinity"');
  });

  it('decodes dates, times and timestamps as to_jsonb prints them (UTC)', () => {
    expect(decode(prim(11, ...le(19000n, 4)))).toBe('"2022-01-08"');
    expect(decode(prim(11, ...le(-1n, 4)))).toBe('"1969-12-31"');
    const us = 1730982834123456n; // 2024-11-07 12:33:54.123456 UTC
    expect(decode(prim(12, ...le(us, 8)))).toBe('"2024-11-07T12:33:54.123456+00:00"');
    expect(decode(prim(13, ...le(us, 8)))).toBe('"2024-11-07T12:33:54.123456"');
    expect(decode(prim(13, ...le(1730982834000000n, 8)))).toBe('"2024-11-07T12:33:54"');
    expect(decode(prim(17, ...le(45296000001n, 8)))).toBe('"12:34:56.000001"');
    expect(decode(prim(19, ...le(us * 1000n + 789n, 8)))).toBe('"2024-11-07T12:33:54.123456789"');
    expect(decode(prim(18, ...le(1730982834000000000n + 10n, 8)))).toBe('"2024-11-07T12:33:54.00000001+00:00"');
    expect(decode(prim(19, ...le(-1n, 8)))).toBe('"1969-12-31T23:59:59.999999999"');
  });

  it('decodes binary as bytea hex, strings and uuids', () => {
    expect(decode(prim(15, ...le(3n, 4), 0x01, 0xab, 0xff))).toBe('"\\\\x01abff"');
    expect(decode(prim(16, ...le(7n, 4), ...Buffer.from('iceberg')))).toBe('"iceberg"');
    expect(decode(b(1 | (5 << 2), ...Buffer.from('héllo').subarray(0, 5)))).toBe(JSON.stringify(Buffer.from('héllo').subarray(0, 5).toString()));
    expect(decode(b(1 | (2 << 2), ...Buffer.from('"\n')))).toBe('"\\"\\n"');
    const uuid = 'f24f9b64-81fa-49d1-b74e-8c09a6e31c56';
    expect(decode(prim(20, ...Buffer.from(uuid.replace(/-/g, ''), 'hex')))).toBe(`"${uuid}"`);
  });
});

function decimalOf(u: bigint, scale: number): string {
  const s = u.toString().padStart(scale + 1, '0');
  return `${s.slice(0, -scale)}.${s.slice(-scale)}`;
}

describe('variant decoding (objects, arrays, metadata)', () => {
  it('reads the spec example {"c": 3, "b": 2, "a": 1}: ids sorted by name, values in any order', () => {
    const m = meta(['c', 'b', 'a']); // unsorted dictionary: ids a=2, b=1, c=0
    // values laid out c, b, a; ids/offsets listed in name order a, b, c
    const value = b(0x02 | (0 << 2), 3, 2, 1, 0, 4, 2, 0, 6, ...prim(3, 3), ...prim(3, 2), ...prim(3, 1));
    expect(decode(value, m)).toBe('{"a": 1, "b": 2, "c": 3}');
  });

  it('orders keys as jsonb does (length, then bytes) and nests arrays and objects', () => {
    const m = meta(['aa', 'b', 'list'], true);
    const inner = b(0x03, 3, 0, 2, 3, 5, ...prim(3, 34), ...prim(0), ...b(1 | (1 << 2), 0x78)); // [34, null, "x"]
    const value = b(0x02, 3, 0, 1, 2, 0, 2, 4, 4 + inner.length, ...prim(3, 1), ...prim(3, 2), ...inner);
    expect(decode(value, m)).toBe('{"b": 2, "aa": 1, "list": [34, null, "x"]}');
    expect(decode(b(0x03, 0, 0))).toBe('[]');
    expect(decode(b(0x02, 0, 0))).toBe('{}');
  });

  it('reads wide offsets, wide field ids and is_large counts', () => {
    const keys = Array.from({ length: 300 }, (_, i) => `k${String(i).padStart(3, '0')}`);
    const bytes = keys.map((k) => [...Buffer.from(k)]);
    const offs: number[] = [0];
    for (const k of bytes) offs.push(offs.at(-1)! + k.length);
    const m = b(0x01 | (1 << 6), ...le(300n, 2), ...offs.flatMap((o) => le(BigInt(o), 2)), ...bytes.flat());
    expect(variantDictionary(m)).toEqual(keys);
    // object, 300 fields: is_large, 2-byte ids, 2-byte offsets; each value int8 i % 100
    const head = [0x02 | ((1 << 4 | 1 << 2 | 1) << 2), ...le(300n, 4)];
    const ids = keys.flatMap((_k, i) => le(BigInt(i), 2));
    const offsets = Array.from({ length: 301 }, (_, i) => le(BigInt(i * 2), 2)).flat();
    const vals = keys.flatMap((_k, i) => [...prim(3, i % 100)]);
    const out = JSON.parse(decode(b(...head, ...ids, ...offsets, ...vals), m)) as Record<string, number>;
    expect(Object.keys(out)).toHaveLength(300);
    expect(out['k299']).toBe(99);
    // array with is_large and 3-byte offsets
    const arr = b(0x03 | ((1 << 2 | 2) << 2), ...le(2n, 4), ...le(0n, 3), ...le(1n, 3), ...le(2n, 3), ...prim(1), ...prim(2));
    expect(decode(arr)).toBe('[true, false]');
  });

  it('rejects malformed bytes with VariantFormatError', () => {
    const bad: [Uint8Array, Uint8Array, RegExp][] = [
      [EMPTY_META, b(), /truncated/],
      [EMPTY_META, prim(6, 1, 2, 3), /truncated/],
      [b(0x02, 0, 0), prim(0), /version 2/],
      [b(), prim(0), /empty variant metadata/],
      [EMPTY_META, b(0x02, 1, 5, 0, 1, ...prim(0)), /not in the metadata dictionary/],
      [EMPTY_META, b(0x03, 1, 0, 9, ...prim(0)), /runs past/],
      [EMPTY_META, prim(21), /unknown variant primitive type 21/],
      [EMPTY_META, b(1 | (2 << 2), 0xc3, 0x28), /not valid UTF-8/],
      [meta(['a']).subarray(0, 3), prim(0), /too short/],
    ];
    for (const [m, v, re] of bad) {
      expect(() => variantToJson(m, v)).toThrow(VariantFormatError);
      expect(() => variantToJson(m, v)).toThrow(re);
    }
  });
});

describe('variant encoding', () => {
  const roundTrip = (text: string): string => {
    const { metadata, value } = encodeVariant(parseJsonb(text));
    return jsonbIn(variantToJson(metadata, value));
  };

  it('writes the smallest integer type, decimals with their scale, short and long strings', () => {
    expect([...encodeVariant(parseJsonb('1')).value]).toEqual([3 << 2, 1]);
    expect([...encodeVariant(parseJsonb('-129')).value]).toEqual([4 << 2, ...le(-129n, 2)]);
    expect([...encodeVariant(parseJsonb('2147483648')).value]).toEqual([6 << 2, ...le(2147483648n, 8)]);
    expect([...encodeVariant(parseJsonb('1.50')).value]).toEqual([8 << 2, 2, ...le(150n, 4)]);
    expect([...encodeVariant(parseJsonb('"ab"')).value]).toEqual([1 | (2 << 2), 0x61, 0x62]);
    expect(encodeVariant(parseJsonb(JSON.stringify('x'.repeat(64)))).value[0]).toBe(16 << 2);
    expect([...encodeVariant(parseJsonb('null')).value]).toEqual([0]);
    expect([...encodeVariant(parseJsonb('[]')).metadata]).toEqual([0x01, 0, 0]);
  });

  it('writes a sorted, unique dictionary and field ids in key order', () => {
    const { metadata, value } = encodeVariant(parseJsonb('{"b": {"a": 1, "b": 2}, "a": [{"a": null}]}'));
    expect(metadata[0]).toBe(0x11);
    expect(variantDictionary(metadata)).toEqual(['a', 'b']);
    expect(value[0]).toBe(0x02);
    expect([...value.subarray(1, 4)]).toEqual([2, 0, 1]); // two fields, ids a=0, b=1
    // UTF-8 byte order, not UTF-16: U+FFFF (EF BF BF) sorts before U+1F600 (F0 9F 98 80)
    expect(variantDictionary(encodeVariant(parseJsonb('{"😀": 1, "\uffff": 2, "a": 3}')).metadata)).toEqual(['a', '\uffff', '😀']);
  });

  it('round-trips jsonb values exactly', () => {
    for (const text of [
      '{"a": 1, "b": "x", "tags": ["p", null, "q"], "inner": {"d": 12.345, "ts": "2024-01-02T01:04:05.123456+00:00"}}',
      '[1, -1, 127, 128, -128, -129, -32768, 32768, -32769, 2147483647, -2147483648, 2147483648, -2147483649, 9223372036854775807, -9223372036854775808]',
      '[9223372036854775808, 0.1, -0.000001, 123456789012345678901234567890.12345678, 1.000]',
      '{"": "", "é": "ünï", "long": "' + 'y'.repeat(300) + '"}',
      'true', 'false', 'null', '"s"', '{}', '[[], [{}], {"x": []}]',
      JSON.stringify(Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`key${i}`, i * 1000]))),
      JSON.stringify(Array.from({ length: 70000 }, (_, i) => i % 7)),
    ]) {
      expect(roundTrip(text)).toBe(jsonbIn(text));
    }
  });

  it('refuses numbers a variant decimal cannot hold (22003)', () => {
    expect(() => encodeVariant(parseJsonb('1' + '0'.repeat(40)))).toThrow(expect.objectContaining({ code: '22003' }));
    expect(() => encodeVariant(parseJsonb('0.' + '0'.repeat(40) + '1'))).toThrow(/cannot be stored in a variant/);
  });
});
