/**
 * GROUP BY / aggregates: after the select list, HAVING and ORDER BY are bound over the FROM row, the
 * aggregate calls are pulled into an Aggregate node and every expression is rewritten over its output
 * (group keys, then aggregates, then the grouping-set id). A leftover plain column is 42803.
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { exprChildren, exprEquals, someExpr, transformExpr, type AggregateExpr, type Expr, type WindowFuncExpr } from '../logical/expr.ts';
import type { LogicalPlan } from '../logical/plan.ts';
import { mapPlanExprs } from '../logical/tree.ts';
import { INT4 } from './coerce.ts';

export function collect<T extends Expr>(exprs: readonly Expr[], kind: T['kind']): T[] {
  const out: T[] = [];
  const visit = (e: Expr): void => {
    if (e.kind === kind) {
      if (!out.some((o) => exprEquals(o, e) || o === e)) out.push(e as T);
      return;
    }
    for (const c of exprChildren(e)) visit(c);
  };
  exprs.forEach(visit);
  return out;
}

export interface GroupResult {
  readonly plan: LogicalPlan;
  readonly rewrite: (e: Expr) => Expr;
}

export function hasAggregates(exprs: readonly Expr[]): boolean {
  return exprs.some((e) => someExpr(e, (x) => x.kind === 'Aggregate' || x.kind === 'Grouping'));
}

export function buildAggregate(
  input: LogicalPlan,
  keys: readonly Expr[],
  sets: readonly (readonly number[])[] | null,
  exprs: readonly Expr[],
): GroupResult {
  const aggs = collect<AggregateExpr>(exprs, 'Aggregate');
  const nk = keys.length;
  const columns = [
    ...keys.map((k, i) => ({ name: k.kind === 'ColumnRef' ? k.name : `key${i + 1}`, type: k.type })),
    ...aggs.map((a) => ({ name: a.name, type: a.type })),
    ...(sets === null ? [] : [{ name: 'grouping_id', type: INT4 }]),
  ];
  const gidIndex = nk + aggs.length;
  const plan: LogicalPlan = { kind: 'Aggregate', input, groupKeys: keys, groupingSets: sets, aggregates: aggs, columns };
  const rewrite = (e: Expr): Expr => transformExpr(e, (x) => {
    if (x.kind === 'Aggregate') {
      const i = aggs.findIndex((a) => a === x || exprEquals(a, x));
      return { kind: 'ColumnRef', index: nk + i, levelsUp: 0, type: x.type, name: x.name };
    }
    if (x.kind === 'Grouping') {
      const bits = x.args.map((a) => {
        const k = keys.findIndex((key) => exprEquals(key, a));
        if (k < 0) throw pgError(SqlState.grouping_error, 'arguments to GROUPING must be grouping expressions of the associated query level');
        return k;
      });
      if (sets === null) return { kind: 'Literal', value: 0, type: INT4 };
      // GROUPING(a, b) = bit per argument, set when that key is not grouped in the current set
      return { kind: 'Call', name: 'grouping', def: groupingDef(bits), args: [{ kind: 'ColumnRef', index: gidIndex, levelsUp: 0, type: INT4, name: 'grouping_id' }], argTypes: [INT4], type: INT4 };
    }
    const k = keys.findIndex((key) => exprEquals(key, x));
    if (k >= 0) return { kind: 'ColumnRef', index: k, levelsUp: 0, type: x.type, name: columns[k]!.name };
    if (x.kind === 'ColumnRef' && x.levelsUp === 0) {
      throw pgError(SqlState.grouping_error, `column "${x.name}" must appear in the GROUP BY clause or be used in an aggregate function`, x.location === undefined ? {} : { position: x.location });
    }
    if (x.kind === 'WindowFunc') return rewriteWindow(x, rewrite);
    if (x.kind === 'Subquery' && x.correlated) {
      // the subquery's references to this level now read the Aggregate's output: group keys only
      const plan = mapPlanExprs(x.plan, (y, depth) => {
        if (y.kind !== 'ColumnRef' || y.levelsUp !== depth + 1) return undefined;
        const k = keys.findIndex((key) => key.kind === 'ColumnRef' && key.levelsUp === 0 && key.index === y.index);
        if (k < 0) {
          throw pgError(SqlState.grouping_error, `subquery uses ungrouped column "${y.name}" from outer query`, y.location === undefined ? {} : { position: y.location });
        }
        return { ...y, index: k };
      });
      return { ...x, plan, test: x.test && rewrite(x.test) };
    }
    return undefined;
  });
  return { plan, rewrite };
}

function rewriteWindow(w: WindowFuncExpr, rewrite: (e: Expr) => Expr): Expr {
  return {
    ...w,
    args: w.args.map(rewrite),
    filter: w.filter && rewrite(w.filter),
    spec: { ...w.spec, partitionBy: w.spec.partitionBy.map(rewrite), orderBy: w.spec.orderBy.map((o) => ({ ...o, expr: rewrite(o.expr) })) },
  };
}

/** grouping_id holds one bit per group key (bit k set = key k not grouped); GROUPING(args) remaps them */
function groupingDef(keyIdx: readonly number[]): import('../../functions/registry-types.ts').ScalarFunctionDef {
  return {
    kind: 'scalar', name: 'grouping', args: [INT4.oid], returns: INT4.oid, strict: true,
    impl: (args) => {
      const gid = args[0] as number;
      let r = 0;
      for (const k of keyIdx) r = (r << 1) | ((gid >> k) & 1);
      return r;
    },
  };
}

/** Expands GROUP BY items into grouping sets over key indexes (ROLLUP, CUBE, GROUPING SETS, plain keys). */
export type GroupItem = { readonly kind: 'key'; readonly key: number } | { readonly kind: 'sets'; readonly sets: readonly (readonly number[])[] };

export function expandGroupingSets(items: readonly GroupItem[]): number[][] {
  let acc: number[][] = [[]];
  for (const it of items) {
    const options = it.kind === 'key' ? [[it.key]] : it.sets.map((s) => [...s]);
    const next: number[][] = [];
    for (const a of acc) for (const o of options) next.push([...a, ...o]);
    acc = next;
  }
  return acc;
}
