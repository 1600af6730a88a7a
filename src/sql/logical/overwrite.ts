/**
 * Overwrite: UPDATE / DELETE on a WritableTableSource that can truncate (temp tables; Iceberg later through an
 * overwrite commit). `input` scans the table and yields, per row: the old row, a boolean "affected" flag and,
 * for UPDATE, the new row (NULLs for unaffected rows). Execution collects everything first, then truncates and
 * re-inserts the surviving rows, and yields one batch with one int8 column `count` — or the RETURNING rows
 * (computed over the new row for UPDATE, the old row for DELETE).
 */
import type { WritableTableSource } from '../../catalog/table-source.ts';
import type { Expr } from './expr.ts';
import type { LogicalPlan } from './plan.ts';
import type { PlanColumn } from './plan-column.ts';

export interface Overwrite {
  readonly kind: 'Overwrite';
  readonly op: 'update' | 'delete';
  readonly table: WritableTableSource;
  readonly name: string;
  readonly tableOid: number;
  /** [old row (n columns), affected flag, new row (n columns, UPDATE only)] */
  readonly input: LogicalPlan;
  readonly returning: readonly Expr[] | null;
  readonly columns: readonly PlanColumn[];
}
