/** ORDER BY / LIMIT / OFFSET over a finished query block (set operations and VALUES), plus LIMIT binding. */
import { notSupported, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { Expr, SortKeyExpr } from '../logical/expr.ts';
import type { LogicalPlan } from '../logical/plan.ts';
import { coerce, INT8 } from './coerce.ts';
import { bindExpr, locOf, tagOf } from './bind-expr.ts';
import { sortKey } from './bind-func.ts';
import { Scope } from './scope.ts';
import type { Binder, QueryResult } from './binder.ts';

type Node = Record<string, unknown>;

export function bindLimit(b: Binder, stmt: Node, parent: Scope | null): { limit: Expr | null; offset: Expr | null } {
  if (stmt.limitOption === 'LIMIT_OPTION_WITH_TIES') throw notSupported('FETCH FIRST … WITH TIES');
  const scope = new Scope(parent);
  const one = (node: unknown, clause: string): Expr | null => {
    if (node === undefined) return null;
    const [tag, n] = tagOf(node);
    if (tag === 'A_Const' && n.isnull === true) return null;
    const e = bindExpr(b, node, { scope, clause, allowAgg: false, allowWindow: false, allowSrf: false });
    return coerce(b.env, e, INT8, 'i', locOf(n));
  };
  return { limit: one(stmt.limitCount, 'LIMIT'), offset: one(stmt.limitOffset, 'OFFSET') };
}

export function ordinalOf(node: unknown): number | undefined {
  const [tag, n] = tagOf(node);
  if (tag !== 'A_Const' || n.ival === undefined) return undefined;
  return Number((n.ival as Node).ival ?? 0);
}

/** ORDER BY over output columns only (names or ordinals), then LIMIT/OFFSET. */
export function bindSortAndLimitOver(b: Binder, r: QueryResult, stmt: Node, parent: Scope | null): QueryResult {
  let plan: LogicalPlan = r.plan;
  const sorts = (stmt.sortClause as Node[] | undefined) ?? [];
  if (sorts.length > 0) {
    const scope = new Scope(parent);
    scope.add({ alias: null, columns: r.columns.map((c, i) => ({ name: c.name, type: c.type, index: i, tableOid: c.tableOid, attnum: c.attnum })) });
    const keys: SortKeyExpr[] = sorts.map((s) => {
      const sb = s.SortBy as Node;
      const ord = ordinalOf(sb.node);
      let e: Expr;
      if (ord !== undefined) {
        const c = r.columns[ord - 1];
        if (c === undefined) throw pgError(SqlState.invalid_column_reference, `ORDER BY position ${ord} is not in select list`, locOf(tagOf(sb.node)[1]) === undefined ? {} : { position: locOf(tagOf(sb.node)[1])! });
        e = { kind: 'ColumnRef', index: ord - 1, levelsUp: 0, type: c.type, name: c.name };
      } else {
        e = bindExpr(b, sb.node, { scope, clause: 'ORDER BY', allowAgg: false, allowWindow: false, allowSrf: false });
      }
      return sortKey(e, sb);
    });
    plan = { kind: 'Sort', input: plan, keys, columns: plan.columns };
  }
  const { limit, offset } = bindLimit(b, stmt, parent);
  if (limit !== null || offset !== null) plan = { kind: 'Limit', input: plan, limit, offset, columns: plan.columns };
  return { ...r, plan };
}
