/**
 * sql: parser wrapper, binder (names, types, parameters → LogicalPlan), logical plan nodes and EXPLAIN text.
 * This file is the module's public surface.
 */
export { initParser, parseSql, type ParsedStatement } from './parser/parse-sql.ts';
export type { BindContext, BoundColumn, BoundQuery } from './binder/bind-context.ts';
export { bindQuery } from './binder/bind-query.ts';
export { explainPlan, exprText, describeNode, pushedPredicateText, subqueriesOf } from './display/explain-plan.ts';
export { explainJsonPlan, type JsonObject } from './display/explain-json.ts';
export type {
  LogicalPlan, PlanKind, PlanColumn, Aggregate, Distinct, Filter, FunctionScan, Insert, Overwrite, Join, Limit, ProjectSet, Projection,
  RecursiveCte, SetOp, Sort, TableScan, Values, Window, WorkTableScan,
} from './logical/plan.ts';
export type { JoinType } from './logical/join.ts';
export type { PushedPredicate, PushedValue } from './logical/table-scan.ts';
export { planChildren } from './logical/plan.ts';
export type { ModifyRows, ModifyAction } from './logical/modify-rows.ts';
export { RowIdTarget, ROW_ID_COLUMNS } from './logical/modify-rows.ts';
export type * from './logical/expr.ts';
export { transformExpr, exprChildren, someExpr, exprEquals, conjunctsOf, andOf } from './logical/expr.ts';
export type { FunctionRegistry } from './binder/function-registry.ts';
export { mapPlanExprs, mapExprDeep } from './logical/tree.ts';
