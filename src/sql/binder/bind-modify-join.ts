/**
 * UPDATE t [AS a] SET … FROM <items> WHERE … [RETURNING …] and DELETE FROM t [AS a] USING <items> WHERE …
 * [RETURNING …] → ModifyRows (logical/modify-rows.ts) over `target ⋈ items WHERE …`, the target read through
 * a RowIdTarget so each joined row names its target row. As in PostgreSQL (transformUpdateStmt /
 * transformDeleteStmt): the target comes first in the FROM namespace, a FROM item named like it is 42712,
 * RETURNING sees every FROM item (`*` = the target's columns, then theirs), and a target row joined to
 * several rows is changed once.
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { isWritable, type ColumnDef, type WritableTableSource } from '../../catalog/table-source.ts';
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import type { Expr } from '../logical/expr.ts';
import type { LogicalPlan } from '../logical/plan.ts';
import { RowIdTarget, type ModifyAction } from '../logical/modify-rows.ts';
import { coerceToBoolean, INT8 } from './coerce.ts';
import { bindExpr, locOf, resolveUnknownOutput, strVal, tagOf } from './bind-expr.ts';
import { bindFromList, checkNameConflicts, lookupRelation } from './bind-from.ts';
import { bindAssignments } from './bind-modify.ts';
import { figureColname } from './col-name.ts';
import { planWhere } from './plan-where.ts';
import { Scope, type RangeItem } from './scope.ts';
import type { Binder, ExprScope, OutColumn, QueryResult } from './binder.ts';

type Node = Record<string, unknown>;

function pos(p: number | undefined): { position?: number } {
  return p === undefined ? {} : { position: p };
}

/** the target of a row change: its relation, the placeholder its scan reads, and the scope item naming it */
export interface ModifyTarget {
  readonly rel: RelationInfo;
  readonly table: WritableTableSource;
  readonly target: RowIdTarget;
  readonly scan: LogicalPlan;
  /** the table's columns and (star-hidden) system columns, indexed from `start` */
  readonly item: RangeItem;
}

/** resolves the target RangeVar (`word`: the verb for 42809) and builds its placeholder scan at column `start` */
export function bindModifyTarget(b: Binder, rv: Node, word: string, start: number): ModifyTarget {
  const rel = lookupRelation(b, rv.schemaname as string | undefined, String(rv.relname), locOf(rv));
  const table = rel.source;
  if (!isWritable(table)) throw pgError(SqlState.wrong_object_type, `cannot ${word} relation "${rel.name}"`, pos(locOf(rv)));
  const tcols = table.columns;
  // every system column the row delta adds (Iceberg v3 row lineage), named or not: readable, never in `*`
  const withSys = table.withSystemColumns?.(() => true) ?? table;
  const system: ColumnDef[] = withSys.columns.slice(tcols.length).filter((c) => c.system === true);
  const target = new RowIdTarget(table, system);
  const aliasName = (rv.alias as Node | undefined)?.aliasname as string | undefined;
  const cols = [...tcols, ...system];
  const item: RangeItem = {
    alias: aliasName ?? rel.name, schema: rel.schema, relationOid: rel.oid,
    ...(aliasName === undefined ? { unaliasedRelation: rel.oid } : {}),
    columns: cols.map((c, i) => ({ name: c.name, type: c.type, index: start + i, tableOid: rel.oid, attnum: c.system ? 0 : i + 1, ...(c.system ? { starHidden: true } : {}) })),
  };
  const scan: LogicalPlan = { kind: 'TableScan', source: target, name: `${rel.schema}.${rel.name}`, tableOid: rel.oid, columns: target.columns.map((c) => ({ name: c.name, type: c.type })) };
  return { rel, table, target, scan, item };
}

