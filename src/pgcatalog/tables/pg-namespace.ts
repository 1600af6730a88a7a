/**
 * pg_namespace: system schemas (pg_catalog 11, pg_toast 99, public 2200, information_schema) plus the CatalogView's.
 * @see https://www.postgresql.org/docs/15/catalog-pg-namespace.html
 */
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import type { CatalogRow } from '../system-table.ts';
import { BOOTSTRAP_SUPERUSER_OID, PG_DATABASE_OWNER_OID } from '../well-known-oids.ts';

const PUBLIC_NAMESPACE_OID = 2200;

export function* pgNamespaceRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const s of snap.schemas) {
    // PostgreSQL 15's public schema belongs to the predefined role pg_database_owner
    yield { oid: s.oid, nspname: s.name, nspowner: s.oid === PUBLIC_NAMESPACE_OID ? PG_DATABASE_OWNER_OID : BOOTSTRAP_SUPERUSER_OID, nspacl: null };
  }
}
