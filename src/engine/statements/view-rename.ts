/**
 * RENAME TO / SET SCHEMA of a table or view that views read. PostgreSQL's views follow the renamed relation
 * (they hold its OID); lakegate's keep their query as SQL, so each dependent view's SQL is rewritten: every
 * FROM item that resolved to the relation (by the view's own search_path) is renamed, keeping the old name
 * as its alias so qualified column references (`t.id`) still bind, and the view is replaced (memory and
 * temp views in place, Iceberg views with a new version). The rewrite is planned before the rename (names
 * resolve against the catalog as it was) and applied after it.
 */
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import type { EngineSession } from '../engine-session.ts';
import { ViewSource } from '../view-source.ts';
import { deparseSync } from './deparse.ts';
import { viewDependencies } from './view-dependencies.ts';

export interface RangeVarNode { schemaname?: string; relname?: string; alias?: { aliasname?: string; colnames?: unknown[] } }

/** CTE names of a query (an unqualified FROM item with such a name is the CTE, not a relation) */
function cteNames(node: unknown, into: Set<string>): Set<string> {
  if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key === 'CommonTableExpr' && typeof (value as { ctename?: unknown }).ctename === 'string') into.add((value as { ctename: string }).ctename);
      cteNames(value, into);
    }
  }
  return into;
}

function rangeVars(node: unknown, into: RangeVarNode[]): RangeVarNode[] {
  if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key === 'RangeVar' && value !== null && typeof value === 'object') into.push(value as RangeVarNode);
      else rangeVars(value, into);
    }
  }
  return into;
}

/** the relation a FROM item names, resolved as the view's binder would (explicit schema, else its search_path) */
function resolve(session: EngineSession, rv: RangeVarNode, searchPath: readonly string[]): RelationInfo | undefined {
  if (rv.relname === undefined) return undefined;
  if (rv.schemaname !== undefined) return session.catalog.findRelation(rv.schemaname, rv.relname);
  for (const schema of searchPath) {
    const found = session.catalog.findRelation(schema, rv.relname);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** the FROM items of a view's query that name `rel` (CTE names excluded), resolved by the view's search_path */
export function relationFromItems(session: EngineSession, query: unknown, rel: RelationInfo, searchPath: readonly string[]): RangeVarNode[] {
  const ctes = cteNames(query, new Set());
  return rangeVars(query, []).filter((rv) => !(rv.schemaname === undefined && rv.relname !== undefined && ctes.has(rv.relname))
    && resolve(session, rv, searchPath)?.oid === rel.oid);
}

/** a view and its rewritten query, to be stored once the statement that required the rewrite is done */
export interface ViewRewrite { readonly view: RelationInfo; readonly query: unknown }

/** replaces each view's query (memory and temp views in place, Iceberg views with a new version) */
export function replaceViewQueries(session: EngineSession, rewrites: readonly ViewRewrite[]): () => Promise<void> {
  const plans = rewrites.map(({ view, query }) => {
    const old = view.source as ViewSource;
    return { view, sql: deparseSync(query), source: new ViewSource(old.columns, query, old.searchPath, session.server.functions) };
  });
  return async () => {
    for (const { view, source, sql } of plans) {
      const iceberg = session.iceberg;
      if (view.persistence !== 't' && iceberg?.isIcebergView(view) === true) {
        await iceberg.createView(view.schema, view.name, {
          sql, columns: view.source.columns, namespace: [view.schema], searchPath: source.searchPath, ...(view.comment === undefined ? {} : { comment: view.comment }),
        }, true);
        continue;
      }
      const replaced: RelationInfo = { ...view, source, viewDefinition: ` ${sql};` };
      if (view.persistence === 't') session.catalog.addTempRelation(replaced);
      else session.catalog.db.replaceRelation(replaced);
    }
  };
}

/**
 * Plans the rewrite of the views reading `rel` for its move to `toSchema`.`toName`; the returned function
 * (run after the rename) replaces them.
 */
export function planViewRenames(session: EngineSession, rel: RelationInfo, toSchema: string, toName: string): () => Promise<void> {
  const rewrites: ViewRewrite[] = [];
  for (const { view, on } of viewDependencies(session, [rel])) {
    if (on.oid !== rel.oid || !(view.source instanceof ViewSource)) continue;
    const query = structuredClone(view.source.query);
    for (const rv of relationFromItems(session, query, rel, view.source.searchPath)) {
      rv.alias ??= { aliasname: rv.relname! };
      rv.relname = toName;
      if (rv.schemaname !== undefined || toSchema !== rel.schema) rv.schemaname = toSchema;
    }
    rewrites.push({ view, query });
  }
  return replaceViewQueries(session, rewrites);
}
