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
  /** a system column (Iceberg v3 row lineage): selectable by name, not part of `*` (see TableSource.withSystemColumns) */
  readonly system?: boolean;
}

/** a LIKE pattern pushed with its `startsWith` prefix (escape `\\`, case-sensitive); `negated`: NOT LIKE */
export interface LikePattern { readonly pattern: string; readonly negated: boolean }

/**
 * A predicate pushed into a scan. Pushdown is *inexact* (DataFusion's TableProviderFilterPushDown::Inexact):
 * the executor still evaluates the full WHERE above the scan, so a source may use these to skip partitions,
 * files, row groups or rows that cannot match, and may ignore any of them. `column` indexes `columns`;
 * values are in that column type's JS representation (common/pgtypes/values.ts), already of the column's type
 * (the optimizer only pushes comparisons it could express without a cast on the column).
 */
export type ScanPredicate =
  | { readonly kind: 'compare'; readonly op: '=' | '<>' | '<' | '<=' | '>' | '>='; readonly column: number; readonly value: unknown }
  | { readonly kind: 'isNull' | 'isNotNull'; readonly column: number }
  | { readonly kind: 'in'; readonly column: number; readonly values: readonly unknown[] }
  /**
   * `like`: the whole LIKE / NOT LIKE pattern (escape `\\`) this stands for — `prefix` is then only its necessary
   * literal prefix ('' for NOT LIKE: the value is not null); sources that can judge the pattern may use it
   */
  | { readonly kind: 'startsWith'; readonly column: number; readonly prefix: string; readonly like?: LikePattern }
  /**
   * `columns[column] op columns[other]` (TPC-H q12's `l_shipdate < l_commitdate`): pushed only for integer, date
   * and timestamp pairs whose comparison is exact in the wider type (int2/int4/int8 mixed, date vs timestamp at
   * midnight); a NULL on either side is not kept. Added by the column-pair pushdown (session 22).
   */
  | { readonly kind: 'compareColumns'; readonly op: '=' | '<>' | '<' | '<=' | '>' | '>='; readonly column: number; readonly other: number }
  | { readonly kind: 'and' | 'or'; readonly args: readonly ScanPredicate[] };

/** Counters a scan fills in for EXPLAIN / EXPLAIN ANALYZE (files and row groups scanned versus total). */
export interface ScanMetrics {
  manifestsTotal: number;
  manifestsScanned: number;
  filesTotal: number;
  filesScanned: number;
  /** files skipped by partition values vs by column bounds / null counts */
  filesPrunedByPartition: number;
  filesPrunedByStats: number;
  rowGroupsTotal: number;
  rowGroupsScanned: number;
  bytesRead: number;
  rowsDecoded: number;
  /** answered from metadata without reading data files (COUNT(*), MIN/MAX) */
  fromMetadata?: boolean;
  /**
   * Late materialization (Iceberg, iceberg/read/late-materialization.ts): row groups whose pushed-filter
   * columns were decoded and evaluated first, how many of them had rows that may match (only those decode
   * the other columns), and rows evaluated versus rows materialized (converted in every projected column).
   */
  lateRowGroups?: number;
  lateRowGroupsMatched?: number;
  lateRowsTotal?: number;
  lateRowsMaterialized?: number;
  /**
   * Parquet page index (iceberg/read/page-index-pruner.ts): row groups whose ColumnIndex/OffsetIndex was read
   * for the pushed filters' columns, how many of them no page could match (skipped: not in rowGroupsScanned),
   * and those columns' pages versus the pages overlapping the rows that may match (the rows evaluated).
   */
  pageIndexRowGroups?: number;
  pageIndexRowGroupsPruned?: number;
  pagesTotal?: number;
  pagesScanned?: number;
  /**
   * Caches of immutable Iceberg files (iceberg/read/file-cache.ts, iceberg/scan/manifest-cache.ts): column
   * chunks (one column of one row group of a small file) looked up in the decoded-column cache and found
   * there; manifests and manifest lists looked up and found parsed.
   */
  fileCacheLookups?: number;
  fileCacheHits?: number;
  manifestCacheLookups?: number;
  manifestCacheHits?: number;
}

export function emptyScanMetrics(): ScanMetrics {
  return {
    manifestsTotal: 0, manifestsScanned: 0, filesTotal: 0, filesScanned: 0, filesPrunedByPartition: 0,
    filesPrunedByStats: 0, rowGroupsTotal: 0, rowGroupsScanned: 0, bytesRead: 0, rowsDecoded: 0,
    lateRowGroups: 0, lateRowGroupsMatched: 0, lateRowsTotal: 0, lateRowsMaterialized: 0,
    fileCacheLookups: 0, fileCacheHits: 0, manifestCacheLookups: 0, manifestCacheHits: 0,
    pageIndexRowGroups: 0, pageIndexRowGroupsPruned: 0, pagesTotal: 0, pagesScanned: 0,
  };
}

export interface ScanContext {
  readonly signal: AbortSignal;
  /** indexes into `columns` the query needs; undefined = all. A source may return all columns anyway. */
  readonly projection?: readonly number[];
  /** conjunction of pushed predicates (inexact, see ScanPredicate) */
  readonly filters?: readonly ScanPredicate[];
  /** the consumer needs at most this many rows (only set when no filter remains above the scan) */
  readonly limit?: number;
  /** filled in by sources that can (Iceberg): what was pruned and read */
  readonly metrics?: ScanMetrics;
  /**
   * columns (indexes into `columns`) the consumer reads only as hash keys (exec/join-key-only.ts): a source may
   * hand an int8 one back key-only — exact doubles attached and a placeholder per row, no BigInt
   * (common/pgtypes/exact-int64-column.ts). Sources may ignore it.
   */
  readonly keyOnly?: readonly number[];
  readonly session: SessionView;
  readonly catalog: CatalogView;
}

