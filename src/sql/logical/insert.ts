/**
 * Insert: writes the input rows into a WritableTableSource. `input` already yields full table rows
 * (defaults filled, assignment casts applied). Execution yields one batch of one row with one int8 column
 * `count`, unless `returning` is set, in which case it yields the RETURNING rows instead.
 */
import type { WritableTableSource } from '../../catalog/table-source.ts';
import type { Expr } from './expr.ts';
import type { LogicalPlan } from './plan.ts';
import type { PlanColumn } from './plan-column.ts';

export interface Insert {
  readonly kind: 'Insert';
  readonly table: WritableTableSource;
  readonly name: string;
  readonly tableOid: number;
  readonly input: LogicalPlan;
  /** over the inserted table row */
  readonly returning: readonly Expr[] | null;
  readonly columns: readonly PlanColumn[];
}
