/** LogicalPlan: the union of all plan nodes. Adding a kind breaks every Record<PlanKind, …> until handled. */
import type { Aggregate } from './aggregate.ts';
import type { Distinct } from './distinct.ts';
import type { Filter } from './filter.ts';
import type { FunctionScan } from './function-scan.ts';
import type { Insert } from './insert.ts';
import type { Join } from './join.ts';
import type { Limit } from './limit.ts';
import type { Overwrite } from './overwrite.ts';
import type { ModifyRows } from './modify-rows.ts';
import type { ProjectSet } from './project-set.ts';
import type { Projection } from './projection.ts';
import type { RecursiveCte, WorkTableScan } from './recursive-cte.ts';
import type { SetOp } from './set-op.ts';
import type { Sort } from './sort.ts';
import type { TableScan } from './table-scan.ts';
import type { Values } from './values.ts';
import type { Window } from './window.ts';

export type LogicalPlan =
  | TableScan | Values | Filter | Projection | ProjectSet | Aggregate | Join | Sort | Limit | SetOp | Distinct
  | Window | RecursiveCte | WorkTableScan | FunctionScan | Insert | Overwrite | ModifyRows;

export type PlanKind = LogicalPlan['kind'];

export type { Aggregate, Distinct, Filter, FunctionScan, Insert, ModifyRows, Overwrite, Join, Limit, ProjectSet, Projection, RecursiveCte, SetOp, Sort, TableScan, Values, Window, WorkTableScan };
export type { PlanColumn } from './plan-column.ts';

/** Children of a plan node (subquery plans inside expressions are not included). */
export function planChildren(p: LogicalPlan): LogicalPlan[] {
  switch (p.kind) {
    case 'TableScan': case 'Values': case 'WorkTableScan': case 'FunctionScan': return [];
    case 'Filter': case 'Projection': case 'ProjectSet': case 'Aggregate': case 'Sort': case 'Limit': case 'Distinct': case 'Window': case 'Insert': case 'Overwrite': case 'ModifyRows': return [p.input];
    case 'Join': case 'SetOp': return [p.left, p.right];
    case 'RecursiveCte': return [p.anchor, p.recursive];
  }
}
