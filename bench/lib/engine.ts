/**
 * What the query bench needs from an engine: load the TPC-H CSV files, run a query and hand back its rows as
 * text (PostgreSQL's text output, or the closest string form), and give up on a query after a timeout.
 */
import type { TpchDataset } from './tpch-source.ts';

export type EngineName = 'lakegate' | 'pg' | 'duckdb';

/** A row of text cells; null is SQL NULL. */
export type TextRow = (string | null)[];

export interface ScanCounts {
  readonly filesScanned: number;
  readonly filesTotal: number;
  readonly rowGroupsScanned: number;
  readonly rowGroupsTotal: number;
}

export interface Engine {
  readonly name: EngineName;
  /** create the tables and load every row; returns seconds spent (the engine's own "ready to query" time) */
  load(data: TpchDataset): Promise<number>;
  /** run one statement; rejects with QueryTimeout past `timeoutMs` */
  query(sql: string, timeoutMs: number): Promise<TextRow[]>;
  /** files / row groups scanned versus total (lakegate's EXPLAIN ANALYZE), when the engine reports them */
  scanCounts?(sql: string, timeoutMs: number): Promise<ScanCounts | null>;
  /** forget the peak resident set so far (per-query peaks) */
  resetPeakRss?(): void;
  /** peak resident set in MB since start or the last reset */
  peakRssMb?(): number | null;
  close(): Promise<void>;
}

export class QueryTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`timed out after ${(timeoutMs / 1000).toFixed(0)} s`);
  }
}

/** Progress lines go to stderr so stdout stays the report. */
export function progress(msg: string): void {
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}
