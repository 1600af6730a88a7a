/**
 * Commit turns: PostgreSQL's row-lock queue, reduced to what an optimistic Iceberg commit needs. An
 * autocommit statement that lost a race is run again (engine/autocommit-retry.ts); without a queue a
 * session issuing fresh statements back to back wins every race against the slower re-run (which refreshes
 * the catalog mirror and binds anew first), so the loser starves until its bound. PostgreSQL's waiter gets
 * the row lock next instead. Here the re-run takes the table's *turn* (per process, by table-uuid): while it
 * holds it, other row-delta commits of that table (row-delta-commit.ts) wait before their attempt, and
 * other re-runs queue for the turn. The holder is known by its async context (AsyncLocalStorage), so its
 * own commit never waits on itself. Waits are bounded (MAX_WAIT_MS): a re-run held up elsewhere delays
 * other writers, never blocks them for good. Another process's commits are not queued (they still race,
 * bounded by the re-run's attempts). A wait ends at once when the waiting statement is cancelled
 * (pg_cancel_backend, CancelRequest, statement_timeout: its abort signal) with the cancel's 57014, before
 * anything was committed. Writes staged inside a transaction block (engine/iceberg-transaction.ts) publish
 * nothing now, so they never wait: their catalog is marked (markStagingCatalog). Appends (append-commit.ts)
 * queue the same way on a turn of their own: an append that lost a race goes next among the table's appends.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { GatewayError, queryCanceled } from '../../common/errors.ts';

const MAX_WAIT_MS = 10_000;

/** table-uuid → the release of the turn's holder (resolves when it is done) */
const held = new Map<string, Promise<void>>();
const holder = new AsyncLocalStorage<string>();

/** the table whose commit conflicted, by error (row-delta-commit.ts marks its 40001s and raced 23505s) */
const conflictTables = new WeakMap<object, string>();

export function markConflictTable<E>(e: E, tableUuid: string): E {
  if (typeof e === 'object' && e !== null && !conflictTables.has(e)) conflictTables.set(e, tableUuid);
  return e;
}

/**
 * 40001s / 23505s a row-delta commit threw before its catalog swap (row-delta-commit.ts): only these may be re-run
 * (engine/autocommit-retry.ts). The same codes can come after a swap that succeeded (the catalog refresh after the
 * commit, RETURNING's nextval() writing the sequence store): re-running those would apply the change twice.
 */
const uncommitted = new WeakSet<object>();

export function markUncommitted<E>(e: E): E {
  if (typeof e === 'object' && e !== null) uncommitted.add(e);
  return e;
}

export function isUncommitted(e: unknown): boolean {
  return typeof e === 'object' && e !== null && uncommitted.has(e);
}

export function conflictTableOf(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null ? conflictTables.get(e) : undefined;
}

/** catalogs that stage a transaction block's commits (engine/iceberg-transaction.ts): their writers take no turn */
const stagingCatalogs = new WeakSet<object>();

export function markStagingCatalog<C extends object>(catalog: C): C {
  stagingCatalogs.add(catalog);
  return catalog;
}

export function isStagingCatalog(catalog: object): boolean {
  return stagingCatalogs.has(catalog);
}

/** the error a cancelled statement ends with: its abort reason when that is a PostgreSQL error, else 57014 */
export function abortError(signal: AbortSignal): GatewayError {
  const reason: unknown = signal.reason;
  return GatewayError.is(reason) ? reason : queryCanceled();
}

/** `p`, at most MAX_WAIT_MS; rejects with the cancel's error as soon as `signal` aborts */
const bounded = (p: Promise<void>, signal: AbortSignal | undefined): Promise<void> => {
  if (signal?.aborted === true) return Promise.reject(abortError(signal));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const waits: Promise<void>[] = [p, new Promise<void>((r) => { timer = setTimeout(r, MAX_WAIT_MS); })];
  if (signal !== undefined) {
    waits.push(new Promise<void>((_, reject) => {
      onAbort = () => reject(abortError(signal));
      signal.addEventListener('abort', onAbort, { once: true });
    }));
  }
  return Promise.race(waits).finally(() => {
    clearTimeout(timer);
    if (onAbort !== undefined) signal!.removeEventListener('abort', onAbort);
  });
};

/**
 * before a commit attempt: waits while another statement holds the table's turn; true when it waited.
 * `signal`: the statement's; its cancel ends the wait with 57014.
 */
export async function awaitTurn(tableUuid: string, signal?: AbortSignal): Promise<boolean> {
  let waited = false;
  for (let turn = held.get(tableUuid); turn !== undefined && holder.getStore() !== tableUuid; turn = held.get(tableUuid)) {
    waited = true;
    await bounded(turn, signal);
    if (held.get(tableUuid) === turn) break; // waited long enough
  }
  return waited;
}

/** takes the table's turn (after the holders before it); returns its release. A cancel while queued gives it up. */
export async function takeTurn(tableUuid: string, signal?: AbortSignal): Promise<() => void> {
  let release!: () => void;
  const mine = new Promise<void>((r) => { release = r; });
  const before = held.get(tableUuid);
  held.set(tableUuid, mine);
  const done = (): void => {
    release();
    if (held.get(tableUuid) === mine) held.delete(tableUuid);
  };
  if (before !== undefined) {
    try {
      await bounded(before, signal);
    } catch (e) {
      // those queued behind this turn wait for `before` through it, so it resolves only once `before` is done
      void bounded(before, undefined).then(done);
      throw e;
    }
  }
  return done;
}

/** runs `f` as the holder of the table's turn (its commits do not wait for the turn) */
export function asTurnHolder<T>(tableUuid: string, f: () => T): T {
  return holder.run(tableUuid, f);
}
