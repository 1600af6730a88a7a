/**
 * TableSource: anything the binder can put in a FROM clause — pg_catalog / information_schema relations,
 * session temp tables, in-memory test tables, and (later) Iceberg tables. The binder only sees columns;
 * the executor calls scan().
 */
import type { Batch } from '../common/batch.ts';
import type { SqlType } from '../common/pgtypes/oids.ts';
import type { SessionView } from './session-view.ts';
import type { CatalogView } from './catalog-view.ts';

export interface ColumnDef {
  readonly name: string;
  readonly type: SqlType;
  readonly nullable: boolean;
  /** SQL text of the default expression, if any (pg_attrdef) */
  readonly defaultExpr?: string;
  readonly comment?: string;
}

export interface ScanContext {
  readonly signal: AbortSignal;
  /** indexes into `columns` the query needs; undefined = all. A source may return all columns anyway. */
  readonly projection?: readonly number[];
  readonly session: SessionView;
  readonly catalog: CatalogView;
}

export interface TableSource {
  readonly columns: readonly ColumnDef[];
  /** batches whose columns line up with `columns` (all of them, in order) */
  scan(ctx: ScanContext): AsyncIterable<Batch>;
  /** estimated row count for planning, if cheap to know */
  readonly estimatedRows?: number;
  /**
   * Time travel: the same table as of `asOf`, the text after `FOR SYSTEM_VERSION AS OF` (a snapshot id) or
   * `FOR SYSTEM_TIME AS OF` (a timestamp literal such as `TIMESTAMP '2024-01-01 00:00:00'`).
   * Sources without history leave it undefined.
   */
  at?(asOf: string): TableSource;
}

/** A TableSource that can take rows (temp tables now; Iceberg tables through ingest later). */
export interface WritableTableSource extends TableSource {
  insert(batches: AsyncIterable<Batch>, ctx: ScanContext): Promise<number>;
  truncate?(): Promise<void>;
}

export function isWritable(t: TableSource): t is WritableTableSource {
  return typeof (t as Partial<WritableTableSource>).insert === 'function';
}
