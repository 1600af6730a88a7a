/**
 * exec: turns a LogicalPlan into pull-based operators and runs it (`executePlan`). Public surface.
 */
export type { ExecContext } from './context.ts';
export { executePlan, executeOptimized, createOperator, optimizedFor } from './planner.ts';
export { Instrumentation, type NodeStats } from './instrumentation.ts';
export { optimizePlan, OPTIMIZER_RULES, type OptimizedPlan, type RuleTiming } from './optimizer/optimizer.ts';
export { OPTIMIZER_RULE_NAMES, parseDisabledRules } from './optimizer/rule-names.ts';
export { resolveFilters, resolveLimit } from './optimizer/resolve-pushed.ts';
export type { ExecOperator } from './operator.ts';
