/**
 * ALTER TABLE … RENAME COLUMN under views. PostgreSQL's views follow the column (they hold its number:
 * `SELECT r.id FROM r` shows as `SELECT r.id2 AS id FROM r` afterwards); lakegate's keep their query as SQL,
 * so each view that reads the column directly gets its query rewritten: references to the column through
 * the table's FROM items (qualified by its name or alias, or unqualified) take the new name, and a select
 * item that was just the column keeps its old output name (`AS id`), so the view's columns and anything
 * built on them do not change.
 *
 * The rewrite is proved before anything changes: the new query, bound against the catalog as it will be,
 * must give the same plan as the old query against the catalog as it is (names aside). A view it cannot
 * prove (the column named in USING, a subquery's `*` read by name outside it, another table's column of
 * the same name referenced unqualified, …) stops the rename with 2BP01, as before.
 */
import type { CatalogView, RelationInfo } from '../../catalog/catalog-view.ts';
import { bindQuery } from '../../sql/index.ts';
import type { EngineSession } from '../engine-session.ts';
import { ViewSource } from '../view-source.ts';
import { dependentObjectsError, viewDependencies, withRelationColumns, type ViewDependency } from './view-dependencies.ts';
import { relationFromItems, replaceViewQueries, type ViewRewrite } from './view-rename.ts';

interface StringNode { String?: { sval?: string } }
interface ColumnRefNode { fields?: StringNode[] }
interface ResTargetNode { name?: string; val?: { ColumnRef?: ColumnRefNode } }

/** the catalog as the binder will see it once `from` of `target` is called `to` */
function withRenamedColumn(catalog: CatalogView, target: RelationInfo, from: string, to: string): CatalogView {
  return withRelationColumns(catalog, target, target.source.columns.map((c) => (c.name === from ? { ...c, name: to } : c)));
}

/** keys that carry names, SQL positions or runtime objects: what a rename may change without changing the plan */
const NAME_KEYS: ReadonlySet<string> = new Set(['name', 'location', 'alias', 'source', 'fn', 'def']);

/** the plan and output types of a view query as one comparable string (undefined when it does not bind) */
function planShape(session: EngineSession, query: unknown, searchPath: readonly string[], catalog: CatalogView): string | undefined {
  try {
    const bound = bindQuery(query, { catalog, searchPath, functions: session.server.functions, paramTypes: [], tempSchema: session.catalog.tempSchemaName });
    return JSON.stringify([bound.plan, bound.columns.map((c) => c.type)], (key, value: unknown) => {
      if (NAME_KEYS.has(key)) return undefined;
      return typeof value === 'bigint' ? `${value}n` : value;
    });
  } catch {
    return undefined;
  }
}

function columnName(node: StringNode | undefined): string | undefined {
  return node?.String?.sval;
}

/** renames the column references of `query` that may mean `from` of the table known as one of `names`; true if any */
function renameReferences(node: unknown, names: ReadonlySet<string>, from: string, to: string): boolean {
  if (node === null || typeof node !== 'object') return false;
  if (Array.isArray(node)) return node.map((n) => renameReferences(n, names, from, to)).some(Boolean);
  let changed = false;
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === 'ResTarget') {
      const target = value as ResTargetNode;
      const ref = target.val?.ColumnRef;
      if (ref !== undefined && target.name === undefined && renameColumnRef(ref, names, from, to)) {
        target.name = from; // the select item keeps its output name
        changed = true;
        continue;
      }
    }
    if (key === 'ColumnRef' && renameColumnRef(value as ColumnRefNode, names, from, to)) changed = true;
    else if (renameReferences(value, names, from, to)) changed = true;
  }
  return changed;
}

function renameColumnRef(ref: ColumnRefNode, names: ReadonlySet<string>, from: string, to: string): boolean {
  const fields = ref.fields ?? [];
  const last = fields[fields.length - 1];
  if (columnName(last) !== from) return false;
  if (fields.length >= 2 && !names.has(columnName(fields[fields.length - 2]) ?? '')) return false;
  last!.String!.sval = to;
  return true;
}

/**
 * Plans the rewrite of the views that read column `from` of `rel` for its new name `to`; the returned
 * function (run after the rename) replaces them. 2BP01 when a view's rewrite cannot be proved.
 */
export function planViewColumnRenames(session: EngineSession, rel: RelationInfo, from: string, to: string, what: string): () => Promise<void> {
  const deps = viewDependencies(session, [rel], from);
  const rewrites: ViewRewrite[] = [];
  const refused: ViewDependency[] = [];
  const after = withRenamedColumn(session.catalog, rel, from, to);
  for (const dep of deps) {
    const { view, on } = dep;
    if (on.oid !== rel.oid) continue; // views over those views see unchanged column names
    if (!(view.source instanceof ViewSource)) {
      refused.push(dep);
      continue;
    }
    const { searchPath } = view.source;
    const query = structuredClone(view.source.query);
    const items = relationFromItems(session, query, rel, searchPath);
    // an alias column list (`r AS x(a, b)`) renames the table's columns itself: references never say `from`
    const names = new Set(items.map((rv) => rv.alias?.aliasname ?? rv.relname ?? ''));
    renameReferences(query, names, from, to);
    const before = planShape(session, view.source.query, searchPath, session.catalog);
    const proved = before !== undefined && planShape(session, query, searchPath, after) === before;
    if (proved) rewrites.push({ view, query });
    else refused.push(dep);
  }
  if (refused.length > 0) {
    throw dependentObjectsError(session, what, refused, 'lakegate could not rewrite these views for the new column name: drop them, rename the column, then create them again.');
  }
  return replaceViewQueries(session, rewrites);
}
