/**
 * The relation-listing views pg_tables, pg_views, pg_matviews, pg_indexes, and the statistics views
 * pg_stat_user_tables / pg_statio_user_tables (counters zero; n_live_tup from the row estimate).
 * @see https://www.postgresql.org/docs/15/view-pg-tables.html
 */
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import { quoteIdent } from '../catalog-snapshot.ts';
import { ruleutilsViewDef } from '../ruleutils-view-def.ts';
import type { CatalogRow } from '../system-table.ts';
import { hasIndexes, indexDefinition, relationIndexes } from './relation-indexes.ts';

function isUserSchema(schemaOid: number): boolean {
  return schemaOid !== 11 && schemaOid !== 13207 && schemaOid !== 99;
}

export function* pgTablesRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const rel of snap.relations) {
    if (rel.kind !== 'r' && rel.kind !== 'p') continue;
    yield {
      schemaname: rel.schema, tablename: rel.name, tableowner: snap.session.user, tablespace: null,
      hasindexes: hasIndexes(rel), hasrules: false, hastriggers: false, rowsecurity: false,
    };
  }
}

export function* pgViewsRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const rel of snap.relations) {
    if (rel.kind !== 'v') continue;
    yield { schemaname: rel.schema, viewname: rel.name, viewowner: snap.session.user, definition: viewDefinitionOf(rel, snap, false) };
  }
}

export function* pgMatviewsRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const rel of snap.relations) {
    if (rel.kind !== 'm') continue;
    yield {
      schemaname: rel.schema, matviewname: rel.name, matviewowner: snap.session.user, tablespace: null,
      hasindexes: hasIndexes(rel), ispopulated: true, definition: viewDefinitionOf(rel, snap, false),
    };
  }
}

export function* pgIndexesRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const pk of relationIndexes(snap)) {
    yield { schemaname: pk.rel.schema, tablename: pk.rel.name, indexname: pk.name, tablespace: null, indexdef: indexDefinition(pk, quoteIdent) };
  }
}

/** pg_get_viewdef's shape: a leading space-indented SELECT ending in ';' */
export function viewDefinitionText(def: string | undefined): string | null {
  if (def === undefined) return null;
  const body = def.trim().replace(/;\s*$/, '');
  return ` ${body};`;
}

/**
 * pg_get_viewdef(view, pretty): PostgreSQL 15's rendering where ruleutils-view-def.ts covers the query, else the
 * stored SQL in pg_get_viewdef's shape. pg_views and information_schema.views show the non-pretty form.
 */
export function viewDefinitionOf(rel: RelationInfo, snap: CatalogSnapshot, pretty: boolean): string | null {
  return ruleutilsViewDef(rel, snap, pretty) ?? viewDefinitionText(rel.viewDefinition);
}

export function* pgStatUserTablesRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const rel of snap.relations) {
    if (!isUserSchema(rel.schemaOid) || (rel.kind !== 'r' && rel.kind !== 'm' && rel.kind !== 'p')) continue;
    const live = BigInt(Math.max(0, Math.round(rel.source.estimatedRows ?? 0)));
    yield {
      relid: rel.oid, schemaname: rel.schema, relname: rel.name, seq_scan: 0n, seq_tup_read: 0n,
      idx_scan: hasIndexes(rel) ? 0n : null, idx_tup_fetch: hasIndexes(rel) ? 0n : null,
      n_tup_ins: 0n, n_tup_upd: 0n, n_tup_del: 0n, n_tup_hot_upd: 0n, n_live_tup: live, n_dead_tup: 0n,
      n_mod_since_analyze: 0n, n_ins_since_vacuum: 0n, last_vacuum: null, last_autovacuum: null, last_analyze: null,
      last_autoanalyze: null, vacuum_count: 0n, autovacuum_count: 0n, analyze_count: 0n, autoanalyze_count: 0n,
    };
  }
}

export function* pgStatioUserTablesRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const rel of snap.relations) {
    if (!isUserSchema(rel.schemaOid) || (rel.kind !== 'r' && rel.kind !== 'm' && rel.kind !== 'p')) continue;
    const hasIdx = hasIndexes(rel);
    yield {
      relid: rel.oid, schemaname: rel.schema, relname: rel.name, heap_blks_read: 0n, heap_blks_hit: 0n,
      idx_blks_read: hasIdx ? 0n : null, idx_blks_hit: hasIdx ? 0n : null, toast_blks_read: null, toast_blks_hit: null,
      tidx_blks_read: null, tidx_blks_hit: null,
    };
  }
}
