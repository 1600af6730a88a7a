/** TableScan: reads a TableSource (a catalog relation, temp table or test table). Output = the source's columns. */
import type { TableSource } from '../../catalog/table-source.ts';
import type { PlanColumn } from './plan-column.ts';

export interface TableScan {
  readonly kind: 'TableScan';
  readonly source: TableSource;
  /** qualified name for EXPLAIN, e.g. public.t */
  readonly name: string;
  readonly tableOid: number;
  readonly columns: readonly PlanColumn[];
  /** FOR SYSTEM_TIME/SYSTEM_VERSION AS OF text, recorded for time travel (not used yet) */
  readonly asOf?: string;
}
