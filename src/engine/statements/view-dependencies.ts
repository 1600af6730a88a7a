/**
 * View dependencies as PostgreSQL reports them (pg_depend's view → relation / column edges), found without
 * storing anything: a view's SQL is bound again and the relations its plan scans are what it depends on
 * (directly; the views reading those views follow, depth first, as PostgreSQL's DETAIL lists them).
 * A column dependency is probed by binding the view with that column hidden: the view depends on it when
 * the binding fails or its columns change (`SELECT *`).
 *
 * DROP TABLE / DROP VIEW / DROP SCHEMA / ALTER TABLE DROP COLUMN use it for 2BP01 ("cannot drop table t
 * because other objects depend on it") and for CASCADE; ALTER COLUMN TYPE for 0A000; RENAME TO / SET SCHEMA
 * and RENAME COLUMN to rewrite the views that follow (view-rename.ts, view-column-rename.ts: lakegate's views
 * keep their SQL as text where PostgreSQL's follow a renamed relation or column by number).
 * @see https://www.postgresql.org/docs/current/ddl-depend.html
 */
import { pgError, type GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { CatalogView, RelationInfo } from '../../catalog/catalog-view.ts';
import { bindQuery, type BoundQuery } from '../../sql/index.ts';
import type { EngineSession } from '../engine-session.ts';
import { ViewSource } from '../view-source.ts';

/** `view` depends on `on` (on its column `column` when set) */
export interface ViewDependency {
  readonly view: RelationInfo;
  readonly on: RelationInfo;
  readonly column?: string;
}

const SKIPPED: ReadonlySet<string> = new Set(['def', 'fn', 'source']);

/** oids of the relations a bound plan scans (subqueries and CTEs included) */
function scannedOids(node: unknown, into: Set<number>, depth = 0): void {
  if (depth > 500 || node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) scannedOids(n, into, depth + 1);
    return;
  }
  const o = node as Record<string, unknown>;
  if (o.kind === 'TableScan' && typeof o.tableOid === 'number') into.add(o.tableOid);
  for (const key in o) if (!SKIPPED.has(key)) scannedOids(o[key], into, depth + 1);
}

/** does a bound plan read a temporary relation (CREATE VIEW over one makes a temporary view)? */
export function readsTemporary(session: EngineSession, plan: unknown): boolean {
  const oids = new Set<number>();
  scannedOids(plan, oids);
  for (const oid of oids) if (session.catalog.relationByOid(oid)?.persistence === 't') return true;
  return false;
}

function bindView(session: EngineSession, source: ViewSource, catalog: CatalogView = session.catalog): BoundQuery {
  return bindQuery(source.query, {
    catalog, searchPath: source.searchPath, functions: session.server.functions, paramTypes: [], tempSchema: session.catalog.tempSchemaName,
  });
}

