import { describe, expect, it } from 'vitest';
import { decodeSingleValue, toSqlType, fromAvroValue, nanosToMicros } from './types.ts';
import { parsePrimitive, type IcebergType } from './schema.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';

const p = (s: string): IcebergType => parsePrimitive(s);
const le = (...b: number[]) => Uint8Array.from(b);

describe('Iceberg → PostgreSQL types', () => {
  it('maps primitives', () => {
    const cases: [string, number, number][] = [
      ['boolean', Oid.bool, -1], ['int', Oid.int4, -1], ['long', Oid.int8, -1], ['float', Oid.float4, -1],
      ['double', Oid.float8, -1], ['decimal(10, 2)', Oid.numeric, ((10 << 16) | 2) + 4], ['date', Oid.date, -1],
      ['time', Oid.time, -1], ['timestamp', Oid.timestamp, -1], ['timestamptz', Oid.timestamptz, -1],
      ['timestamp_ns', Oid.timestamp, -1], ['timestamptz_ns', Oid.timestamptz, -1], ['string', Oid.text, -1],
      ['uuid', Oid.uuid, -1], ['fixed[16]', Oid.bytea, -1], ['binary', Oid.bytea, -1],
    ];
    for (const [t, oid, typmod] of cases) expect([t, toSqlType(p(t))]).toEqual([t, { oid, typmod }]);
  });
  it('maps nested: list → array, struct/map → jsonb', () => {
    expect(toSqlType({ kind: 'list', elementId: 1, elementRequired: false, element: p('int') }).oid).toBe(Oid._int4);
    expect(toSqlType({ kind: 'map', keyId: 1, key: p('string'), valueId: 2, valueRequired: false, value: p('string') }).oid).toBe(Oid.jsonb);
    expect(toSqlType({ kind: 'struct', fields: [] }).oid).toBe(Oid.jsonb);
  });
  it('maps the v3 types (variant → jsonb, geometry/geography → bytea, unknown → text), rejects others with 0A000', () => {
    expect(toSqlType(p('variant')).oid).toBe(Oid.jsonb);
    expect(toSqlType(p('geometry')).oid).toBe(Oid.bytea);
    expect(toSqlType(p('geography')).oid).toBe(Oid.bytea);
    expect(toSqlType(p('unknown')).oid).toBe(Oid.text);
    expect(() => toSqlType(p('interval'))).toThrow(expect.objectContaining({ code: '0A000' }));
  });
});

describe('single-value binary serialization (Appendix D)', () => {
  it('decodes each primitive', () => {
    expect(decodeSingleValue(p('boolean'), le(1))).toBe(true);
    expect(decodeSingleValue(p('int'), le(0xfe, 0xff, 0xff, 0xff))).toBe(-2);
    expect(decodeSingleValue(p('long'), le(5, 0, 0, 0, 0, 0, 0, 0))).toBe(5n);
    expect(decodeSingleValue(p('double'), le(205, 204, 204, 204, 204, 204, 236, 63))).toBe(0.9);
    expect(decodeSingleValue(p('float'), le(0, 0, 0xc0, 0x3f))).toBe(1.5);
    expect(decodeSingleValue(p('date'), le(0x0c, 0x4c, 0, 0))).toBe(19468);
    expect(decodeSingleValue(p('timestamptz'), le(0, 0x10, 0xa5, 0xd4, 0xe8, 0, 0, 0))).toBe(1_000_000_000_000n);
    expect(decodeSingleValue(p('timestamp_ns'), le(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))).toBe(-1n);
    expect(decodeSingleValue(p('string'), new TextEncoder().encode('Holland Lop'))).toBe('Holland Lop');
    expect(decodeSingleValue(p('uuid'), Uint8Array.from(Buffer.from('f79c3e098b0c4c2e8c3d2b0e6a2f1a10', 'hex')))).toBe('f79c3e09-8b0c-4c2e-8c3d-2b0e6a2f1a10');
    expect((decodeSingleValue(p('decimal(10, 2)'), le(0x05, 0x8c)) as Numeric).toString()).toBe('14.20');
    expect((decodeSingleValue(p('decimal(10, 2)'), le(0xfe, 0x0c)) as Numeric).toString()).toBe('-5.00');
    expect(decodeSingleValue(p('binary'), le(1, 2))).toEqual(le(1, 2));
  });
  it('converts Avro partition values', () => {
    expect(fromAvroValue(p('date'), 18993)).toBe(18993);
    expect(fromAvroValue(p('long'), 7n)).toBe(7n);
    expect(fromAvroValue(p('string'), null)).toBeNull();
  });
  it('truncates nanoseconds toward −∞', () => {
    expect(nanosToMicros(1999n)).toBe(1n);
    expect(nanosToMicros(-1n)).toBe(-1n);
  });
});
