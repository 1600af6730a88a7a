/**
 * pgcatalog: PostgreSQL 15's pg_catalog and information_schema computed from the CatalogView/SessionView,
 * the catalog functions clients call (version(), format_type, pg_get_*, has_*_privilege, ...), and the
 * reg* name ⇄ OID conversions. Public surface of the module.
 */
import type { CatalogView } from '../catalog/catalog-view.ts';
import type { SessionView } from '../catalog/session-view.ts';
import type { CastDef, RoutineDef } from '../functions/registry-types.ts';
import { setFunctionCatalog, type FunctionCatalog } from './function-catalog.ts';
import { fallbackFunctions, pgcatalogFunctions } from './functions.ts';
import { pgcatalogCasts } from './casts.ts';
import type { SnapshotSource } from './catalog-snapshot.ts';
import { renderRegValue } from './render-reg-value.ts';
import { setRegTextOutput } from '../functions/index.ts';

export { createSystemRelations, systemSchemas, defaultSystemCatalog, type SystemCatalogOptions } from './system-catalog.ts';
export { pgcatalogFunctions, fallbackFunctions, allPgcatalogFunctions } from './functions.ts';
export { pgcatalogCasts } from './casts.ts';
export { renderRegValue, isRegType } from './render-reg-value.ts';
export { regIn, regOut, parseQualifiedName } from './reg-names.ts';
export { CatalogSnapshot, quoteIdent } from './catalog-snapshot.ts';
export { SystemTable } from './system-table.ts';
export type { FunctionCatalog } from './function-catalog.ts';
export { NamespaceOid, ClassOid } from './well-known-oids.ts';

/** What registerPgCatalog needs of the function registry (F1's FunctionRegistry has these). */
export interface PgCatalogRegistry extends FunctionCatalog {
  registerRoutines(defs: readonly RoutineDef[]): void;
  registerCasts(defs: readonly CastDef[]): void;
}

/**
 * Registers pgcatalog's routines and casts in `registry` (fallbacks such as quote_ident only when the
 * registry has no routine of that name) and makes the registry the source of pg_proc & co.
 */
export function registerPgCatalog(registry: PgCatalogRegistry): void {
  const present = registry.allRoutines();
  const names = new Set(present.map((r) => r.name));
  const signatures = new Set(present.map((r) => `${r.name}(${r.args.join(',')})`));
  // idempotent, and the library's own definition wins when both define a signature
  registry.registerRoutines(pgcatalogFunctions.filter((f) => !signatures.has(`${f.name}(${f.args.join(',')})`)));
  registry.registerRoutines(fallbackFunctions.filter((f) => !names.has(f.name)));
  registry.registerCasts(pgcatalogCasts);
  setFunctionCatalog(registry);
  // the statement's EvalContext itself: snapshotFor keeps one CatalogSnapshot per context, not one per value
  setRegTextOutput((typeOid, value, ctx) => renderRegValue(typeOid, value, ctx));
}

/** Text output of a reg* value as PostgreSQL prints it (engine/render-reg-text.ts calls this). */
export function regOutput(typeOid: number, value: number, session: SessionView, catalog: CatalogView): string | null {
  if (rendering === undefined || rendering.session !== session || rendering.catalog !== catalog) {
    rendering = { session, catalog };
    queueMicrotask(endRendering);
  }
  return renderRegValue(typeOid, value, rendering);
}

/**
 * The wire renders a result's reg* values one by one with the session's (long-lived) view and catalog: the values of
 * one synchronous run (a batch) share one source, hence one CatalogSnapshot (snapshotFor keys on it), instead of a
 * snapshot per value; the next microtask drops it, so a later statement sees the catalog as it is then.
 */
let rendering: SnapshotSource | undefined;
const endRendering = (): void => {
  rendering = undefined;
};