export function bindModifyJoin(b: Binder, n: Node, op: 'update' | 'delete'): QueryResult {
  const t = bindModifyTarget(b, n.relation as Node, op, 0);
  const tcols = t.table.columns;
  const width = t.target.columns.length;
  // the FROM items cannot see the target (PostgreSQL adds it to the namespace only for WHERE / SET / RETURNING)
  const fromScope = new Scope(null);
  const from = ((op === 'update' ? n.fromClause : n.usingClause) as unknown[]);
  const fromPlan = bindFromList(b, from, fromScope);
  checkNameConflicts([t.item], fromScope.items);
  const scope = new Scope(null);
  scope.add(t.item);
  for (const it of fromScope.items) scope.add({ ...it, columns: it.columns.map((c) => ({ ...c, index: c.index + width })) });
  let plan: LogicalPlan = { kind: 'Join', joinType: 'inner', left: t.scan, right: fromPlan, condition: null, lateral: false, columns: [...t.scan.columns, ...fromPlan.columns] };
  const es: ExprScope = { scope, clause: 'WHERE', allowAgg: false, allowWindow: false, allowSrf: false };
  if (n.whereClause !== undefined) {
    plan = planWhere(plan, coerceToBoolean(b.env, bindExpr(b, n.whereClause, es), 'WHERE', locOf(tagOf(n.whereClause)[1])));
  }
  const ref = (j: number): Expr => ({ kind: 'ColumnRef', index: j, levelsUp: 0, type: tcols[j]!.type, name: `${t.item.alias}.${tcols[j]!.name}` });
  let action: ModifyAction = { matched: true, condition: null, kind: 'delete', values: null };
  if (op === 'update') {
    const assigned = bindAssignments(b, n.targetList as Node[], tcols, [...tcols, ...t.target.system], t.rel.name, { ...es, clause: 'UPDATE' });
    action = { matched: true, condition: null, kind: 'update', values: tcols.map((_c, j) => assigned.get(j) ?? ref(j)) };
  }
  const ret = bindReturning(b, n.returningList as Node[] | undefined, scope);
  const k = t.target.system.length;
  return {
    plan: {
      kind: 'ModifyRows', command: op, table: t.table, name: `${t.rel.schema}.${t.rel.name}`, tableOid: t.rel.oid, target: t.target, input: plan,
      rowId: { start: 0, system: tcols.length, file: tcols.length + k, pos: tcols.length + k + 1 },
      actions: [action], repeat: 'skip', returning: ret.returning, columns: ret.columns.map((c) => ({ name: c.name, type: c.type })),
    },
    columns: ret.columns,
    correlated: false,
  };
}

/** RETURNING over every FROM item of `scope` (`*`, `x.*`, expressions); without it the one int8 column `count` */
export function bindReturning(b: Binder, list: readonly Node[] | undefined, scope: Scope): { returning: Expr[] | null; columns: OutColumn[] } {
  if (list === undefined) return { returning: null, columns: [{ name: 'count', type: INT8, tableOid: 0, attnum: 0 }] };
  const returning: Expr[] = [];
  const columns: OutColumn[] = [];
  const es: ExprScope = { scope, clause: 'RETURNING', allowAgg: false, allowWindow: false, allowSrf: false };
  for (const r of list) {
    const rt = r.ResTarget as Node;
    const [tag, node] = tagOf(rt.val);
    const fields = tag === 'ColumnRef' ? (node.fields as Node[]) : [];
    if (fields.length > 0 && fields[fields.length - 1]!.A_Star !== undefined) {
      let cols = scope.starColumns();
      if (fields.length > 1) {
        const name = strVal(fields[fields.length - 2]);
        const item = scope.findItem(name);
        if (item === undefined) throw pgError(SqlState.undefined_table, `missing FROM-clause entry for table "${name}"`, pos(locOf(node)));
        cols = item.columns.filter((c) => !c.starHidden && !c.usingHidden);
      }
      for (const c of cols) {
        returning.push({ kind: 'ColumnRef', index: c.index, levelsUp: 0, type: c.type, name: c.name });
        columns.push({ name: c.name, type: c.type, tableOid: c.tableOid, attnum: c.attnum });
      }
      continue;
    }
    const e = resolveUnknownOutput(b, bindExpr(b, rt.val, es));
    returning.push(e);
    const direct = e.kind === 'ColumnRef' && e.levelsUp === 0 ? scope.items.flatMap((it) => it.columns).find((c) => c.index === e.index) : undefined;
    columns.push({ name: (rt.name as string | undefined) ?? figureColname(rt.val), type: e.type, tableOid: direct?.tableOid ?? 0, attnum: direct?.attnum ?? 0 });
  }
  return { returning, columns };
}
