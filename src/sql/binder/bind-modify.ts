/**
 * UPDATE t SET … [WHERE …] [RETURNING …] and DELETE FROM t [WHERE …] [RETURNING …] → Overwrite plan
 * (see logical/overwrite.ts); with FROM / USING → bind-modify-join.ts. WHERE CURRENT OF is 0A000.
 */
import { formatType } from '../../common/pgtypes/format-type.ts';
import { notSupported, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { isWritable, type ColumnDef } from '../../catalog/table-source.ts';
import type { Expr } from '../logical/expr.ts';
import type { LogicalPlan } from '../logical/plan.ts';
import { BOOL, coerceToBoolean, tryCoerce, INT8 } from './coerce.ts';
import { bindExpr, locOf, resolveUnknownOutput, tagOf } from './bind-expr.ts';
import { lookupRelation } from './bind-from.ts';
import { defaultFor } from './bind-insert.ts';
import { bindWith } from './bind-cte.ts';
import { figureColname } from './col-name.ts';
import { Scope } from './scope.ts';
import type { Binder, ExprScope, OutColumn, QueryResult } from './binder.ts';
import { bindModifyJoin } from './bind-modify-join.ts';

type Node = Record<string, unknown>;

function pos(p: number | undefined): { position?: number } {
  return p === undefined ? {} : { position: p };
}

export function bindModify(b: Binder, n: Node, op: 'update' | 'delete'): QueryResult {
  if (n.withClause !== undefined) b.ctes.push(bindWith(b, n.withClause as Node, null));
  if ((n.fromClause as unknown[] | undefined)?.length || (n.usingClause as unknown[] | undefined)?.length) return bindModifyJoin(b, n, op);
  const rv = n.relation as Node;
  const rel = lookupRelation(b, rv.schemaname as string | undefined, String(rv.relname), locOf(rv));
  const table = rel.source;
  if (!isWritable(table)) throw pgError(SqlState.wrong_object_type, `cannot ${op} relation "${rel.name}"`, pos(locOf(rv)));
  const tcols = table.columns;
  // system columns (Iceberg v3 _row_id, …) after the table's own, when the statement names one: readable in
  // WHERE, SET expressions and RETURNING, never in `*`, never assignable (the row-level writer's scan adds them)
  const source = table.withSystemColumns?.((name) => b.mentions(name)) ?? table;
  const scols = source.columns.length > tcols.length && source.columns.slice(tcols.length).every((c) => c.system) ? source.columns : tcols;
  const alias = ((rv.alias as Node | undefined)?.aliasname as string | undefined) ?? rel.name;
  const scope = new Scope(null);
  const item = { alias, schema: rel.schema, columns: scols.map((c, i) => ({ name: c.name, type: c.type, index: i, tableOid: rel.oid, attnum: c.system ? 0 : i + 1, ...(c.system ? { starHidden: true } : {}) })) };
  scope.add(item);
  const es = { scope, clause: 'WHERE', allowAgg: false, allowWindow: false, allowSrf: false };
  const refs: Expr[] = tcols.map((c, i) => ({ kind: 'ColumnRef', index: i, levelsUp: 0, type: c.type, name: `${alias}.${c.name}` }));
  let flag: Expr = { kind: 'Literal', value: true, type: BOOL };
  if (n.whereClause !== undefined) {
    if (tagOf(n.whereClause)[0] === 'CurrentOfExpr') throw notSupported('WHERE CURRENT OF');
    const pred = coerceToBoolean(b.env, bindExpr(b, n.whereClause, es), 'WHERE', locOf(tagOf(n.whereClause)[1]));
    flag = { kind: 'BooleanTest', arg: pred, test: 'true', type: BOOL };
  }
  const exprs: Expr[] = [...refs, flag];
  if (op === 'update') {
    const assigned = bindAssignments(b, n.targetList as Node[], tcols, scols, rel.name, { ...es, clause: 'UPDATE' });
    // new values only for affected rows (lazy CASE: SET expressions never run on rows the WHERE rejects)
    for (let j = 0; j < tcols.length; j++) {
      const v = assigned.get(j) ?? refs[j]!;
      exprs.push({ kind: 'Case', whens: [{ cond: flag, result: v }], elseExpr: { kind: 'Literal', value: null, type: tcols[j]!.type }, type: tcols[j]!.type });
    }
  }
  const scan: LogicalPlan = { kind: 'TableScan', source: scols === tcols ? table : source, name: `${rel.schema}.${rel.name}`, tableOid: rel.oid, columns: scols.map((c) => ({ name: c.name, type: c.type })) };
  const input: LogicalPlan = {
    kind: 'Projection', input: scan, exprs,
    columns: exprs.map((e, i) => ({ name: i < tcols.length ? tcols[i]!.name : i === tcols.length ? 'affected' : tcols[i - tcols.length - 1]!.name, type: e.type })),
  };
  let returning: Expr[] | null = null;
  let columns: OutColumn[] = [{ name: 'count', type: INT8, tableOid: 0, attnum: 0 }];
  const retList = n.returningList as Node[] | undefined;
  if (retList !== undefined) {
    returning = [];
    columns = [];
    for (const r of retList) {
      const rt = r.ResTarget as Node;
      const [tag, node] = tagOf(rt.val);
      if (tag === 'ColumnRef' && (node.fields as Node[]).some((f) => f.A_Star !== undefined)) {
        tcols.forEach((c, i) => { returning!.push(refs[i]!); columns.push({ name: c.name, type: c.type, tableOid: rel.oid, attnum: i + 1 }); });
        continue;
      }
      const e = resolveUnknownOutput(b, bindExpr(b, rt.val, { ...es, clause: 'RETURNING' }));
      returning.push(e);
      const direct = e.kind === 'ColumnRef' && e.levelsUp === 0 && e.index < tcols.length;
      columns.push({ name: (rt.name as string | undefined) ?? figureColname(rt.val), type: e.type, tableOid: direct ? rel.oid : 0, attnum: direct ? e.index + 1 : 0 });
    }
  }
  const plan: LogicalPlan = {
    kind: 'Overwrite', op, table, name: `${rel.schema}.${rel.name}`, tableOid: rel.oid, input, returning,
    columns: columns.map((c) => ({ name: c.name, type: c.type })),
  };
  return { plan, columns, correlated: false };
}

/**
 * UPDATE's SET list (also MERGE's and ON CONFLICT's): table column index → the new value, assignment-cast to
 * the column's type; `DEFAULT` is the column's default. `scols`: the table's columns and any system columns.
 */
export function bindAssignments(b: Binder, targetList: readonly Node[], tcols: readonly ColumnDef[], scols: readonly ColumnDef[], relName: string, es: ExprScope): Map<number, Expr> {
  const assigned = new Map<number, Expr>();
  for (const t of targetList) {
    const rt = t.ResTarget as Node;
    const name = String(rt.name);
    if (rt.indirection !== undefined) throw notSupported('UPDATE of subfields or array elements');
    const j = tcols.findIndex((c) => c.name === name);
    if (j < 0 && scols.some((c) => c.system && c.name === name)) throw pgError(SqlState.feature_not_supported, `cannot assign to system column "${name}"`, pos(locOf(rt)));
    if (j < 0) throw pgError(SqlState.undefined_column, `column "${name}" of relation "${relName}" does not exist`, pos(locOf(rt)));
    if (assigned.has(j)) throw pgError(SqlState.duplicate_column, `multiple assignments to same column "${name}"`, pos(locOf(rt)));
    const [tag] = tagOf(rt.val);
    if (tag === 'MultiAssignRef') throw notSupported('UPDATE SET (a, b) = (…)');
    const col = tcols[j]!;
    const e = tag === 'SetToDefault' ? defaultFor(b, col) : bindExpr(b, rt.val, es);
    const c = tryCoerce(b.env, e, col.type, 'a');
    if (c === undefined) {
      throw pgError(SqlState.datatype_mismatch, `column "${col.name}" is of type ${formatType(col.type.oid)} but expression is of type ${formatType(e.type.oid)}`, { ...pos(locOf(tagOf(rt.val)[1])), hint: 'You will need to rewrite or cast the expression.' });
    }
    assigned.set(j, c);
  }
  return assigned;
}
