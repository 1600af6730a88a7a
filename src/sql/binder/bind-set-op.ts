/** UNION / INTERSECT / EXCEPT [ALL] and VALUES lists: column types unified with select_common_type. */
import { Oid } from '../../common/pgtypes/oids.ts';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { Expr } from '../logical/expr.ts';
import type { LogicalPlan } from '../logical/plan.ts';
import { coerce, commonType, TEXT } from './coerce.ts';
import { bindExpr, locOf } from './bind-expr.ts';
import { Scope } from './scope.ts';
import type { Binder, OutColumn, QueryResult, SelectOptions } from './binder.ts';

type Node = Record<string, unknown>;

export function bindSetOp(b: Binder, stmt: Node, parent: Scope | null, opts: SelectOptions): QueryResult {
  const op = stmt.op === 'SETOP_UNION' ? 'union' : stmt.op === 'SETOP_INTERSECT' ? 'intersect' : 'except';
  const word = op.toUpperCase();
  const left = b.bindSelect(stmt.larg as Node, parent, { resolveUnknowns: false });
  const right = b.bindSelect(stmt.rarg as Node, parent, { resolveUnknowns: false });
  if (left.columns.length !== right.columns.length) {
    const p = targetLocation(left.columns.length > right.columns.length ? stmt.larg : stmt.rarg, 0);
    throw pgError(SqlState.syntax_error, `each ${word} query must have the same number of columns`, p === undefined ? {} : { position: p });
  }
  const types = left.columns.map((c, i) => {
    const t = commonType(b.env, [c.type, right.columns[i]!.type], word, targetLocation(stmt.rarg, i));
    return t.oid === Oid.unknown || (t.oid === Oid.text && c.type.oid === Oid.unknown && right.columns[i]!.type.oid === Oid.unknown && opts.resolveUnknowns === false) ? t : t;
  });
  const cast = (r: QueryResult): LogicalPlan => {
    if (r.columns.every((c, i) => c.type.oid === types[i]!.oid && c.type.typmod === types[i]!.typmod)) return r.plan;
    const exprs: Expr[] = r.columns.map((c, i) => coerce(b.env, { kind: 'ColumnRef', index: i, levelsUp: 0, type: c.type, name: c.name }, types[i]!, 'i'));
    return { kind: 'Projection', input: r.plan, exprs, columns: r.columns.map((c, i) => ({ name: c.name, type: types[i]! })) };
  };
  // PostgreSQL reports no column origin for set-operation results
  const columns: OutColumn[] = left.columns.map((c, i) => ({ name: c.name, type: types[i]!, tableOid: 0, attnum: 0 }));
  const plan: LogicalPlan = {
    kind: 'SetOp', op, all: stmt.all === true, left: cast(left), right: cast(right),
    columns: columns.map((c) => ({ name: c.name, type: c.type })),
  };
  return { plan, columns, correlated: left.correlated || right.correlated };
}

export function bindValues(b: Binder, lists: readonly Node[], parent: Scope | null, opts: SelectOptions): QueryResult {
  const scope = new Scope(parent);
  const rows = lists.map((l) => ((l.List as Node).items as unknown[]).map((x) =>
    bindExpr(b, x, { scope, clause: 'VALUES', allowAgg: false, allowWindow: false, allowSrf: false })));
  const width = rows[0]?.length ?? 0;
  if (rows.some((r) => r.length !== width)) {
    throw pgError(SqlState.syntax_error, 'VALUES lists must all be the same length', locOf((lists[1]?.List ?? {}) as Node) === undefined ? {} : {});
  }
  const types = Array.from({ length: width }, (_, c) => {
    const t = commonType(b.env, rows.map((r) => r[c]!.type), 'VALUES');
    return t;
  });
  const allUnknown = (c: number): boolean => rows.every((r) => r[c]!.type.oid === Oid.unknown);
  const finalTypes = types.map((t, c) => (allUnknown(c) && opts.resolveUnknowns === false ? rows[0]![c]!.type : t));
  const coerced = rows.map((r) => r.map((e, c) => (finalTypes[c]!.oid === Oid.unknown ? e : coerce(b.env, e, finalTypes[c]!, 'i'))));
  const columns: OutColumn[] = finalTypes.map((t, i) => ({ name: `column${i + 1}`, type: t.oid === Oid.unknown && opts.resolveUnknowns !== false ? TEXT : t, tableOid: 0, attnum: 0 }));
  return {
    plan: { kind: 'Values', rows: coerced, columns: columns.map((c) => ({ name: c.name, type: c.type })) },
    columns,
    correlated: scope.hasOuterRefs,
  };
}

/** position of the i-th select-list expression of the leftmost simple SELECT under `node` */
function targetLocation(node: unknown, i: number): number | undefined {
  let s = ((node as Node).SelectStmt ?? node) as Node;
  while (s.op !== undefined && s.op !== 'SETOP_NONE') s = ((s.larg as Node).SelectStmt ?? s.larg) as Node;
  const rt = ((s.targetList as Node[] | undefined)?.[i]?.ResTarget) as Node | undefined;
  if (rt === undefined) return undefined;
  const val = rt.val as Node;
  const inner = Object.values(val)[0] as Node | undefined;
  return locOf(inner ?? rt) ?? locOf(rt);
}
