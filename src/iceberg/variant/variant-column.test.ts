/**
 * The read side of the v3 types at the Arrow level (read/arrow-values.ts → variant-column.ts): variant groups
 * with and without `typed_value` (shredded primitives of several Arrow types), variants nested in structs and
 * lists, unknown columns ignored even when the file has them, geometry as bytes; XX001 for malformed groups;
 * and the type mapping (toSqlType, parsePrimitive parameters, bounds never decoded).
 */
import { describe, expect, it } from 'vitest';
import { Binary, Bool, Field, FixedSizeBinary, Int32, List, Struct, Utf8, makeData, vectorFromArray, type Data } from 'apache-arrow';
import { parseJsonb } from '../../common/pgtypes/json-text.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { isPgArray } from '../../common/pgtypes/values.ts';
import { arrowDataToValues } from '../read/arrow-values.ts';
import { parsePrimitive, parseType, typeToString } from '../spec/schema.ts';
import { decodeSingleValue, toSqlType } from '../spec/types.ts';
import { encodeVariant } from './variant-encode.ts';

const bin = (xs: (Uint8Array | null)[]): Data => vectorFromArray(xs, new Binary()).data[0]!;

function variantGroup(jsons: (string | null)[], typed?: Data, groupNulls: boolean[] = []): Data {
  const enc = jsons.map((j) => (j === null ? null : encodeVariant(parseJsonb(j))));
  const children = [bin(enc.map((e) => e?.metadata ?? Uint8Array.of(1, 0, 0))), bin(enc.map((e) => e?.value ?? null))];
  const fields: Field[] = [new Field('metadata', new Binary(), false), new Field('value', new Binary(), true)];
  if (typed !== undefined) { children.push(typed); fields.push(new Field('typed_value', typed.type, true)); }
  const nulls = groupNulls.filter(Boolean).length;
  const nullBitmap = new Uint8Array(1);
  jsons.forEach((_j, i) => { if (!groupNulls[i]) nullBitmap[0]! |= 1 << i; });
  return makeData({ type: new Struct(fields), length: jsons.length, nullCount: nulls, nullBitmap, children });
}

const VARIANT = parsePrimitive('variant');

