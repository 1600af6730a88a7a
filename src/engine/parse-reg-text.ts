/**
 * Text input of the OID alias types (regclass, regtype, regproc, regnamespace, regrole, ...) as parameter values:
 * PostgreSQL's regclassin & co. resolve names through the catalog and the search path (`'pg_class'` → 1259,
 * 42P01 for an unknown relation), which pgtypes' plain textIn cannot. wire/ calls it (HandlerSession.parseText)
 * for Bind parameters in text format whose type is one of these or an array of them.
 * @see https://www.postgresql.org/docs/current/datatype-oid.html
 */
import type { CatalogView } from '../catalog/catalog-view.ts';
import type { SessionView } from '../catalog/session-view.ts';
import { elementTypeOf } from '../common/pgtypes/registry.ts';
import { arrayIn } from '../common/pgtypes/array-text.ts';
import { regIn } from '../pgcatalog/index.ts';
import { snapshotFor } from '../pgcatalog/eval-snapshot.ts';
import { REG_TYPES } from './render-reg-text.ts';

/** the value of `text` as a `typeOid` parameter, or undefined when the type's input needs no catalog */
export function parseRegText(typeOid: number, text: string, session: SessionView, catalog: CatalogView): unknown {
  // a snapshot of this moment's catalog (a fresh source object: snapshotFor caches per object)
  if (REG_TYPES.has(typeOid)) return regIn(typeOid, text, snapshotFor({ session, catalog }));
  const elem = elementTypeOf(typeOid);
  if (elem === 0 || !REG_TYPES.has(elem)) return undefined;
  const snap = snapshotFor({ session, catalog });
  return arrayIn(text, elem, (s) => regIn(elem, s, snap));
}
