/**
 * The types PostgreSQL 15's initdb creates that lakegate's type registry does not have (point, lseg, box, tsvector,
 * table_am_handler, language_handler, the multiranges, information_schema's domains …): pg_type lists them with
 * PostgreSQL's rows, and format_type / regtype print their names, so a built-in function that takes or returns one
 * prints in pg_get_function_arguments / _result (psql's \df, pgJDBC's getFunctionColumns) as in PostgreSQL instead
 * of `???`. They exist in the catalog only: no value of them can be made (casting to one still fails in the binder).
 * Data: data/pg-other-types.json, made by testing/generate-pg15-other-types.mjs, read on first use.
 */
import { readFileSync } from 'node:fs';
import { formatType, typeInfo } from '../common/pgtypes/index.ts';
import { quoteIdent } from './catalog-snapshot.ts';
import type { CatalogRow } from './system-table.ts';
import { BOOTSTRAP_SUPERUSER_OID, NamespaceOid } from './well-known-oids.ts';

type OtherTypeJson = readonly [
  oid: number, typname: string, typnamespace: number, typlen: number, typbyval: boolean, typtype: string,
  typcategory: string, typispreferred: boolean, typdelim: string, typsubscript: number, typelem: number,
  typarray: number, typinput: number, typoutput: number, typreceive: number, typsend: number, typmodin: number,
  typmodout: number, typanalyze: number, typalign: string, typstorage: string, typnotnull: boolean,
  typbasetype: number, typtypmod: number, typndims: number, typcollation: number, typdefault: string | null,
];

/**
 * a domain's CHECK constraint: OID, name, schema, domain, pg_get_constraintdef's text (`CHECK ((VALUE >= 0))`), its
 * pretty form (psql's \dD) and pg_get_expr of conbin (`(VALUE >= 0)`)
 */
export type DomainCheck = readonly [oid: number, conname: string, connamespace: number, contypid: number, definition: string,
  pretty: string, expression: string];

interface OtherTypesJson {
  readonly types: readonly OtherTypeJson[];
  /** relation OID, attnum, domain OID of information_schema's columns typed by a domain */
  readonly domainColumns: readonly (readonly [number, number, number])[];
  readonly domainChecks: readonly DomainCheck[];
}

interface OtherTypes {
  /** pg_type rows of the types the registry lacks, by OID order */
  readonly rows: readonly CatalogRow[];
  readonly byOid: ReadonlyMap<number, CatalogRow>;
  /** `name` → OID for regtype input (pg_catalog's by typname; information_schema's domains qualified) */
  readonly byName: ReadonlyMap<string, number>;
  /** `relOid:attnum` → domain OID */
  readonly domainColumns: ReadonlyMap<string, number>;
  readonly domainColumnList: readonly (readonly [number, number, number])[];
  readonly domainChecks: readonly DomainCheck[];
}

let loaded: OtherTypes | undefined;

function otherTypes(): OtherTypes {
  if (loaded !== undefined) return loaded;
  const json = JSON.parse(readFileSync(new URL('./data/pg-other-types.json', import.meta.url), 'utf8')) as OtherTypesJson;
  const rows: CatalogRow[] = [];
  const byOid = new Map<number, CatalogRow>();
  const byName = new Map<string, number>();
  for (const r of json.types) {
    if (typeInfo(r[0]) !== undefined) continue;
    const row: CatalogRow = {
      oid: r[0], typname: r[1], typnamespace: r[2], typowner: BOOTSTRAP_SUPERUSER_OID, typlen: r[3], typbyval: r[4],
      typtype: r[5], typcategory: r[6], typispreferred: r[7], typisdefined: true, typdelim: r[8], typrelid: 0,
      typsubscript: r[9], typelem: r[10], typarray: r[11], typinput: r[12], typoutput: r[13], typreceive: r[14],
      typsend: r[15], typmodin: r[16], typmodout: r[17], typanalyze: r[18], typalign: r[19], typstorage: r[20],
      typnotnull: r[21], typbasetype: r[22], typtypmod: r[23], typndims: r[24], typcollation: r[25],
      // pg_node_tree columns hold the expression's SQL text in lakegate (pg_get_expr returns it)
      typdefaultbin: r[26], typdefault: r[26], typacl: null,
    };
    rows.push(row);
    byOid.set(r[0], row);
    byName.set(r[2] === NamespaceOid.pg_catalog ? r[1] : `information_schema.${r[1]}`, r[0]);
  }
  const domainColumns = new Map(json.domainColumns.map(([rel, attnum, type]) => [`${rel}:${attnum}`, type]));
  loaded = { rows, byOid, byName, domainColumns, domainColumnList: json.domainColumns, domainChecks: json.domainChecks };
  return loaded;
}

/** pg_type rows of PostgreSQL's built-in types the type registry does not have */
export function otherTypeRows(): readonly CatalogRow[] {
  return otherTypes().rows;
}

/** the pg_type row of such a type, if `oid` is one */
export function otherType(oid: number): CatalogRow | undefined {
  return oid < 16384 ? otherTypes().byOid.get(oid) : undefined;
}

/** array_in's arrays (typsubscript array_subscript_handler) print as their element and [] */
const ARRAY_SUBSCRIPT_HANDLER = 6179;

/**
 * format_type of such a type, as format_type.c prints one without special syntax: an array as its element's name
 * and [], else the quoted name, qualified by its schema when that is not pg_catalog (always on the search path)
 */
export function formatOtherType(oid: number): string | undefined {
  const t = otherType(oid);
  if (t === undefined) return undefined;
  const elem = t['typelem'] as number;
  if (elem !== 0 && t['typsubscript'] === ARRAY_SUBSCRIPT_HANDLER) {
    const inner = typeInfo(elem) !== undefined ? formatType(elem) : formatOtherType(elem);
    return inner === undefined ? undefined : `${inner}[]`;
  }
  const name = quoteIdent(t['typname'] as string);
  return t['typnamespace'] === NamespaceOid.pg_catalog ? name : `information_schema.${name}`;
}

/**
 * regtypein of such a type's parsed name (['point'], ['pg_catalog', 'point'], ['information_schema',
 * 'cardinal_number']: information_schema is not on the search path), undefined when none
 */
export function otherTypeByName(parts: readonly string[]): number | undefined {
  const key = parts.length === 1 ? parts[0]! : parts.length === 2 && parts[0] === 'pg_catalog' ? parts[1]! : parts.join('.');
  return otherTypes().byName.get(key);
}

/** the domain (information_schema.sql_identifier …) PostgreSQL types information_schema column `attnum` of `relOid` with */
export function domainColumnType(relOid: number, attnum: number): number | undefined {
  return otherTypes().domainColumns.get(`${relOid}:${attnum}`);
}

/** [relation OID, attnum, domain OID] of every information_schema column a domain types, by relation and attnum */
export function domainColumnList(): readonly (readonly [number, number, number])[] {
  return otherTypes().domainColumnList;
}

/** the domains' CHECK constraints (cardinal_number's VALUE >= 0, yes_or_no's YES / NO) */
export function domainChecks(): readonly DomainCheck[] {
  return otherTypes().domainChecks;
}
