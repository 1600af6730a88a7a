/** Iceberg type strings (iceberg_types option): parsing, requiredness spellings, id numbering, errors; the option's items. */
import { describe, expect, it } from 'vitest';
import { assignFreshIds, parseIcebergTypeText } from './iceberg-type-text.ts';
import { applyIcebergTypes, icebergTypesItems } from './iceberg-types-option.ts';
import { icebergTypeJson } from './iceberg-type-of.ts';
import { typeToString } from '../spec/schema.ts';
import { Oid } from '../../common/pgtypes/oids.ts';

const json = (text: string, first = 1): unknown => {
  let id = first - 1;
  return icebergTypeJson(assignFreshIds(parseIcebergTypeText(text), () => ++id));
};

describe('Iceberg type text', () => {
  it('parses primitives, struct, list and map with Iceberg\'s names and numbers ids as Iceberg does', () => {
    expect(json('decimal( 10 ,2 )')).toBe('decimal(10, 2)');
    expect(json('TIMESTAMPTZ')).toBe('timestamptz');
    expect(json('fixed[16]')).toBe('fixed[16]');
    expect(json('struct<a: int, b: struct<c: list<string>>, d: long>', 10)).toEqual({
      type: 'struct', fields: [
        { id: 10, name: 'a', required: false, type: 'int' },
        { id: 11, name: 'b', required: false, type: { type: 'struct', fields: [{ id: 13, name: 'c', required: false, type: { type: 'list', 'element-id': 14, element: 'string', 'element-required': false } }] } },
        { id: 12, name: 'd', required: false, type: 'long' },
      ],
    });
    expect(json('map<string, list<int not null>>')).toEqual({
      type: 'map', 'key-id': 1, key: 'string', 'value-id': 2, 'value-required': false, value: { type: 'list', 'element-id': 3, element: 'int', 'element-required': true },
    });
  });

  it('spells requiredness as `not null` after the type or Java\'s `required` / `optional` before it', () => {
    const t = parseIcebergTypeText('struct<a: int not null, b: required string, c: optional date, "x y": boolean, `c:d`: uuid>');
    expect(t).toMatchObject({ kind: 'struct', fields: [
      { name: 'a', required: true }, { name: 'b', required: true }, { name: 'c', required: false }, { name: 'x y', required: false }, { name: 'c:d', required: false },
    ] });
    expect(parseIcebergTypeText('map<int, string not null>')).toMatchObject({ valueRequired: true });
    expect(parseIcebergTypeText('list<required struct<a: int>>')).toMatchObject({ elementRequired: true });
    expect(typeToString(parseIcebergTypeText('struct<a:list<map<string,decimal(5,2)>>>'))).toBe('struct<a: list<map<string, decimal(5, 2)>>>');
  });

  it('rejects bad text with 22023 and a hint', () => {
    expect(() => parseIcebergTypeText('struct<a int>')).toThrow(/expected ":" at "int>"/);
    expect(() => parseIcebergTypeText('array<int>')).toThrow(/unknown type "array"/);
    expect(() => parseIcebergTypeText('list<int')).toThrow(/expected ">" at end of input/);
    expect(() => parseIcebergTypeText('struct<a: int, a: long>')).toThrow(/duplicate field name "a"/);
    expect(() => parseIcebergTypeText('int int')).toThrow(/unexpected text/);
    let error: unknown;
    try {
      parseIcebergTypeText('map<string>');
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: '22023', message: 'invalid Iceberg type "map<string>": expected "," at ">"' });
    expect((error as { hint: string }).hint).toMatch(/struct<name: type, …>/);
  });

  it('applies the option to the declared columns', () => {
    expect(icebergTypesItems('["a struct<x: int>", "b map<string, int>"]')).toEqual(['a struct<x: int>', 'b map<string, int>']);
    expect(icebergTypesItems('a struct<x: int>')).toEqual(['a struct<x: int>']);
    const cols = [
      { name: 'A b', type: { oid: Oid.jsonb, typmod: -1 }, nullable: true },
      { name: 'l', type: { oid: Oid._int4, typmod: -1 }, nullable: true },
    ];
    const out = applyIcebergTypes(cols, ['"A b" struct<x: int>', 'L list<int not null>']);
    expect(out.map((c) => c.icebergType === undefined ? null : typeToString(c.icebergType))).toEqual(['struct<x: int>', 'list<int>']);
    expect(out[1]!.icebergType).toMatchObject({ elementRequired: true });
    expect(() => applyIcebergTypes(cols, ['l list<long>'])).toThrow(/column "l" is of type integer\[\] but Iceberg type list<long> reads as bigint\[\]/);
    expect(() => applyIcebergTypes(cols, ['l list<int>', 'l list<int>'])).toThrow(/specified more than once/);
    expect(() => applyIcebergTypes(cols, ['nocolumn'])).toThrow(/invalid iceberg_types item/);
    expect(() => applyIcebergTypes(cols, ['"A b" struct<x: timestamp_ns>'])).toThrow(/not supported/);
  });
});
