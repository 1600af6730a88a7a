/**
 * push_down_limit: LIMIT n [OFFSET m] directly over a scan (through projections, which keep one row per
 * input row; never through a Filter, Sort, aggregate or join) tells the scan that n + m rows are enough
 * (ScanContext.limit), so a source can stop after its first files. The Limit node stays.
 */
import type { Expr, LogicalPlan } from '../../sql/index.ts';
import type { PushedValue } from '../../sql/index.ts';
import type { OptimizerRule } from './optimizer-rule.ts';
import { transformPlanUp } from './plan-rewrite.ts';

export const pushDownLimit: OptimizerRule = {
  name: 'push_down_limit',
  apply: (plan) => transformPlanUp(plan, (p) => (p.kind === 'Limit' ? pushInto(p) : p)),
};

function constant(e: Expr | null): PushedValue | null | undefined {
  if (e === null) return null;
  return e.kind === 'Literal' || e.kind === 'Param' ? e : undefined;
}

function pushInto(limit: Extract<LogicalPlan, { kind: 'Limit' }>): LogicalPlan {
  const n = constant(limit.limit);
  const offset = constant(limit.offset);
  if (n === null || n === undefined || offset === undefined) return limit;
  const down = (p: LogicalPlan): LogicalPlan | null => {
    if (p.kind === 'TableScan') return { ...p, limit: { limit: n, offset } };
    if (p.kind !== 'Projection') return null;
    const input = down(p.input);
    return input === null ? null : { ...p, input };
  };
  const input = down(limit.input);
  return input === null ? limit : { ...limit, input };
}
