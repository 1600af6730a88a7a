/**
 * Text output of the OID alias types (regclass, regtype, regproc, regnamespace, regrole, ...), which
 * PostgreSQL prints as names looked up in the catalog: `'pg_class'::regclass` prints pg_class.
 */
import type { CatalogView } from '../catalog/catalog-view.ts';
import type { SessionView } from '../catalog/session-view.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { regOutput } from '../pgcatalog/index.ts';

export const REG_TYPES: ReadonlySet<number> = new Set([
  Oid.regclass,
  Oid.regtype,
  Oid.regproc,
  Oid.regprocedure,
  Oid.regnamespace,
  Oid.regrole,
  Oid.regoper,
  Oid.regoperator,
  Oid.regconfig,
  Oid.regdictionary,
  Oid.regcollation,
]);

export function renderRegText(typeOid: number, value: unknown, session: SessionView, catalog: CatalogView): string | null {
  if (!REG_TYPES.has(typeOid) || typeof value !== 'number') return null;
  return regOutput(typeOid, value, session, catalog);
}