describe('variant columns from Arrow', () => {
  it('decodes unshredded groups to normalized jsonb, null groups to NULL', () => {
    const d = variantGroup(['{"b": [1, 2.50], "a": {"y": null, "x": true}}', '"s"', null, 'null'], undefined, [false, false, true, false]);
    expect(arrowDataToValues(d, VARIANT)).toEqual(['{"a": {"x": true, "y": null}, "b": [1, 2.50]}', '"s"', null, 'null']);
  });

  it('prefers a shredded primitive typed_value, falls back to value, both null → NULL', () => {
    const strings = vectorFromArray(['typed', null, null], new Utf8()).data[0]!;
    expect(arrowDataToValues(variantGroup([null, '{"k": 1}', null], strings), VARIANT)).toEqual(['"typed"', '{"k": 1}', null]);
    const bools = vectorFromArray([false, true], new Bool()).data[0]!;
    expect(arrowDataToValues(variantGroup([null, null], bools), VARIANT)).toEqual(['false', 'true']);
    const uuid = 'f24f9b64-81fa-49d1-b74e-8c09a6e31c56';
    const uuids = makeData({ type: new FixedSizeBinary(16), length: 1, nullCount: 0, data: Buffer.from(uuid.replace(/-/g, ''), 'hex') });
    expect(arrowDataToValues(variantGroup([null], uuids), VARIANT)).toEqual([`"${uuid}"`]);
    const ints = vectorFromArray([-5], new Int32()).data[0]!;
    expect(arrowDataToValues(variantGroup([null], ints), VARIANT)).toEqual(['-5']);
  });

  it('refuses shredded arrays of bare elements and malformed groups (XX001 naming the file)', () => {
    // array elements must be groups of value / typed_value (VariantShredding.md), not bare ints
    const list = vectorFromArray([[1]], new List(new Field('element', new Int32(), true))).data[0]!;
    expect(() => arrowDataToValues(variantGroup([null], list), VARIANT, 'file:///f.parquet')).toThrow(expect.objectContaining({ code: 'XX001', message: expect.stringMatching(/^could not read Parquet file "file:\/\/\/f.parquet": malformed shredded variant .*not groups of value and typed_value/) }));
    const bad = makeData({ type: new Struct([new Field('metadata', new Binary(), false), new Field('value', new Binary(), false)]), length: 1, nullCount: 0, children: [bin([Uint8Array.of(1, 0, 0)]), bin([Uint8Array.of(0x02, 1)])] });
    expect(() => arrowDataToValues(bad, VARIANT, 'file:///f.parquet')).toThrow(expect.objectContaining({ code: 'XX001', message: expect.stringContaining('could not read Parquet file "file:///f.parquet": malformed variant value') }));
    expect(() => arrowDataToValues(bin([Uint8Array.of(0)]), VARIANT, 'file:///g.parquet')).toThrow(expect.objectContaining({ code: 'XX001', message: expect.stringContaining('"file:///g.parquet": variant column is Binary') }));
  });

  it('reads variants inside structs and lists', () => {
    const v = variantGroup(['{"z": 1, "a": 2}', '[true]']);
    const struct = makeData({ type: new Struct([new Field('v', v.type, true, new Map([['PARQUET:field_id', '2']]))]), length: 2, nullCount: 0, children: [v] });
    const st = parseType({ type: 'struct', fields: [{ id: 2, name: 'v', required: false, type: 'variant' }] });
    expect(arrowDataToValues(struct, st)).toEqual(['{"v": {"a": 2, "z": 1}}', '{"v": [true]}']);
    const list = makeData({ type: new List(new Field('element', v.type, true)), length: 1, nullCount: 0, valueOffsets: Int32Array.of(0, 2), child: v });
    const out = arrowDataToValues(list, parseType({ type: 'list', 'element-id': 3, element: 'variant', 'element-required': false }))[0];
    expect(isPgArray(out) && out.elementOid === Oid.jsonb ? out.values : out).toEqual(['{"a": 2, "z": 1}', '[true]']);
  });
});

describe('geometry, geography, unknown', () => {
  it('reads geometry / geography WKB as bytes and unknown as NULL whatever the file holds', () => {
    const wkb = Uint8Array.of(1, 1, 0, 0, 0);
    expect(arrowDataToValues(bin([wkb, null]), parsePrimitive('geometry(srid:4326)'))).toEqual([wkb, null]);
    expect(arrowDataToValues(bin([wkb]), parsePrimitive('geography'))).toEqual([wkb]);
    expect(arrowDataToValues(vectorFromArray([1, 2], new Int32()).data[0]!, parsePrimitive('unknown'))).toEqual([null, null]);
  });

  it('maps the v3 types to jsonb, bytea and text, keeps parameters, never decodes their bounds', () => {
    expect(toSqlType(VARIANT)).toEqual({ oid: Oid.jsonb, typmod: -1 });
    expect(toSqlType(parsePrimitive('geometry'))).toEqual({ oid: Oid.bytea, typmod: -1 });
    expect(toSqlType(parsePrimitive('geography(OGC:CRS84, karney)'))).toEqual({ oid: Oid.bytea, typmod: -1 });
    expect(toSqlType(parsePrimitive('unknown'))).toEqual({ oid: Oid.text, typmod: -1 });
    expect(typeToString(parsePrimitive('geography( srid:4269 , vincenty )'))).toBe('geography(srid:4269 , vincenty)');
    expect(typeToString(parsePrimitive('geometry'))).toBe('geometry');
    expect(decodeSingleValue(parsePrimitive('geometry'), new Uint8Array(16))).toBeUndefined();
    expect(decodeSingleValue(VARIANT, Uint8Array.of(1, 0, 0, 0))).toBeUndefined();
    expect(() => parsePrimitive('geometry(')).toThrow(expect.objectContaining({ code: '0A000' }));
  });
});
