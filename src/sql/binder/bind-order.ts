/** ORDER BY / LIMIT / OFFSET over a finished query block (set operations and VALUES), plus LIMIT binding. */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { Expr, SortKeyExpr } from '../logical/expr.ts';
import type { LogicalPlan } from '../logical/plan.ts';
import { coerce, INT8 } from './coerce.ts';
import { bindExpr, locOf, tagOf } from './bind-expr.ts';
import { sortKey } from './bind-func.ts';
import { Scope } from './scope.ts';
import { syntax, type Binder, type QueryResult } from './binder.ts';

type Node = Record<string, unknown>;

export interface BoundLimit {
  readonly limit: Expr | null;
  readonly offset: Expr | null;
  /** FETCH FIRST … WITH TIES (ORDER BY is checked to be present) */
  readonly withTies: boolean;
}

export function bindLimit(b: Binder, stmt: Node, parent: Scope | null): BoundLimit {
  const withTies = stmt.limitOption === 'LIMIT_OPTION_WITH_TIES';
  if (withTies) {
    // gram.y insertSelectOptions and parse_clause.c transformLimitClause
    if (((stmt.sortClause as Node[] | undefined) ?? []).length === 0) syntax('WITH TIES cannot be specified without ORDER BY clause');
    const [tag, n] = tagOf(stmt.limitCount);
    if (tag === 'A_Const' && n.isnull === true) {
      throw pgError(SqlState.invalid_row_count_in_limit_clause, 'row count cannot be null in FETCH FIRST ... WITH TIES clause');
    }
  }
  const scope = new Scope(parent);
  const one = (node: unknown, clause: string): Expr | null => {
    if (node === undefined) return null;
    const [tag, n] = tagOf(node);
    if (tag === 'A_Const' && n.isnull === true) return null;
    const e = bindExpr(b, node, { scope, clause, allowAgg: false, allowWindow: false, allowSrf: false });
    return coerce(b.env, e, INT8, 'i', locOf(n));
  };
  return { limit: one(stmt.limitCount, 'LIMIT'), offset: one(stmt.limitOffset, 'OFFSET'), withTies };
}

/**
 * The Limit node over `input`, or `input` itself when there is neither LIMIT nor OFFSET. WITH TIES compares the
 * keys of the ORDER BY sort just below (under DISTINCT ON the sort also holds the ON expressions, as PostgreSQL
 * appends them to the sortClause).
 */
export function limitPlan(input: LogicalPlan, bound: BoundLimit): LogicalPlan {
  const { limit, offset, withTies } = bound;
  if (limit === null && offset === null) return input;
  const sort = input.kind === 'Distinct' ? input.input : input;
  const keys = sort.kind === 'Sort' ? sort.keys : [];
  return { kind: 'Limit', input, limit, offset, columns: input.columns, ...(withTies ? { withTies: keys } : {}) };
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
  plan = limitPlan(plan, bindLimit(b, stmt, parent));
  return { ...r, plan };
}
