/**
 * PostgresDialect: the catalog in a PostgreSQL database through a `pg` Pool (a `postgresql://` URI), the
 * choice when several lakegate processes (or Spark/Trino/PyIceberg elsewhere) share one catalog.
 * Statements arrive with `?` placeholders and are rewritten to `$n`.
 */
import pg from 'pg';
import { toDollarPlaceholders, type SqlDialect, type SqlExecutor, type SqlRow, type SqlValue } from './sql-dialect.ts';

export interface PostgresDialectOptions {
  /** pool size (default 4) */
  readonly maxConnections?: number;
}

/** Arbitrary constant key for pg_advisory_xact_lock: serializes schema setup across processes. */
const ADVISORY_LOCK_KEY = 0x1ceb3e6;

function executorOf(client: pg.Pool | pg.PoolClient): SqlExecutor {
  return {
    query: async (sql, params = []) => (await client.query(toDollarPlaceholders(sql), [...params])).rows as SqlRow[],
    execute: async (sql, params = []) => (await client.query(toDollarPlaceholders(sql), [...params])).rowCount ?? 0,
  };
}

export class PostgresDialect implements SqlDialect {
  readonly kind = 'postgresql' as const;
  private readonly pool: pg.Pool;
  private readonly direct: SqlExecutor;

  constructor(connectionString: string, options: PostgresDialectOptions = {}) {
    this.pool = new pg.Pool({ connectionString, max: options.maxConnections ?? 4 });
    // an idle client's error (server restart) must not crash the process; the next query reconnects
    this.pool.on('error', () => {});
    this.direct = executorOf(this.pool);
  }

  query(sql: string, params?: readonly SqlValue[]): Promise<SqlRow[]> {
    return this.direct.query(sql, params);
  }

  execute(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return this.direct.execute(sql, params);
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>, options: { readonly exclusive?: boolean } = {}): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      if (options.exclusive) await client.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK_KEY]);
      const result = await fn(executorOf(client));
      await client.query('COMMIT');
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }

  async tableColumns(table: string, tx?: SqlExecutor): Promise<string[] | null> {
    const sql =
      'SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position';
    const rows = await (tx ?? this.direct).query(sql, [table]);
    return rows.length === 0 ? null : rows.map((r) => String(r.column_name));
  }

  isUniqueViolation(error: unknown): boolean {
    return (error as { code?: unknown } | null)?.code === '23505';
  }

  isRetryableConflict(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    return code === '40001' || code === '40P01';
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
