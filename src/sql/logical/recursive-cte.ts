/**
 * RecursiveCte: WITH RECURSIVE's working-table loop. `anchor` runs once; `recursive` runs while the working table
 * is non-empty, reading it through WorkTableScan nodes with the same `id`. UNION (not ALL) drops duplicates.
 */
import type { LogicalPlan } from './plan.ts';
import type { PlanColumn } from './plan-column.ts';

export interface RecursiveCte {
  readonly kind: 'RecursiveCte';
  readonly id: number;
  readonly name: string;
  readonly anchor: LogicalPlan;
  readonly recursive: LogicalPlan;
  readonly all: boolean;
  readonly columns: readonly PlanColumn[];
}

export interface WorkTableScan {
  readonly kind: 'WorkTableScan';
  readonly id: number;
  readonly name: string;
  readonly columns: readonly PlanColumn[];
}
