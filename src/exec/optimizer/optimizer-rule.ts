/** OptimizerRule: one named, switchable rewrite of a LogicalPlan (see optimizer.ts for the order). */
import type { LogicalPlan } from '../../sql/index.ts';
import type { ExecContext } from '../context.ts';
import type { OptimizerRuleName } from './rule-names.ts';

export interface OptimizerRule {
  readonly name: OptimizerRuleName;
  /** rewrites the whole plan (subquery plans included); returns the plan itself when nothing applies */
  apply(plan: LogicalPlan, ctx: ExecContext): LogicalPlan;
}
