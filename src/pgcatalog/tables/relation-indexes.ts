/**
 * The indexes pg_catalog reports for user relations: one unique btree index per primary key, named
 * <table>_pkey as PostgreSQL names it (or as CONSTRAINT named it; kept through renames), backing a pg_constraint
 * row of contype 'p'; the CREATE INDEX indexes; and the unique indexes of UNIQUE constraints, each backing a
 * pg_constraint row of contype 'u' (a CREATE UNIQUE INDEX is an index only, as in PostgreSQL); and PostgreSQL 15's
 * own indexes on its pg_catalog tables with the primary keys and unique constraints they back (psql's \d pg_cast).
 */
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import { PG_CATALOG_INDEXES, type CatalogIndexRow } from '../data/pg-catalog-indexes.ts';
import { primaryKeyConstraintOid, primaryKeyIndexOid, uniqueConstraintOid } from '../well-known-oids.ts';

export interface PrimaryKeyIndex {
  readonly oid: number;
  readonly name: string;
  readonly constraintOid: number;
  readonly rel: RelationInfo;
  /** 1-based attnums of the key columns */
  readonly attnums: readonly number[];
  /** false for the indexes CREATE INDEX records (RelationInfo.indexes); those have constraintOid 0 unless they back a UNIQUE constraint */
  readonly primary?: boolean;
  readonly unique?: boolean;
}

export function primaryKeyOf(rel: RelationInfo): PrimaryKeyIndex | undefined {
  const pk = rel.primaryKey;
  if (pk === undefined || pk.length === 0) return undefined;
  return {
    oid: primaryKeyIndexOid(rel.oid),
    name: rel.primaryKeyName ?? `${rel.name}_pkey`.slice(0, 63),
    constraintOid: primaryKeyConstraintOid(rel.oid),
    rel,
    attnums: pk.map((i) => i + 1),
  };
}

/** the CREATE INDEX indexes of a relation (metadata only), in creation order */
export function secondaryIndexesOf(rel: RelationInfo): PrimaryKeyIndex[] {
  return (rel.indexes ?? []).map((ix) => ({
    oid: ix.oid, name: ix.name, constraintOid: ix.constraint === true ? uniqueConstraintOid(ix.oid) : 0, rel, attnums: ix.columns.map((i) => i + 1), primary: false, unique: ix.unique,
  }));
}

/** pg_constraint.contype of the constraint an index backs: 'p', 'u', or null for a plain index */
export function constraintTypeOf(ix: PrimaryKeyIndex): 'p' | 'u' | null {
  if (ix.primary !== false) return 'p';
  return ix.constraintOid !== 0 ? 'u' : null;
}

let catalogIndexRows: ReadonlyMap<number, readonly CatalogIndexRow[]> | undefined;
/** per catalog relation object: the system relations are built once, so are their indexes */
const catalogIndexMemo = new WeakMap<RelationInfo, readonly PrimaryKeyIndex[]>();

/** PostgreSQL's indexes on a pg_catalog table, in OID order (none for any other relation) */
export function catalogIndexesOf(rel: RelationInfo): readonly PrimaryKeyIndex[] {
  if (rel.oid >= 16384 || rel.kind !== 'r') return [];
  const kept = catalogIndexMemo.get(rel);
  if (kept !== undefined) return kept;
  if (catalogIndexRows === undefined) {
    const byTable = new Map<number, CatalogIndexRow[]>();
    for (const row of PG_CATALOG_INDEXES) {
      const list = byTable.get(row[2]) ?? [];
      list.push(row);
      byTable.set(row[2], list);
    }
    catalogIndexRows = byTable;
  }
  const indexes = (catalogIndexRows.get(rel.oid) ?? []).map(([oid, name, , attnums, kind, constraintOid]): PrimaryKeyIndex => (
    kind === 'p' ? { oid, name, constraintOid, rel, attnums } : { oid, name, constraintOid, rel, attnums, primary: false, unique: kind !== 'i' }));
  catalogIndexMemo.set(rel, indexes);
  return indexes;
}

/** the indexes backing a constraint (pg_constraint contype 'p' and 'u'): each table's primary key, then its UNIQUE constraints */
export function constraintIndexes(snap: CatalogSnapshot): PrimaryKeyIndex[] {
  const out: PrimaryKeyIndex[] = [];
  for (const rel of snap.relations) {
    const pk = primaryKeyOf(rel);
    if (pk !== undefined) out.push(pk);
    if (rel.indexes !== undefined) for (const ix of secondaryIndexesOf(rel)) if (ix.constraintOid !== 0) out.push(ix);
    if (rel.oid < 16384) for (const ix of catalogIndexesOf(rel)) if (ix.constraintOid !== 0) out.push(ix);
  }
  return out;
}

/** true if pg_class.relhasindex: a primary key or a CREATE INDEX index */
export function hasIndexes(rel: RelationInfo): boolean {
  return primaryKeyOf(rel) !== undefined || (rel.indexes?.length ?? 0) > 0;
}

/** every index pg_class / pg_index / pg_indexes show: primary keys' and CREATE INDEX ones */
export function relationIndexes(snap: CatalogSnapshot): PrimaryKeyIndex[] {
  const out: PrimaryKeyIndex[] = [];
  for (const rel of snap.relations) {
    const pk = primaryKeyOf(rel);
    if (pk !== undefined) out.push(pk);
    if (rel.indexes !== undefined) out.push(...secondaryIndexesOf(rel));
    if (rel.oid < 16384) out.push(...catalogIndexesOf(rel));
  }
  return out;
}

/**
 * pg_indexes.indexdef / pg_get_indexdef: CREATE UNIQUE INDEX t_pkey ON public.t USING btree (a, b). The table is
 * schema-qualified unless `tableName` is given (pretty mode prints it as regclass does: qualified only if not visible).
 */
export function indexDefinition(pk: PrimaryKeyIndex, quote: (s: string) => string, tableName?: string): string {
  const cols = pk.attnums.map((n) => quote(pk.rel.source.columns[n - 1]?.name ?? `?${n}`));
  return `CREATE ${pk.unique === false ? '' : 'UNIQUE '}INDEX ${quote(pk.name)} ON ${tableName ?? `${quote(pk.rel.schema)}.${quote(pk.rel.name)}`} USING btree (${cols.join(', ')})`;
}

/** pg_get_constraintdef of a primary key or UNIQUE constraint: PRIMARY KEY (a, b), UNIQUE (a) */
export function primaryKeyDefinition(pk: PrimaryKeyIndex, quote: (s: string) => string): string {
  return `${constraintTypeOf(pk) === 'u' ? 'UNIQUE' : 'PRIMARY KEY'} (${pk.attnums.map((n) => quote(pk.rel.source.columns[n - 1]?.name ?? `?${n}`)).join(', ')})`;
}
