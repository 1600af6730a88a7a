/**
 * The type columns information_schema repeats in columns, parameters, routines and element_types:
 * data_type (SQL-standard spelling, 'ARRAY', 'USER-DEFINED'), lengths, numeric precision/scale/radix and
 * datetime precision, computed as information_schema.sql's _pg_char_max_length & co. do.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/catalog/information_schema.sql
 */
import { Oid, formatType } from '../../common/pgtypes/index.ts';
import { formatOtherType, otherType } from '../other-types.ts';
import { typeFacts } from '../type-facts.ts';

/** UTF8's maximum bytes per character, used for character_octet_length */
const MAX_ENCODING_LENGTH = 4;
const TEXT_OCTET_LENGTH = 1073741824;

export interface InfoSchemaTypeColumns {
  data_type: string;
  character_maximum_length: number | null;
  character_octet_length: number | null;
  numeric_precision: number | null;
  numeric_precision_radix: number | null;
  numeric_scale: number | null;
  datetime_precision: number | null;
  interval_type: string | null;
  interval_precision: number | null;
  udt_schema: string;
  udt_name: string;
}

export function infoSchemaDataType(oid: number): string {
  const t = typeFacts(oid);
  // information_schema.sql's rule: any varlena type with an element type (so int2vector/oidvector too)
  if (t.typelem !== 0 && t.typlen === -1) return 'ARRAY';
  // a pg_catalog type the registry lacks (point, tsvector …) prints as format_type does
  if (t.info === undefined) return otherType(oid)?.['typnamespace'] === 11 ? formatOtherType(oid) ?? 'USER-DEFINED' : 'USER-DEFINED';
  if (t.info.typnamespace !== 11 || t.typtype === 'c' || t.typtype === 'e') return 'USER-DEFINED';
  return formatType(oid);
}

function charMaxLength(oid: number, typmod: number): number | null {
  if (typmod === -1) return null;
  if (oid === Oid.bpchar || oid === Oid.varchar) return typmod - 4;
  if (oid === Oid.bit || oid === Oid.varbit) return typmod;
  return null;
}

function numericPrecision(oid: number, typmod: number): number | null {
  switch (oid) {
    case Oid.int2: return 16;
    case Oid.int4: return 32;
    case Oid.int8: return 64;
    case Oid.numeric: return typmod === -1 ? null : ((typmod - 4) >> 16) & 65535;
    case Oid.float4: return 24;
    case Oid.float8: return 53;
    default: return null;
  }
}

function datetimePrecision(oid: number, typmod: number): number | null {
  if (oid === Oid.date) return 0;
  if (oid === Oid.time || oid === Oid.timetz || oid === Oid.timestamp || oid === Oid.timestamptz) return typmod < 0 ? 6 : typmod;
  if (oid === Oid.interval) return typmod < 0 || (typmod & 65535) === 65535 ? 6 : typmod & 65535;
  return null;
}

export function infoSchemaTypeColumns(oid: number, typmod: number): InfoSchemaTypeColumns {
  const t = typeFacts(oid);
  const isChar = oid === Oid.bpchar || oid === Oid.varchar || oid === Oid.text;
  const maxLen = charMaxLength(oid, typmod);
  const isNumeric = oid === Oid.int2 || oid === Oid.int4 || oid === Oid.int8 || oid === Oid.numeric || oid === Oid.float4 || oid === Oid.float8;
  return {
    data_type: infoSchemaDataType(oid),
    character_maximum_length: maxLen,
    character_octet_length: isChar ? (maxLen === null ? TEXT_OCTET_LENGTH : maxLen * MAX_ENCODING_LENGTH) : null,
    numeric_precision: numericPrecision(oid, typmod),
    numeric_precision_radix: isNumeric ? (oid === Oid.numeric ? 10 : 2) : null,
    numeric_scale: oid === Oid.int2 || oid === Oid.int4 || oid === Oid.int8 ? 0 : oid === Oid.numeric && typmod !== -1 ? (typmod - 4) & 65535 : null,
    datetime_precision: datetimePrecision(oid, typmod),
    interval_type: null,
    interval_precision: null,
    udt_schema: t.info === undefined || t.info.typnamespace === 11 ? 'pg_catalog' : 'public',
    udt_name: t.typname,
  };
}
