/**
 * The indexes pg_catalog reports for user relations: one unique btree index per primary key, named
 * <table>_pkey as PostgreSQL names it, backing a pg_constraint row of contype 'p'.
 */
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import { primaryKeyConstraintOid, primaryKeyIndexOid } from '../well-known-oids.ts';

export interface PrimaryKeyIndex {
  readonly oid: number;
  readonly name: string;
  readonly constraintOid: number;
  readonly rel: RelationInfo;
  /** 1-based attnums of the key columns */
  readonly attnums: readonly number[];
  /** false for the indexes CREATE INDEX records (RelationInfo.indexes); those have constraintOid 0 */
  readonly primary?: boolean;
  readonly unique?: boolean;
}

export function primaryKeyOf(rel: RelationInfo): PrimaryKeyIndex | undefined {
  const pk = rel.primaryKey;
  if (pk === undefined || pk.length === 0) return undefined;
  return {
    oid: primaryKeyIndexOid(rel.oid),
    name: `${rel.name}_pkey`.slice(0, 63),
    constraintOid: primaryKeyConstraintOid(rel.oid),
    rel,
    attnums: pk.map((i) => i + 1),
  };
}

/** the CREATE INDEX indexes of a relation (metadata only), in creation order */
export function secondaryIndexesOf(rel: RelationInfo): PrimaryKeyIndex[] {
  return (rel.indexes ?? []).map((ix) => ({
    oid: ix.oid, name: ix.name, constraintOid: 0, rel, attnums: ix.columns.map((i) => i + 1), primary: false, unique: ix.unique,
  }));
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
  }
  return out;
}

export function primaryKeyIndexes(snap: CatalogSnapshot): PrimaryKeyIndex[] {
  const out: PrimaryKeyIndex[] = [];
  for (const rel of snap.relations) {
    const pk = primaryKeyOf(rel);
    if (pk !== undefined) out.push(pk);
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

/** pg_get_constraintdef of a primary key: PRIMARY KEY (a, b) */
export function primaryKeyDefinition(pk: PrimaryKeyIndex, quote: (s: string) => string): string {
  return `PRIMARY KEY (${pk.attnums.map((n) => quote(pk.rel.source.columns[n - 1]?.name ?? `?${n}`)).join(', ')})`;
}
