/**
 * ReadHandleCache: read-only file handles that LocalFsStore keeps open between ranged reads, so the many
 * column-chunk reads of one Parquet file cost one positional read each instead of open + fstat + read + close
 * (four thread-pool round trips). The size is taken once, at open: table data files never change under their
 * name (Iceberg writes new files), and a path this store writes or deletes is dropped from the cache first.
 *
 * Bounded: at most `capacity` files (least recently used closed first) and a handle unused for `idleMs` is
 * closed by a sweep (an unreferenced timer), so a file another process deleted does not hold its disk space
 * long. A handle in use by a read is closed only when that read ends (a count of users per entry).
 */
import { open, type FileHandle } from 'node:fs/promises';

export interface OpenFile {
  readonly fh: FileHandle;
  readonly size: number;
}

interface Entry {
  readonly opening: Promise<OpenFile>;
  users: number;
  lastUse: number;
  /** out of the map: closed once its last user is done */
  dropped: boolean;
  closed: boolean;
}

export class ReadHandleCache {
  /** insertion order is use order: the first entry is the least recently used */
  readonly #entries = new Map<string, Entry>();
  #sweeper: ReturnType<typeof setInterval> | null = null;

  constructor(readonly capacity = 128, readonly idleMs = 2_000) {}

  /** files with an open (or opening) handle */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Runs `fn` with the open handle of `file` (opened on first use: a failed open rejects with the open's error and
   * caches nothing). A read that fails drops the handle, so the next read opens the file afresh.
   */
  async use<T>(file: string, fn: (f: OpenFile) => Promise<T>): Promise<T> {
    let e = this.#entries.get(file);
    if (e === undefined) {
      e = { opening: openForRead(file), users: 0, lastUse: 0, dropped: false, closed: false };
      this.#entries.set(file, e);
      this.#trim();
      this.#startSweeper();
    } else {
      this.#entries.delete(file);
      this.#entries.set(file, e);
    }
    e.users++;
    let ok = false;
    try {
      const f = await e.opening;
      const out = await fn(f);
      ok = true;
      return out;
    } finally {
      e.users--;
      e.lastUse = Date.now();
      if (!ok) this.#drop(file, e);
      else if (e.dropped && e.users === 0) closeEntry(e);
    }
  }

  /** closes the handle of `file` (now, or when its reads end): the store is about to write or delete the path */
  drop(file: string): void {
    this.#drop(file, undefined);
  }

  /** drops `only` (if given: a failed entry, which may already be out of the map) or the entry of `file` */
  #drop(file: string, only: Entry | undefined): void {
    const e = this.#entries.get(file);
    if (e !== undefined && (only === undefined || e === only)) {
      this.#entries.delete(file);
      if (this.#entries.size === 0) this.#stopSweeper();
    }
    const target = only ?? e;
    if (target === undefined) return;
    target.dropped = true;
    if (target.users === 0) closeEntry(target);
  }

  /** closes every handle (a read in flight keeps its own until it ends) */
  clear(): void {
    for (const file of [...this.#entries.keys()]) this.drop(file);
  }

  #trim(): void {
    while (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next().value as string;
      this.drop(oldest);
    }
  }

  #startSweeper(): void {
    if (this.#sweeper !== null) return;
    this.#sweeper = setInterval(() => this.#sweep(), this.idleMs);
    this.#sweeper.unref();
  }

  #stopSweeper(): void {
    if (this.#sweeper === null) return;
    clearInterval(this.#sweeper);
    this.#sweeper = null;
  }

  #sweep(): void {
    const before = Date.now() - this.idleMs;
    for (const [file, e] of [...this.#entries]) if (e.users === 0 && e.lastUse <= before) this.drop(file);
  }
}

async function openForRead(file: string): Promise<OpenFile> {
  const fh = await open(file, 'r');
  try {
    const { size } = await fh.stat();
    return { fh, size };
  } catch (e) {
    await fh.close().catch(() => undefined);
    throw e;
  }
}

function closeEntry(e: Entry): void {
  if (e.closed) return;
  e.closed = true;
  e.opening.then((f) => f.fh.close()).catch(() => undefined);
}
