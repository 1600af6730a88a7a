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
 * bounded by the re-run's attempts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

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

const bounded = (p: Promise<void>): Promise<void> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([p, new Promise<void>((r) => { timer = setTimeout(r, MAX_WAIT_MS); })]).finally(() => clearTimeout(timer));
};

/** before a commit attempt: waits while another statement holds the table's turn; true when it waited */
export async function awaitTurn(tableUuid: string): Promise<boolean> {
  let waited = false;
  for (let turn = held.get(tableUuid); turn !== undefined && holder.getStore() !== tableUuid; turn = held.get(tableUuid)) {
    waited = true;
    await bounded(turn);
    if (held.get(tableUuid) === turn) break; // waited long enough
  }
  return waited;
}

/** takes the table's turn (after the holders before it); returns its release */
export async function takeTurn(tableUuid: string): Promise<() => void> {
  let release!: () => void;
  const mine = new Promise<void>((r) => { release = r; });
  const before = held.get(tableUuid);
  held.set(tableUuid, mine);
  if (before !== undefined) await bounded(before);
  return () => {
    release();
    if (held.get(tableUuid) === mine) held.delete(tableUuid);
  };
}

/** runs `f` as the holder of the table's turn (its commits do not wait for the turn) */
export function asTurnHolder<T>(tableUuid: string, f: () => T): T {
  return holder.run(tableUuid, f);
}
