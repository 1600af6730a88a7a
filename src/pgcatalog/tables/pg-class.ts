/**
 * pg_class: one row per relation (system catalogs and views, user tables, views, temp tables) plus the
 * primary-key index of each relation that has one. Every object is owned by role 10 (the session user).
 * @see https://www.postgresql.org/docs/15/catalog-pg-class.html
 */
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import type { CatalogRow } from '../system-table.ts';
import { BOOTSTRAP_SUPERUSER_OID, BTREE_AM_OID, HEAP_AM_OID } from '../well-known-oids.ts';
import { frozenXid } from './pg-database.ts';
import { hasIndexes, relationIndexes } from './relation-indexes.ts';

/** pg_class.relisshared: catalogs shared by all databases of a cluster. */
const SHARED_CATALOGS = new Set([
  'pg_authid', 'pg_auth_members', 'pg_database', 'pg_db_role_setting', 'pg_tablespace', 'pg_shdepend',
  'pg_shdescription', 'pg_shseclabel', 'pg_replication_origin', 'pg_subscription', 'pg_parameter_acl',
]);

const GLOBAL_TABLESPACE_OID = 1664;

const STORED_KINDS = new Set(['r', 'm', 't', 'i', 'S']);
const NO_OIDS: ReadonlySet<number> = new Set();

function relationRow(snap: CatalogSnapshot, rel: RelationInfo, withTriggers: ReadonlySet<number> = NO_OIDS, frozen = 0): CatalogRow {
  const stored = STORED_KINDS.has(rel.kind);
  const isSystem = rel.schemaOid === 11 || rel.schemaOid === 13207;
  const estimate = rel.source.estimatedRows;
  return {
    oid: rel.oid,
    relname: rel.name,
    relnamespace: rel.schemaOid,
    reltype: rel.kind === 'i' || rel.kind === 'S' ? 0 : rel.rowTypeOid,
    reloftype: 0,
    relowner: BOOTSTRAP_SUPERUSER_OID,
    relam: rel.kind === 'r' || rel.kind === 'm' ? HEAP_AM_OID : rel.kind === 'i' ? BTREE_AM_OID : 0,
    relfilenode: stored ? rel.oid : 0,
    // shared catalogs (and their indexes, which copy this row) live in pg_global; the rest in the database's default
    reltablespace: rel.schemaOid === 11 && SHARED_CATALOGS.has(rel.name) ? GLOBAL_TABLESPACE_OID : 0,
    relpages: 0,
    reltuples: rel.kind === 'v' ? 0 : estimate ?? -1,
    relallvisible: 0,
    reltoastrelid: 0,
    // PostgreSQL's own catalogs all have indexes
    relhasindex: hasIndexes(rel) || (rel.schemaOid === 11 && rel.kind === 'r'),
    relisshared: rel.schemaOid === 11 && SHARED_CATALOGS.has(rel.name),
    relpersistence: rel.persistence,
    relkind: rel.kind,
    relnatts: snap.columnsOf(rel).length,
    relchecks: 0,
    relhasrules: rel.kind === 'v',
    // PostgreSQL's foreign keys are triggers on both tables; psql \d shows FK sections only when this is set
    relhastriggers: withTriggers.has(rel.oid),
    relhassubclass: false,
    relrowsecurity: false,
    relforcerowsecurity: false,
    relispopulated: true,
    relreplident: rel.kind === 'r' && !isSystem ? 'd' : 'n',
    relispartition: false,
    relrewrite: 0,
    relfrozenxid: rel.kind === 'r' || rel.kind === 'm' ? frozen : 0,
    relminmxid: rel.kind === 'r' || rel.kind === 'm' ? 1 : 0,
    relacl: null,
    reloptions: null,
    relpartbound: null,
  };
}

export function* pgClassRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const withTriggers = new Set<number>();
  for (const rel of snap.relations) {
    for (const fk of rel.foreignKeys ?? []) withTriggers.add(rel.oid).add(fk.refRelationOid);
  }
  // tables are frozen up to the current transaction (pg-database.ts frozenXid): pgAdmin's age(relfrozenxid) is 0
  const frozen = frozenXid(snap);
  for (const rel of snap.relations) yield relationRow(snap, rel, withTriggers, frozen);
  for (const pk of relationIndexes(snap)) {
    yield {
      ...relationRow(snap, pk.rel),
      oid: pk.oid,
      relname: pk.name,
      reltype: 0,
      relam: BTREE_AM_OID,
      relfilenode: pk.oid,
      // a btree index PostgreSQL just built and never vacuumed counts its metapage (pgJDBC getIndexInfo's PAGES)
      relpages: 1,
      reltuples: 0,
      relhasindex: false,
      relhastriggers: false,
      relpersistence: pk.rel.persistence,
      relkind: 'i',
      relnatts: pk.attnums.length,
      relhasrules: false,
      relreplident: 'n',
      relfrozenxid: 0,
      relminmxid: 0,
    };
  }
}
