/**
 * The fragment a scan worker runs for a partial aggregate (issue #4): Aggregate(group keys, aggregates) over
 * Filters and Projections over an Iceberg TableScan, as PostgreSQL's Partial Aggregate below a Gather. What
 * qualifies: one grouping set, every aggregate with a mergeable state (combine) whose result does not
 * depend on row order — no DISTINCT, no ORDER BY inside, no ordered-set aggregates, no string_agg /
 * array_agg — and every expression wireable (expr-wire.ts). Anything else aggregates on the main thread.
 */
import type { SqlType } from '../../common/pgtypes/oids.ts';
import type { Aggregate, Filter, LogicalPlan, Projection, TableScan } from '../../sql/index.ts';
import { encodeExpr, keyOfBuiltin, NotWireable } from './expr-wire.ts';

/** aggregates whose partial states combine to the serial answer (float sums up to the last digit, as in PostgreSQL) */
const MERGEABLE = new Set([
  'count', 'sum', 'avg', 'min', 'max', 'bool_and', 'bool_or', 'every', 'bit_and', 'bit_or', 'bit_xor',
  'stddev', 'stddev_samp', 'stddev_pop', 'variance', 'var_samp', 'var_pop',
  'corr', 'covar_pop', 'covar_samp', 'regr_avgx', 'regr_avgy', 'regr_count', 'regr_intercept', 'regr_r2',
  'regr_slope', 'regr_sxx', 'regr_sxy', 'regr_syy',
]);

export type WireOp =
  | { readonly kind: 'Filter'; readonly predicate: unknown }
  | { readonly kind: 'Projection'; readonly exprs: readonly unknown[] };

export interface WireAggregate {
  readonly def: string;
  readonly args: readonly unknown[];
  readonly argTypes: readonly SqlType[];
  readonly type: SqlType;
  readonly filter: unknown;
}

export interface WireFragment {
  /** the scan's width: batches are widened to it (columns not read are NULL) */
  readonly width: number;
  /** table column of each field the worker reads, in read order */
  readonly projection: readonly number[];
  /** Filters and Projections, bottom-up */
  readonly ops: readonly WireOp[];
  readonly groupKeys: readonly unknown[];
  readonly keyOids: readonly number[];
  readonly aggregates: readonly WireAggregate[];
}

/** the Filter / Projection chain of an Aggregate down to its TableScan (ops top-down), or null */
export function fragmentChain(plan: Aggregate): { readonly scan: TableScan; readonly ops: readonly (Filter | Projection)[] } | null {
  const ops: (Filter | Projection)[] = [];
  let p: LogicalPlan = plan.input;
  while (p.kind === 'Filter' || p.kind === 'Projection') {
    ops.push(p);
    p = p.input;
  }
  return p.kind === 'TableScan' && p.limit === undefined ? { scan: p, ops } : null;
}

const cache = new WeakMap<Aggregate, WireFragment | null>();

function build(plan: Aggregate): WireFragment | null {
  if (plan.groupingSets !== null) return null;
  const chain = fragmentChain(plan);
  if (chain === null) return null;
  for (const a of plan.aggregates) {
    if (a.distinct || a.orderBy.length > 0 || a.def.directArgs !== undefined || !MERGEABLE.has(a.def.name)) return null;
  }
  try {
    const ops = [...chain.ops].reverse().map((o): WireOp => (o.kind === 'Filter'
      ? { kind: 'Filter', predicate: encodeExpr(o.predicate) }
      : { kind: 'Projection', exprs: o.exprs.map(encodeExpr) }));
    return {
      width: chain.scan.columns.length,
      projection: chain.scan.projection ?? chain.scan.columns.map((_c, i) => i),
      ops,
      groupKeys: plan.groupKeys.map(encodeExpr),
      keyOids: plan.groupKeys.map((k) => k.type.oid),
      aggregates: plan.aggregates.map((a) => ({
        def: keyOfBuiltin(a.def),
        args: a.args.map(encodeExpr),
        argTypes: a.argTypes,
        type: a.type,
        filter: a.filter === null ? null : encodeExpr(a.filter),
      })),
    };
  } catch (e) {
    if (e instanceof NotWireable) return null;
    throw e;
  }
}

/** The worker fragment of an Aggregate plan, or null when it must aggregate on the main thread (memoized). */
export function workerFragmentOf(plan: Aggregate): WireFragment | null {
  let f = cache.get(plan);
  if (f === undefined) {
    f = build(plan);
    cache.set(plan, f);
  }
  return f;
}
