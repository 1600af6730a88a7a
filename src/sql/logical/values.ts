/** Values: literal rows (VALUES lists, and the single empty row of a FROM-less SELECT). */
import type { Expr } from './expr.ts';
import type { PlanColumn } from './plan-column.ts';

export interface Values {
  readonly kind: 'Values';
  readonly rows: readonly (readonly Expr[])[];
  readonly columns: readonly PlanColumn[];
}