/**
 * One aggregate a source may answer from metadata (TableSource.aggregateFromMetadata): COUNT(*), or
 * COUNT / MIN / MAX of the column at index `column` of `columns`.
 */
export type MetadataAggregate =
  | { readonly kind: 'countStar' }
  | { readonly kind: 'count' | 'min' | 'max'; readonly column: number };

export interface MetadataAggregateContext extends Pick<ScanContext, 'filters' | 'signal'> {
  /** GROUP BY these columns (indexes into `columns`); the source answers only if it can group exactly */
  readonly groupBy?: readonly number[];
}

export interface MetadataAggregateAnswer {
  /**
   * The result rows: the GROUP BY columns' values, then one value per requested aggregate (counts as bigint,
   * MIN / MAX in the column's JS representation, null: no value). Without GROUP BY exactly one row; with
   * GROUP BY one row per group that has rows, in no particular order.
   */
  readonly rows: readonly (readonly unknown[])[];
  /** what answering read (manifests, files total / pruned; filesScanned 0), with fromMetadata set */
  readonly metrics: ScanMetrics;
}

export interface TableSource {
  readonly columns: readonly ColumnDef[];
  /** batches whose columns line up with `columns` (all of them, in order) */
  scan(ctx: ScanContext): AsyncIterable<Batch>;
  /**
   * scan()'s batches when they are at hand without waiting (a point lookup on cached data), else undefined —
   * decided before anything is counted in ctx.metrics; the caller then runs scan(). Optional: the executor's
   * fast path for small plans (exec/operator.ts executeSync). Added by the wire work (session 8).
   */
  scanNow?(ctx: ScanContext): Batch[] | undefined;
  /** estimated row count for planning, if cheap to know */
  readonly estimatedRows?: number;
  /**
   * Time travel: the same table as of `asOf`, the text after `FOR SYSTEM_VERSION AS OF` (a snapshot id) or
   * `FOR SYSTEM_TIME AS OF` (a timestamp literal such as `TIMESTAMP '2024-01-01 00:00:00'`).
   * Sources without history leave it undefined.
   */
  at?(asOf: string): TableSource;
  /**
   * EXPLAIN without running: plan the scan (prune with ctx.filters) and report the counters, reading only
   * metadata (manifests, Parquet footers). Sources without files leave it undefined.
   */
  explainScan?(ctx: ScanContext): Promise<ScanMetrics>;
  /**
   * Aggregates over the rows matching `ctx.filters` — here taken as *exact*, not as pushdown hints — answered
   * from metadata alone (Iceberg: manifest counts and bounds), or null when the metadata cannot give the exact
   * answer (the caller then scans). Added by the metadata-aggregate work (optimizer rule aggregate_from_metadata).
   */
  aggregateFromMetadata?(aggregates: readonly MetadataAggregate[], ctx: MetadataAggregateContext): Promise<MetadataAggregateAnswer | null>;
  /**
   * The same source with its system columns appended to `columns` (marked `system`), when the statement
   * names one of them (`mentioned(name)`); else this source. The binder asks for FROM items only, so INSERT
   * targets, COPY and the catalog never see them. Added by the v3 types work (Iceberg `_row_id`, …).
   */
  withSystemColumns?(mentioned: (name: string) => boolean): TableSource;
  /** EXPLAIN: the node name shown instead of `TableScan` and text after the relation name (synthetic sources) */
  readonly explainNode?: { readonly type: string; readonly detail?: string };
}

/**
 * One row-level change (UPDATE / DELETE) in progress: scan() names each row by a (file, position) id,
 * delete() and insert() collect the change, commit() makes all of it one atomic commit (nothing is visible
 * before it, and nothing is committed if it is never called).
 */
export interface RowDelta {
  /** the rows scan() returns, each with two more trailing columns: its file (text) and row position (int8) */
  scan(ctx: ScanContext): AsyncIterable<Batch>;
  /** marks one row (by the ids scan() gave it) deleted */
  delete(file: string, pos: bigint): void;
  /**
   * new rows (UPDATE's new versions), columns in `columns` order; with `systemColumns`, `previous` holds, per
   * new row, its old version's systemColumns values as scan() gave them (the source decides what carries over)
   */
  insert(batch: Batch, previous?: Batch): Promise<void>;
  commit(): Promise<void>;
  /**
   * system columns scan() adds after the table's columns, before file and position (Iceberg v3 row lineage:
   * `_row_id`, `_last_updated_sequence_number`), the same ones withSystemColumns offers. Added by the V3 work.
   */
  readonly systemColumns?: readonly ColumnDef[];
  /** after commit(), for UPDATE … RETURNING: an updated row's systemColumns values, from its old version's */
  updatedSystemValues?(previous: readonly unknown[]): readonly unknown[];
}

/** UPDATE / DELETE without rewriting the table (Iceberg merge-on-read), added by the DML work (issue #3) */
export interface RowLevelWriter {
  begin(op: 'update' | 'delete'): RowDelta;
}

/** A TableSource that can take rows (temp tables now; Iceberg tables through ingest later). */
export interface WritableTableSource extends TableSource {
  insert(batches: AsyncIterable<Batch>, ctx: ScanContext): Promise<number>;
  truncate?(): Promise<void>;
  /** truncate + insert as one step: the new contents replace the old only if they hold the table's keys */
  replaceAll?(batches: AsyncIterable<Batch>, ctx: ScanContext): Promise<number>;
  /** row-level UPDATE / DELETE (preferred over truncate + reinsert when present) */
  readonly rowLevel?: RowLevelWriter;
}

export function isWritable(t: TableSource): t is WritableTableSource {
  return typeof (t as Partial<WritableTableSource>).insert === 'function';
}
