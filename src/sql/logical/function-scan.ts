/** FunctionScan: a set-returning function in FROM (generate_series, unnest, ...), optionally WITH ORDINALITY. */
import type { SqlType } from '../../common/pgtypes/oids.ts';
import type { SetFunctionDef } from '../../functions/registry-types.ts';
import type { Expr } from './expr.ts';
import type { PlanColumn } from './plan-column.ts';

export interface FunctionScan {
  readonly kind: 'FunctionScan';
  readonly name: string;
  readonly def: SetFunctionDef;
  readonly args: readonly Expr[];
  readonly argTypes: readonly SqlType[];
  /** true when the def has outColumns (each yielded value is an array of column values) */
  readonly multiColumn: boolean;
  readonly ordinality: boolean;
  readonly columns: readonly PlanColumn[];
}
