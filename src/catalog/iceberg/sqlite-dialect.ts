/**
 * SqliteDialect: the default catalog database, a SQLite file through better-sqlite3 (WAL journal,
 * busy_timeout). better-sqlite3 is synchronous, so a transaction that awaits between statements must not
 * meet a second connection to the same file in this process: that connection would block the event loop in
 * its busy handler while the first can never finish. Every call is therefore queued on a per-file lock
 * shared by all connections of this process; other processes are kept apart by SQLite's own locking.
 */
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { SqlDialect, SqlExecutor, SqlRow, SqlValue } from './sql-dialect.ts';

export interface SqliteDialectOptions {
  /** how long a writer waits for another process's lock, in ms (default 5000) */
  readonly busyTimeoutMs?: number;
}

/** One promise chain per database file: runs tasks one after another. */
const fileLocks = new Map<string, Promise<unknown>>();

function withFileLock<T>(file: string, task: () => Promise<T>): Promise<T> {
  const previous = fileLocks.get(file) ?? Promise.resolve();
  const run = previous.then(task, task);
  const tail = run.catch(() => undefined);
  fileLocks.set(file, tail);
  void tail.then(() => {
    if (fileLocks.get(file) === tail) fileLocks.delete(file);
  });
  return run;
}

export class SqliteDialect implements SqlDialect {
  readonly kind = 'sqlite' as const;
  readonly file: string;
  private readonly db: Database.Database;
  private readonly direct: SqlExecutor;
  private readonly dataVersion: Database.Statement;

  constructor(file: string, options: SqliteDialectOptions = {}) {
    this.file = file === ':memory:' ? file : resolve(file);
    this.db = new Database(this.file, { timeout: options.busyTimeoutMs ?? 5000 });
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    const db = this.db;
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
    this.direct = {
      query: async (sql, params = []) => db.prepare(sql).all(...params) as SqlRow[],
      execute: async (sql, params = []) => db.prepare(sql).run(...params).changes,
    };
  }

  query(sql: string, params?: readonly SqlValue[]): Promise<SqlRow[]> {
    return withFileLock(this.file, () => this.direct.query(sql, params));
  }

  execute(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return withFileLock(this.file, () => this.direct.execute(sql, params));
  }

  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return withFileLock(this.file, async () => {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(this.direct);
        this.db.exec('COMMIT');
        return result;
      } catch (e) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw e;
      }
    });
  }

  async tableColumns(table: string, tx?: SqlExecutor): Promise<string[] | null> {
    const sql = 'SELECT name FROM pragma_table_info(?) ORDER BY cid';
    const rows = tx ? await tx.query(sql, [table]) : await this.query(sql, [table]);
    return rows.length === 0 ? null : rows.map((r) => String(r.name));
  }

  isUniqueViolation(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
  }

  isRetryableConflict(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
  }

  /** moves when another connection commits (never for this connection's own commits): about a microsecond */
  changeToken(): number {
    return this.db.open ? (this.dataVersion.get() as number) : -1;
  }

  async close(): Promise<void> {
    await withFileLock(this.file, async () => this.db.close());
  }
}