/** the catalog as the binder sees it with `target` showing `columns` (methods of the source see them too) */
export function withRelationColumns(catalog: CatalogView, target: RelationInfo, columns: RelationInfo['source']['columns']): CatalogView {
  const source = new Proxy(target.source, { get: (t, p, r) => (p === 'columns' ? columns : Reflect.get(t, p, r)) });
  const changed: RelationInfo = { ...target, source };
  return new Proxy(catalog, {
    get: (t, p) => {
      const v = Reflect.get(t, p, t) as unknown;
      if (p === 'findRelation') return (schema: string, name: string) => { const r = catalog.findRelation(schema, name); return r?.oid === target.oid ? changed : r; };
      if (p === 'relationByOid') return (oid: number) => (oid === target.oid ? changed : catalog.relationByOid(oid));
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
}

/** the catalog as the binder sees it, with one column of `target` hidden */
function withoutColumn(catalog: CatalogView, target: RelationInfo, column: string): CatalogView {
  return withRelationColumns(catalog, target, target.source.columns.filter((c) => c.name !== column));
}

/** does the view read `column` of `target`? (it reads `target`) */
function readsColumn(session: EngineSession, source: ViewSource, target: RelationInfo, column: string): boolean {
  try {
    const probe = bindView(session, source, withoutColumn(session.catalog, target, column));
    return probe.columns.length !== source.columns.length;
  } catch {
    return true;
  }
}

/** relation names (RangeVar relname) in a view's parsed SELECT: a view can only read relations it names */
const namesCache = new WeakMap<ViewSource, ReadonlySet<string>>();
function namedRelations(source: ViewSource): ReadonlySet<string> {
  let names = namesCache.get(source);
  if (names === undefined) {
    const found = new Set<string>();
    const walk = (node: unknown): void => {
      if (node === null || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach(walk);
      for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
        if (key === 'RangeVar' && typeof (value as { relname?: unknown }).relname === 'string') found.add((value as { relname: string }).relname);
        walk(value);
      }
    };
    walk(source.query);
    names = found;
    namesCache.set(source, names);
  }
  return names;
}

/** views that read `target` directly (a view that no longer binds reads nothing), oldest first as PostgreSQL lists them */
function directDependents(session: EngineSession, target: RelationInfo, column?: string): RelationInfo[] {
  const out: RelationInfo[] = [];
  for (const rel of session.catalog.relations()) {
    if (rel.kind !== 'v' || rel.oid === target.oid || !(rel.source instanceof ViewSource) || !namedRelations(rel.source).has(target.name)) continue;
    const oids = new Set<number>();
    try {
      scannedOids(bindView(session, rel.source).plan, oids);
    } catch {
      continue;
    }
    if (!oids.has(target.oid)) continue;
    if (column !== undefined && !readsColumn(session, rel.source, target, column)) continue;
    out.push(rel);
  }
  // OIDs of memory and temp views grow with creation; Iceberg views' derive from their uuid (order arbitrary but stable)
  return out.sort((a, b) => a.oid - b.oid);
}

/**
 * Everything that depends on the `targets` of one statement (or on `column` of the one target), depth
 * first: each view once, right after the relation it depends on; the targets themselves are not reported.
 */
export function viewDependencies(session: EngineSession, targets: readonly RelationInfo[], column?: string): ViewDependency[] {
  const out: ViewDependency[] = [];
  const seen = new Set<number>(targets.map((t) => t.oid));
  const visit = (on: RelationInfo, col?: string): void => {
    for (const view of directDependents(session, on, col)) {
      if (seen.has(view.oid)) continue;
      seen.add(view.oid);
      out.push({ view, on, ...(col === undefined ? {} : { column: col }) });
      visit(view);
    }
  };
  for (const target of targets) visit(target, column);
  return out;
}

/** a relation named as PostgreSQL's getObjectDescription does: qualified unless visible on search_path */
export function describeRelation(session: EngineSession, rel: RelationInfo): string {
  const word = rel.kind === 'v' ? 'view' : 'table';
  if (rel.persistence === 't') return `${word} ${rel.name}`;
  for (const schema of session.effectiveSearchPath()) {
    const found = session.catalog.findRelation(schema, rel.name);
    if (found !== undefined) return found.oid === rel.oid ? `${word} ${rel.name}` : `${word} ${rel.schema}.${rel.name}`;
  }
  return `${word} ${rel.schema}.${rel.name}`;
}

function dependencyLines(session: EngineSession, deps: readonly ViewDependency[]): string {
  return deps.map((d) => {
    const on = describeRelation(session, d.on);
    return `${describeRelation(session, d.view)} depends on ${d.column === undefined ? on : `column ${d.column} of ${on}`}`;
  }).join('\n');
}

/**
 * What a statement drops, as PostgreSQL's reportDependentObjects names it: `drop table t`, `drop column a of
 * table t`, or for several objects `drop desired object(s)` (then the message says "depend on them").
 */
export function dropSubject(session: EngineSession, targets: readonly RelationInfo[], column?: string): string {
  if (targets.length !== 1) return 'drop desired object(s)';
  const rel = describeRelation(session, targets[0]!);
  return column === undefined ? `drop ${rel}` : `drop column ${column} of ${rel}`;
}

/**
 * DROP SCHEMA of an Iceberg namespace: its objects (`table s.t`, `view s.v`, sorted) each followed by the
 * views outside the schema that read it (depth first), as PostgreSQL's DETAIL lists them; `outside` are the
 * views CASCADE must drop too.
 */
export function schemaDependents(session: EngineSession, schema: string, objects: readonly string[]): { lines: string[]; outside: ViewDependency[] } {
  const lines: string[] = [];
  const outside: ViewDependency[] = [];
  const seen = new Set<number>();
  for (const object of objects) {
    lines.push(`${object} depends on schema ${schema}`);
    const rel = session.catalog.findRelation(schema, object.slice(object.indexOf('.') + 1));
    if (rel === undefined) continue;
    for (const d of viewDependencies(session, [rel])) {
      if (d.view.schema === schema || seen.has(d.view.oid)) continue;
      seen.add(d.view.oid);
      outside.push(d);
      lines.push(dependencyLines(session, [d]));
    }
  }
  return { lines, outside };
}

/** 2BP01 for `what` ("drop table t", "drop column a of table t", "rename table t") */
export function dependentObjectsError(session: EngineSession, what: string, deps: readonly ViewDependency[], hint = 'Use DROP ... CASCADE to drop the dependent objects too.'): GatewayError {
  const them = what === 'drop desired object(s)' ? 'them' : 'it';
  return pgError(SqlState.dependent_objects_still_exist, `cannot ${what} because other objects depend on ${them}`, { detail: dependencyLines(session, deps), hint });
}

/**
 * RESTRICT: 2BP01 when anything depends on it; CASCADE: the NOTICE PostgreSQL sends ("drop cascades to
 * view v", or "drop cascades to N other objects" with one DETAIL line each), then the dependent views go,
 * the last found first.
 */
export async function dropDependents(session: EngineSession, what: string, deps: readonly ViewDependency[], cascade: boolean): Promise<void> {
  if (deps.length === 0) return;
  if (!cascade) throw dependentObjectsError(session, what, deps);
  const lines = deps.map((d) => `drop cascades to ${describeRelation(session, d.view)}`);
  session.onNotice?.(deps.length === 1
    ? pgError(SqlState.successful_completion, lines[0]!, { severity: 'NOTICE' })
    : pgError(SqlState.successful_completion, `drop cascades to ${deps.length} other objects`, { severity: 'NOTICE', detail: lines.join('\n') }));
  for (const { view } of [...deps].reverse()) await dropView(session, view);
}

/** removes one view wherever it lives: the session's temp schema, the Iceberg catalog, or server memory */
export async function dropView(session: EngineSession, view: RelationInfo): Promise<void> {
  if (view.persistence === 't') session.catalog.removeTempRelation(view.name);
  else if (session.iceberg?.isIcebergView(view) === true) await session.iceberg.dropView(view.schema, view.name);
  else session.catalog.db.removeRelation(view.schema, view.name);
}
