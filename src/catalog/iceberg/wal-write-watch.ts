/**
 * WalWriteWatch: tells SqliteDialect, without a system call, that no connection has committed to a SQLite
 * database in WAL mode since the change token was last read — so a statement need not pread the WAL-index
 * header (sqlite-dialect.ts changeToken) while the catalog is quiet.
 *
 * How: an inotify watch (fs.watch) on the -wal file. Every commit appends its frames to the -wal file with
 * write() (the WAL-index header in -shm is written through mmap, which inotify does not see) while holding
 * the WAL write lock, then writes the header and unlocks. So the kernel queues the watch's event before the
 * commit is visible, hence before the committing client can tell anyone, hence before the bytes of any
 * statement that must see it reach a socket here. libuv reports the inotify descriptor in the same or an
 * earlier epoll batch than such a socket (epoll's ready list is in readiness order; a full batch is followed
 * by more polls in the same poll phase), and runs the watch callback inside that poll phase. Statements run
 * only after the poll phase that read their bytes (wire/after-reads.ts delivers in the check phase), so the
 * event has been seen by then: `quiet` is false, and the token is read.
 *
 * The event comes before the header is written, so after an event the token may only be trusted again once
 * no writer is between its frames and its header: settle() takes and releases the write lock (BEGIN IMMEDIATE
 * on its own connection, busy timeout 0) and the header is read after that. A commit whose frames come later
 * queues a new event. Anything unsure — a writer holding the lock, an error, the -wal file renamed or deleted,
 * no inotify — leaves the watch not quiet, and the caller reads the header as before.
 *
 * Not for the read clock (wire/read-clock.ts): a quiet answer covers statements whose bytes were read in an
 * earlier poll phase, not every read made so far (a read of the current poll phase may precede its event's
 * callback in the batch).
 * @see https://man7.org/linux/man-pages/man7/inotify.7.html (mmap writes are not reported)
 * @see https://www.sqlite.org/walformat.html (the WAL-index header, WAL_WRITE_LOCK)
 */
import { watch, type FSWatcher } from 'node:fs';
import Database from 'better-sqlite3';

export class WalWriteWatch {
  private watcher: FSWatcher | null;
  /** a write to the -wal file may have happened since the last successful settle() (true until the first) */
  private written = true;
  /** the watch cannot vouch for anything any more (renamed / deleted -wal, watch error, no write lock to take) */
  private broken = false;
  private readonly barrier: Database.Database;
  private readonly begin: Database.Statement;
  private readonly commit: Database.Statement;

  /** throws when the watch or the barrier connection cannot be set up (the caller then reads the token always) */
  constructor(databaseFile: string) {
    // the connection first: it is cheap to close if the watch cannot start
    this.barrier = new Database(databaseFile, { timeout: 0, fileMustExist: true });
    try {
      this.begin = this.barrier.prepare('BEGIN IMMEDIATE');
      this.commit = this.barrier.prepare('COMMIT');
      this.watcher = watch(`${databaseFile}-wal`, { persistent: false }, this.onEvent);
      this.watcher.on('error', this.onError);
    } catch (e) {
      this.barrier.close();
      throw e;
    }
  }

  /** no write to the -wal file since the last successful settle(): the token read then is still current */
  get quiet(): boolean {
    return !this.written;
  }

  /**
   * Before reading the token: true when it may be trusted until the next event — no writer holds the WAL write
   * lock now, so every commit whose frames were written before this call has written its header too. False
   * when a writer holds it (read the token; try again next time) or the watch is broken.
   */
  settle(): boolean {
    if (this.broken) return false;
    // cleared first: a frame written from here on queues an event that sets it again
    this.written = false;
    try {
      this.begin.run();
      this.commit.run();
      return true;
    } catch (e) {
      this.written = true;
      if (this.barrier.inTransaction) this.rollback();
      // SQLITE_BUSY*: a writer is mid-transaction, try again later; anything else (read-only file, …) for good
      const code = (e as { code?: unknown } | null)?.code;
      if (typeof code !== 'string' || !code.startsWith('SQLITE_BUSY')) this.breakWatch();
      return false;
    }
  }

  /** the token read after settle() could not be read after all: it vouches for nothing */
  unsettle(): void {
    this.written = true;
  }

  close(): void {
    this.breakWatch();
    if (this.barrier.open) this.barrier.close();
  }

  private readonly onEvent = (event: string): void => {
    this.written = true;
    // the watched inode is gone or renamed: later writes go elsewhere
    if (event === 'rename') this.breakWatch();
  };

  private readonly onError = (): void => this.breakWatch();

  private breakWatch(): void {
    this.broken = true;
    this.written = true;
    const watcher = this.watcher;
    this.watcher = null;
    watcher?.close();
  }

  private rollback(): void {
    try {
      this.barrier.exec('ROLLBACK');
    } catch {
      // nothing to undo: the lock goes with the failed transaction
    }
  }
}
