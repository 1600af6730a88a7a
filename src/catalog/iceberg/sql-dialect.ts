/**
 * SqlDialect: the small seam between SqlCatalog and a database driver. Statements are written once with
 * JDBC-style `?` placeholders (as Iceberg's JdbcUtil writes them); each dialect binds them its own way
 * (better-sqlite3 takes `?`, PostgreSQL wants `$1..$n`). All values are strings or null, as JdbcCatalog
 * binds them with setString.
 */
export type SqlValue = string | null;
export type SqlRow = Readonly<Record<string, unknown>>;

/** Runs statements on one connection (inside a transaction when given to `transaction`). */
export interface SqlExecutor {
  query(sql: string, params?: readonly SqlValue[]): Promise<SqlRow[]>;
  /** returns the number of rows changed */
  execute(sql: string, params?: readonly SqlValue[]): Promise<number>;
}

export interface SqlDialect extends SqlExecutor {
  readonly kind: 'sqlite' | 'postgresql';
  /**
   * Runs `fn` in one transaction that takes the write lock up front (SQLite BEGIN IMMEDIATE; PostgreSQL
   * BEGIN plus a transaction-level advisory lock when `exclusive` is set); commits, or rolls back on throw.
   */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>, options?: { readonly exclusive?: boolean }): Promise<T>;
  /** Column names of a table in declaration order, or null when the table does not exist. */
  tableColumns(table: string, tx?: SqlExecutor): Promise<string[] | null>;
  /** Primary-key / unique violation from this driver. */
  isUniqueViolation(error: unknown): boolean;
  /** The database refused the transaction and nothing was written, so a retry is safe (PG 40001/40P01, SQLITE_BUSY). */
  isRetryableConflict(error: unknown): boolean;
  /**
   * A value that moves whenever another connection (another lakegate process) committed to the database —
   * SQLite's WAL-index header or `PRAGMA data_version` — synchronous and cheap enough to ask before every
   * statement (it may move for other reasons too). Absent where there is no such thing (PostgreSQL: readers
   * fall back to polling).
   */
  changeToken?(): number | string;
  /**
   * The change token without reading it, when the dialect knows it has not moved since it was last read (SQLite:
   * no write to the -wal file seen, wal-write-watch.ts); undefined when unsure. Sees every commit made before the
   * bytes of a statement read in an earlier event-loop poll phase — not every socket read made so far.
   */
  quietChangeToken?(): number | string | undefined;
  close(): Promise<void>;
}

/** `?` → `$1, $2 …` (our statements never hold a `?` inside a literal). */
export function toDollarPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
