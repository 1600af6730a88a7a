/**
 * The type registry: pg_type facts for every built-in OID (from pg-type-rows.ts) plus name lookup with
 * PostgreSQL's SQL-standard aliases. Used by the binder (type names), pg_catalog.pg_type and wire/ (typlen).
 * @see https://www.postgresql.org/docs/15/catalog-pg-type.html
 */
import { PG_TYPE_ROWS } from './pg-type-rows.ts';

/** One pg_type row. Column names are pg_type's. */
export interface PgTypeInfo {
  readonly oid: number;
  readonly typname: string;
  readonly typnamespace: number;
  readonly typlen: number;
  readonly typbyval: boolean;
  readonly typtype: 'b' | 'p' | 'r' | 'c' | 'd' | 'e' | 'm';
  readonly typcategory: string;
  readonly typispreferred: boolean;
  readonly typisdefined: boolean;
  readonly typdelim: string;
  readonly typrelid: number;
  readonly typelem: number;
  readonly typarray: number;
  readonly typinput: string;
  readonly typoutput: string;
  readonly typreceive: string;
  readonly typsend: string;
  readonly typmodin: string;
  readonly typmodout: string;
  readonly typalign: string;
  readonly typstorage: string;
  readonly typnotnull: boolean;
  readonly typbasetype: number;
  readonly typtypmod: number;
  readonly typndims: number;
  readonly typcollation: number;
}

export const PG_CATALOG_NAMESPACE = 11;

const byOid = new Map<number, PgTypeInfo>();
const byName = new Map<string, PgTypeInfo>();

for (const r of PG_TYPE_ROWS) {
  const info: PgTypeInfo = Object.freeze({
    oid: r[0], typname: r[1], typnamespace: PG_CATALOG_NAMESPACE, typlen: r[2], typbyval: r[3],
    typtype: r[4] as PgTypeInfo['typtype'], typcategory: r[5], typispreferred: r[6], typisdefined: true,
    typdelim: r[7], typrelid: r[19], typelem: r[8], typarray: r[9], typinput: r[10], typoutput: r[11],
    typreceive: r[12], typsend: r[13], typmodin: r[14], typmodout: r[15], typalign: r[16], typstorage: r[17],
    typnotnull: false, typbasetype: 0, typtypmod: -1, typndims: 0, typcollation: r[18],
  });
  byOid.set(info.oid, info);
  byName.set(info.typname, info);
}

/** SQL-standard spellings the grammar maps to internal names (gram.y / format_type.c). */
const ALIASES: Readonly<Record<string, string>> = {
  int: 'int4', integer: 'int4', smallint: 'int2', bigint: 'int8', real: 'float4', float: 'float8',
  'double precision': 'float8', boolean: 'bool', 'character varying': 'varchar', 'char varying': 'varchar',
  character: 'bpchar', char: 'bpchar', '"char"': 'char', decimal: 'numeric', dec: 'numeric',
  'timestamp without time zone': 'timestamp', 'timestamp with time zone': 'timestamptz',
  'time without time zone': 'time', 'time with time zone': 'timetz', 'bit varying': 'varbit',
  'national character': 'bpchar', 'national character varying': 'varchar', nchar: 'bpchar',
};

/** pg_type row of a built-in OID, or undefined. */
export function typeInfo(oid: number): PgTypeInfo | undefined {
  return byOid.get(oid);
}

/**
 * Resolves a type name as written in SQL: internal names (int4, _int4), aliases (integer, character varying,
 * double precision), the "char" spelling, a pg_catalog. prefix and trailing [] for arrays. Case-insensitive
 * except for the quoted "char".
 */
export function typeByName(name: string): PgTypeInfo | undefined {
  let n = name.trim();
  if (n.endsWith('[]')) {
    const elem = typeByName(n.slice(0, -2));
    return elem === undefined || elem.typarray === 0 ? undefined : byOid.get(elem.typarray);
  }
  if (n === '"char"' || n === 'pg_catalog."char"') return byOid.get(18);
  n = n.toLowerCase().replace(/\s+/g, ' ');
  if (n.startsWith('pg_catalog.')) n = n.slice(11);
  if (n.length > 1 && n.startsWith('"') && n.endsWith('"')) n = n.slice(1, -1);
  const alias = ALIASES[n];
  return byName.get(alias ?? n);
}

/** typarray of an element type (0 if none). */
export function arrayTypeOf(oid: number): number {
  return byOid.get(oid)?.typarray ?? 0;
}

/** Element type of an array type (0 if `oid` is not a true array type). */
export function elementTypeOf(oid: number): number {
  const t = byOid.get(oid);
  return t !== undefined && isArrayInfo(t) ? t.typelem : 0;
}

/** True for the varlena array types (typinput array_in), not for fixed-length ones like name or point. */
export function isArrayType(oid: number): boolean {
  const t = byOid.get(oid);
  return t !== undefined && isArrayInfo(t);
}

function isArrayInfo(t: PgTypeInfo): boolean {
  return t.typelem !== 0 && t.typlen === -1 && t.typinput === 'array_in';
}

/** Every registered type, in OID order (for pg_catalog.pg_type). */
export function allTypes(): readonly PgTypeInfo[] {
  return [...byOid.values()].sort((a, b) => a.oid - b.oid);
}
