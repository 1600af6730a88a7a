/**
 * WHERE over a FROM-clause subquery (`SELECT … FROM (SELECT t.oid, (correlated subquery) … FROM pg_type t) ti
 * WHERE ti.oid = any($1)`, asyncpg's type introspection): the conjuncts that only read columns the subquery
 * passes through unchanged move below its projection, so its expensive expressions run for the kept rows only.
 * Conjuncts with subqueries, or reading computed columns, stay above.
 */
import { andOf, conjunctsOf, someExpr, transformExpr, type Expr, type Filter, type LogicalPlan } from '../sql/index.ts';

export function pushFilterBelowProjection(filter: Filter): LogicalPlan | null {
  const proj = filter.input;
  if (proj.kind !== 'Projection') return null;
  const passThrough = (k: number): boolean => {
    const e = proj.exprs[k];
    return e !== undefined && (e.kind === 'Literal' || e.kind === 'Param' || (e.kind === 'ColumnRef' && e.levelsUp >= 0));
  };
  const pushed: Expr[] = [];
  const kept: Expr[] = [];
  for (const c of conjunctsOf(filter.predicate)) {
    let ok = true;
    someExpr(c, (x) => {
      if (x.kind === 'Subquery' || (x.kind === 'ColumnRef' && x.levelsUp < 0)) ok = false;
      else if (x.kind === 'ColumnRef' && x.levelsUp === 0 && !passThrough(x.index)) ok = false;
      return !ok;
    });
    (ok ? pushed : kept).push(c);
  }
  if (pushed.length === 0) return null;
  const below = pushed.map((c) => transformExpr(c, (x) => (x.kind === 'ColumnRef' && x.levelsUp === 0 ? proj.exprs[x.index]! : undefined)));
  const moved: LogicalPlan = { ...proj, input: { kind: 'Filter', input: proj.input, predicate: andOf(below), columns: proj.input.columns } };
  return kept.length === 0 ? moved : { kind: 'Filter', input: moved, predicate: andOf(kept), columns: filter.columns };
}


