/**
 * Text output of the OID alias types (regclass, regtype, regproc, regnamespace, regrole, ...), which
 * PostgreSQL prints as names looked up in the catalog: `'pg_class'::regclass` prints pg_class.
 */
import type { CatalogView } from '../catalog/catalog-view.ts';
import type { SessionView } from '../catalog/session-view.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { isPgArray } from '../common/pgtypes/values.ts';
import { elementTypeOf } from '../common/pgtypes/registry.ts';
import { arrayOut } from '../common/pgtypes/array-text.ts';
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
  if (isPgArray(value)) {
    const elem = elementTypeOf(typeOid);
    if (!REG_TYPES.has(elem)) return null;
    return arrayOut(value, (v) => (typeof v === 'number' ? regOutput(elem, v, session, catalog) : null) ?? String(v));
  }
  if (!REG_TYPES.has(typeOid) || typeof value !== 'number') return null;
  return regOutput(typeOid, value, session, catalog);
}
