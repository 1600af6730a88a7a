/** TableScan: reads a TableSource (a catalog relation, temp table or test table). Output = the source's columns. */
import type { LikePattern, TableSource } from '../../catalog/table-source.ts';
import type { LiteralExpr, ParamExpr } from './expr.ts';
import type { PlanColumn } from './plan-column.ts';

/** a value pushed into a scan: a constant already of the column's type, or `$n` (resolved at execution) */
export type PushedValue = LiteralExpr | ParamExpr;

/**
 * A predicate the optimizer pushed into the scan (exec/optimizer/push-down-filter.ts): the shape of the
 * catalog's ScanPredicate with values that may still be parameters. Inexact: the Filter above stays.
 */
export type PushedPredicate =
  | { readonly kind: 'compare'; readonly op: '=' | '<>' | '<' | '<=' | '>' | '>='; readonly column: number; readonly value: PushedValue }
  | { readonly kind: 'isNull' | 'isNotNull'; readonly column: number }
  /**
   * `values` a list of constants / params, or one array-valued param (`col = ANY($1)`) or array literal (a
   * runtime key filter's keys, exec/runtime-key-filter.ts: one node, not one per key)
   */
  | { readonly kind: 'in'; readonly column: number; readonly values: readonly PushedValue[] | PushedValue }
  | { readonly kind: 'startsWith'; readonly column: number; readonly prefix: string; readonly like?: LikePattern }
  /** `column op other`, two columns of the scan (ScanPredicate's compareColumns) */
  | { readonly kind: 'compareColumns'; readonly op: '=' | '<>' | '<' | '<=' | '>' | '>='; readonly column: number; readonly other: number }
  | { readonly kind: 'and' | 'or'; readonly args: readonly PushedPredicate[] };

export interface TableScan {
  readonly kind: 'TableScan';
  readonly source: TableSource;
  /** qualified name for EXPLAIN, e.g. public.t */
  readonly name: string;
  readonly tableOid: number;
  readonly columns: readonly PlanColumn[];
  /** FOR SYSTEM_TIME/SYSTEM_VERSION AS OF text, recorded for time travel (not used yet) */
  readonly asOf?: string;
  /** set by the optimizer: the source columns the query reads (others may come back as NULL) */
  readonly projection?: readonly number[];
  /** set by the optimizer: conjunction of predicates the source may use to skip data */
  readonly filters?: readonly PushedPredicate[];
  /** set by the optimizer: at most limit (+ offset) rows are consumed (no filter above the scan) */
  readonly limit?: { readonly limit: PushedValue; readonly offset: PushedValue | null };
}
