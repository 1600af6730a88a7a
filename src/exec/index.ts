/**
 * exec: turns a LogicalPlan into pull-based operators and runs it (`executePlan`). Public surface.
 */
export type { ExecContext } from './context.ts';
export { executePlan, createOperator } from './planner.ts';
export type { ExecOperator } from './operator.ts';
