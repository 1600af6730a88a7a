/**
 * SqliteDialect: the default catalog database, a SQLite file through better-sqlite3 (WAL journal,
 * busy_timeout). better-sqlite3 is synchronous, so a transaction that awaits between statements must not
 * meet a second connection to the same file in this process: that connection would block the event loop in
 * its busy handler while the first can never finish. Every call is therefore queued on a per-file lock
 * shared by all connections of this process; other processes are kept apart by SQLite's own locking.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { SqlDialect, SqlExecutor, SqlRow, SqlValue } from './sql-dialect.ts';
import { WalWriteWatch } from './wal-write-watch.ts';

export interface SqliteDialectOptions {
  /** how long a writer waits for another process's lock, in ms (default 5000) */
  readonly busyTimeoutMs?: number;
}

/** the first copy of the WAL-index header (wal.c WalIndexHdr) */
const SHM_HEADER_BYTES = 48;
const LITTLE_ENDIAN = endianness() === 'LE';

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
  /** the -shm file (WAL index), read by changeToken; null when not in WAL mode or not openable */
  private shmFd: number | null = null;
  private readonly shmHeader = Buffer.alloc(SHM_HEADER_BYTES);
  /** tells when the token read last is still current (quietChangeToken); undefined until the first changeToken(), null without one */
  private walWatch: WalWriteWatch | null | undefined = undefined;
  /** the header's token read right after the watch last settled */
  private settledToken: string | undefined;

  constructor(file: string, options: SqliteDialectOptions = {}) {
    this.file = file === ':memory:' ? file : resolve(file);
    this.db = new Database(this.file, { timeout: options.busyTimeoutMs ?? 5000 });
    const mode = this.db.pragma('journal_mode = WAL', { simple: true });
    if (mode === 'wal' && this.file !== ':memory:') {
      this.db.pragma('data_version'); // a read transaction: the WAL index (-shm) exists from here on
      try {
        this.shmFd = openSync(`${this.file}-shm`, 'r');
      } catch {
        this.shmFd = null;
      }
    }
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

  /**
   * Moves when a connection commits. In WAL mode: the WAL-index header in the -shm file, read with one
   * pread — every commit appends frames (mxFrame grows) or restarts the WAL (salt-1 grows), and the header
   * is written before the committing connection unlocks. That is a third of `PRAGMA data_version`'s cost,
   * which opens a read transaction (two fcntl locks). It moves for this connection's own commits too (the
   * mirror then re-lists once), and for checkpoints that restart the WAL. Otherwise: data_version.
   */
  changeToken(): number | string {
    if (!this.db.open) return -1;
    if (this.shmFd !== null) {
      const watch = this.walWatch === undefined ? this.startWatch() : this.walWatch;
      // after a write to the -wal file: the token read now is trusted once no writer is mid-commit
      const settled = watch !== null && !watch.quiet && watch.settle();
      const token = this.readShmHeader();
      if (token !== undefined) {
        if (settled) this.settledToken = token;
        return token;
      }
      if (settled) watch.unsettle();
    }
    return this.dataVersion.get() as number;
  }

  /**
   * The change token without reading it: the one read when the -wal watch last settled, while no write to the
   * -wal file has been seen since (wal-write-watch.ts: a commit made before the bytes of a statement read in an
   * earlier event-loop poll phase has been seen). Undefined when unsure: ask changeToken().
   */
  quietChangeToken(): string | undefined {
    const watch = this.walWatch;
    return watch != null && watch.quiet ? this.settledToken : undefined;
  }

  /** `salt1:salt2:mxFrame` of the WAL-index header, undefined when it cannot be read */
  private readShmHeader(): string | undefined {
    try {
      if (readSync(this.shmFd!, this.shmHeader, 0, SHM_HEADER_BYTES, 0) !== SHM_HEADER_BYTES) return undefined;
    } catch {
      return undefined;
    }
    const h = this.shmHeader;
    const le = LITTLE_ENDIAN;
    // WalIndexHdr (native byte order): mxFrame at 16, aSalt[0] at 32, aSalt[1] at 36
    const mxFrame = le ? h.readUInt32LE(16) : h.readUInt32BE(16);
    const salt1 = le ? h.readUInt32LE(32) : h.readUInt32BE(32);
    const salt2 = le ? h.readUInt32LE(36) : h.readUInt32BE(36);
    return `${salt1}:${salt2}:${mxFrame}`;
  }

  /** the -wal watch, at the first token read (processes that never ask, such as commit workers, watch nothing) */
  private startWatch(): WalWriteWatch | null {
    try {
      this.walWatch = new WalWriteWatch(this.file);
    } catch {
      this.walWatch = null; // no inotify, no -wal file, no second connection: read the header every time
    }
    return this.walWatch;
  }

  async close(): Promise<void> {
    await withFileLock(this.file, async () => {
      if (this.shmFd !== null) closeSync(this.shmFd);
      this.shmFd = null;
      this.walWatch?.close();
      this.walWatch = null;
      this.db.close();
    });
  }
}
