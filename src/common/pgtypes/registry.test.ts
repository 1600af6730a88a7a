import { describe, expect, it } from 'vitest';
import { arrayTypeOf, elementTypeOf, isArrayType, typeByName, typeInfo, allTypes } from './registry.ts';
import { formatType } from './format-type.ts';
import { Oid } from './oids.ts';

describe('registry (pg_type rows copied from PostgreSQL 15.18)', () => {
  it('covers every OID in oids.ts', () => {
    for (const [name, oid] of Object.entries(Oid)) expect(typeInfo(oid), name).toBeDefined();
    expect(allTypes().length).toBe(Object.keys(Oid).length);
  });

  it('int4 row', () => {
    expect(typeInfo(23)).toMatchObject({
      typname: 'int4', typnamespace: 11, typlen: 4, typbyval: true, typtype: 'b', typcategory: 'N', typispreferred: false,
      typdelim: ',', typelem: 0, typarray: 1007, typinput: 'int4in', typoutput: 'int4out', typreceive: 'int4recv',
      typsend: 'int4send', typmodin: '-', typmodout: '-', typalign: 'i', typstorage: 'p', typnotnull: false,
      typbasetype: 0, typtypmod: -1, typndims: 0, typcollation: 0, typrelid: 0,
    });
    expect(typeInfo(1043)).toMatchObject({ typmodin: 'varchartypmodin', typmodout: 'varchartypmodout', typcollation: 100, typcategory: 'S' });
    expect(typeInfo(1007)).toMatchObject({ typinput: 'array_in', typelem: 23, typcategory: 'A', typalign: 'i', typstorage: 'x' });
    expect(typeInfo(2249)).toMatchObject({ typtype: 'p', typcategory: 'P' });
    expect(typeInfo(3904)).toMatchObject({ typtype: 'r' });
  });

  it.each([
    ['int', 23], ['integer', 23], ['INTEGER', 23], ['smallint', 21], ['bigint', 20], ['real', 700], ['float', 701],
    ['double precision', 701], ['boolean', 16], ['character varying', 1043], ['varchar', 1043], ['character', 1042],
    ['char', 1042], ['"char"', 18], ['decimal', 1700], ['timestamp with time zone', 1184], ['timestamp without time zone', 1114],
    ['timestamptz', 1184], ['time with time zone', 1266], ['time without time zone', 1083], ['int4', 23], ['_int4', 1007],
    ['integer[]', 1007], ['text', 25], ['pg_catalog.int8', 20], ['jsonb', 3802], ['bit varying', 1562],
  ])('typeByName(%j) = %i', (name, oid) => expect(typeByName(name)?.oid).toBe(oid));

  it('unknown names', () => expect(typeByName('nosuch')).toBeUndefined());

  it('array helpers', () => {
    expect(arrayTypeOf(23)).toBe(1007);
    expect(elementTypeOf(1007)).toBe(23);
    expect(isArrayType(1007)).toBe(true);
    expect(isArrayType(23)).toBe(false);
    expect(isArrayType(Oid.int2vector)).toBe(false);
    expect(elementTypeOf(Oid.name)).toBe(0);
  });
});

describe('formatType (verified with format_type() on PostgreSQL 15.18)', () => {
  it.each([
    [1043, 24, 'character varying(20)'], [1700, ((10 << 16) | 2) + 4, 'numeric(10,2)'], [1700, -1, 'numeric'],
    [1114, -1, 'timestamp without time zone'], [1007, -1, 'integer[]'], [18, -1, '"char"'], [1184, 3, 'timestamp(3) with time zone'],
    [1042, -1, 'bpchar'], [1042, 5, 'character(1)'], [1083, 2, 'time(2) without time zone'], [1266, -1, 'time with time zone'],
    [1186, -1, 'interval'], [1015, 24, 'character varying(20)[]'], [1002, -1, '"char"[]'], [2249, -1, 'record'], [71, -1, 'pg_type'],
    [1560, 12, 'bit(12)'], [1562, -1, 'bit varying'], [701, -1, 'double precision'], [700, -1, 'real'], [21, -1, 'smallint'],
    [20, -1, 'bigint'], [16, -1, 'boolean'], [19, -1, 'name'], [2287, -1, 'record[]'], [1231, ((10 << 16) | 2) + 4, 'numeric(10,2)[]'],
    [99999, -1, '???'], [1700, (5 << 16) + 4, 'numeric(5,0)'], [1043, -1, 'character varying'], [1560, -1, '"bit"'],
    [1266, 2, 'time(2) with time zone'], [2950, -1, 'uuid'], [1009, -1, 'text[]'], [1003, -1, 'name[]'], [2276, -1, '"any"'],
    [1186, 470286339, 'interval day to second(3)'], [1186, 327679, 'interval year'], [1186, 201392127, 'interval hour to minute'],
    [1186, 2147418114, 'interval(2)'], [1006, -1, 'int2vector[]'], [22, -1, 'int2vector'],
  ])('format_type(%i, %i) = %j', (oid, typmod, text) => expect(formatType(oid, typmod)).toBe(text));

  it('typmod not given (format_type(oid, NULL))', () => {
    expect(formatType(1042)).toBe('character');
    expect(formatType(1560)).toBe('bit');
    expect(formatType(1014)).toBe('character[]');
  });
});
