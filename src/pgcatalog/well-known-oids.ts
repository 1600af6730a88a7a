/**
 * OIDs pg_catalog reports for things lakegate does not store: PostgreSQL's fixed catalog OIDs, and the
 * deterministic OIDs we synthesise for primary-key indexes, constraints, defaults and routines.
 * Synthetic OIDs sit far above the user range the catalog hands out (16384 upward), so they do not collide.
 */
export const NamespaceOid = { pg_catalog: 11, pg_toast: 99, public: 2200, information_schema: 13207 } as const;

/** pg_class OIDs of the catalogs used as pg_description.classoid / pg_depend.classid. */
export const ClassOid = {
  pg_type: 1247, pg_attribute: 1249, pg_proc: 1255, pg_class: 1259, pg_authid: 1260, pg_database: 1262,
  pg_namespace: 2615, pg_constraint: 2606, pg_attrdef: 2604, pg_description: 2609, pg_index: 2610,
  pg_rewrite: 2618, pg_am: 2601, pg_tablespace: 1213, pg_extension: 3079, pg_language: 2612, pg_operator: 2617,
  pg_cast: 2605, pg_collation: 3456, pg_opclass: 2616, pg_trigger: 2620, pg_ts_config: 3602, pg_ts_dict: 3600,
  pg_ts_parser: 3601, pg_ts_template: 3764, pg_event_trigger: 3466, pg_foreign_data_wrapper: 2328,
  pg_foreign_server: 1417, pg_publication: 6104, pg_subscription: 6100, pg_policy: 3256, pg_statistic_ext: 3381,
  pg_conversion: 2607,
} as const;

export const BOOTSTRAP_SUPERUSER_OID = 10;
/** the 'lakegate' role when the session user is someone else (8000–9999 is unused by PostgreSQL releases) */
export const LAKEGATE_ROLE_OID = 9999;
/** predefined role that owns the public schema in PostgreSQL 15 */
export const PG_DATABASE_OWNER_OID = 6171;
export const HEAP_AM_OID = 2;
export const BTREE_AM_OID = 403;
export const DEFAULT_TABLESPACE_OID = 1663;
export const DEFAULT_COLLATION_OID = 100;
export const C_COLLATION_OID = 950;
export const PLPGSQL_LANGUAGE_OID = 13563;
export const INTERNAL_LANGUAGE_OID = 12;
export const UTF8_ENCODING = 6;

const MAX_OID = 4294967295;

function inRange(base: number, span: number, key: number): number {
  return base + (key % span);
}

/** pg_class/pg_index OID of the index backing a relation's primary key. */
export function primaryKeyIndexOid(relOid: number): number {
  return inRange(1_000_000_000, 500_000_000, relOid * 2);
}

/** pg_constraint OID of a relation's primary key constraint. */
export function primaryKeyConstraintOid(relOid: number): number {
  return inRange(1_000_000_000, 500_000_000, relOid * 2 + 1);
}

/** pg_constraint OID of the UNIQUE constraint an index backs (1.6e9–2e9 is otherwise unused). */
export function uniqueConstraintOid(indexOid: number): number {
  return inRange(1_600_000_000, 400_000_000, indexOid);
}

/** pg_attrdef OID of a column default. */
export function attrDefOid(relOid: number, attnum: number): number {
  return inRange(3_000_000_000, 1_000_000_000, relOid * 1601 + attnum);
}

/** pg_rewrite OID of a view's _RETURN rule. */
export function viewRuleOid(relOid: number): number {
  return inRange(1_500_000_000, 100_000_000, relOid);
}

/** pg_database OID of the i-th served database (the first one gets 5, as PostgreSQL's "postgres" does). */
export function databaseOid(index: number): number {
  return index === 0 ? 5 : 16_000 + index;
}

/** FNV-1a, for routine OIDs that must be the same in every session and process. */
export function stableHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** OID for a routine without a PostgreSQL-assigned one: stable, derived from its signature. */
export function synthesizedRoutineOid(name: string, args: readonly number[]): number {
  return inRange(2_000_000_000, 900_000_000, stableHash(`${name}(${args.join(',')})`));
}

/** OID for an operator without a PostgreSQL-assigned one. */
export function synthesizedOperatorOid(name: string, left: number, right: number): number {
  return inRange(2_900_000_000, 90_000_000, stableHash(`${name}(${left},${right})`));
}

/** OID for a pg_cast row. */
export function synthesizedCastOid(source: number, target: number): number {
  return inRange(2_990_000_000, 9_000_000, stableHash(`${source}->${target}`));
}

export function isValidOid(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n <= MAX_OID;
}

/** PostgreSQL 15's array types of bootstrap and shared catalogs' row types; every other initdb row type's is its OID - 1 */
const CATALOG_ROW_ARRAY_OIDS: ReadonlyMap<number, number> = new Map([
  [71, 210], [75, 270], [81, 272], [83, 273], [1248, 10052], [2842, 10057], [2843, 10058], [4066, 10093], [6101, 10112],
]);

/**
 * Array types of lakegate's relations' row types sit in 500 M–1 G, unused by every other OID source: a row type
 * numbered by the catalog's counter (16384 upward, far below 100 M) or by StableOids (1.6 G–2 G) lands on its own
 * slot, rowTypeOid mod 500 M above the base, so the array type needs no stored OID and every process agrees on it.
 */
const USER_ROW_ARRAY_BASE = 500_000_000;

/**
 * pg_type.typarray of a relation's row type: initdb gives each catalog table and view an array type (_pg_class …)
 * and PostgreSQL one to each table, view and materialized view it creates (`'t[]'::regtype`, pgJDBC's getArray);
 * indexes and sequences have no row type (PostgreSQL 14 and later).
 */
export function rowTypeArrayOid(rel: { readonly oid: number; readonly rowTypeOid: number; readonly kind?: string }): number {
  if (rel.rowTypeOid === 0 || rel.kind === 'i' || rel.kind === 'S') return 0;
  if (rel.oid >= 16384) return USER_ROW_ARRAY_BASE + (rel.rowTypeOid % USER_ROW_ARRAY_BASE);
  return CATALOG_ROW_ARRAY_OIDS.get(rel.rowTypeOid) ?? rel.rowTypeOid - 1;
}
