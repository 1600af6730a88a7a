/**
 * SessionSequences: one session's sequence state — currval per sequence, lastval, and the values it took
 * from a store but has not handed out yet (PostgreSQL's per-session SeqTable with its CACHE). A statement
 * that keeps calling nextval on one sequence takes growing blocks after the first BLOCK_AFTER values (an
 * INSERT … SELECT or COPY of a million rows does a few dozen store transactions, not a million); the rest
 * of such a block is dropped when the next statement starts, a gap as after a rollback. Blocks of the
 * sequence's own CACHE stay across statements, as in PostgreSQL.
 */
import { pgError } from '../../common/errors.ts';
import type { SequenceAllocation } from './sequence-options.ts';
import type { SequenceSource } from './sequence-source.ts';

/** values a statement takes one at a time (no gap beyond PostgreSQL's) before blocks start growing */
const BLOCK_AFTER = 32;
const MAX_BLOCK = 8192;

interface Cached {
  next: bigint;
  remaining: number;
  readonly increment: bigint;
  /** the statement that allocated it (EvalContext.statementTimestamp) */
  readonly statement: bigint;
  /** values this statement took from the sequence so far, and the last block size */
  taken: number;
  block: number;
  /** a grown block (beyond CACHE): dropped when another statement starts */
  readonly grown: boolean;
}

export class SessionSequences {
  private readonly cached = new Map<number, Cached>();
  private readonly current = new Map<number, bigint>();
  private lastOid: number | undefined;

  /** nextval: a cached value at once, else a block from the store (a Promise when the store must be asked) */
  nextval(oid: number, source: SequenceSource, statement: bigint): bigint | Promise<bigint> {
    const c = this.cached.get(oid);
    if (c !== undefined && c.remaining > 0 && (!c.grown || c.statement === statement)) {
      const v = c.next;
      c.next += c.increment;
      c.remaining--;
      if (c.statement === statement) c.taken++;
      return this.handOut(oid, v);
    }
    const cache = source.latest.options.cache > BigInt(MAX_BLOCK) ? MAX_BLOCK : Number(source.latest.options.cache);
    const sameStatement = c !== undefined && c.statement === statement;
    const taken = sameStatement ? c.taken : 0;
    const block = source.store.persistent && taken >= BLOCK_AFTER ? Math.max(cache, Math.min(MAX_BLOCK, Math.max(BLOCK_AFTER, (sameStatement ? c.block : 1) * 2))) : cache;
    const take = (a: SequenceAllocation): bigint => {
      this.cached.set(oid, { next: a.first + a.increment, remaining: a.count - 1, increment: a.increment, statement, taken: taken + 1, block, grown: block > cache });
      return this.handOut(oid, a.first);
    };
    const a = source.allocate(block);
    return a instanceof Promise ? a.then(take) : take(a);
  }

  private handOut(oid: number, v: bigint): bigint {
    this.current.set(oid, v);
    this.lastOid = oid;
    return v;
  }

  currval(oid: number, name: string): bigint {
    const v = this.current.get(oid);
    if (v === undefined) throw pgError('55000', `currval of sequence "${name}" is not yet defined in this session`);
    return v;
  }

  /** the sequence lastval() reads (its currval), or 55000 */
  lastvalOid(): number {
    if (this.lastOid === undefined) throw pgError('55000', 'lastval is not yet defined in this session');
    return this.lastOid;
  }

  /** setval / ALTER SEQUENCE RESTART in this session: cached values are forgotten; is_called sets currval */
  afterSetval(oid: number, value: bigint | undefined): void {
    this.cached.delete(oid);
    if (value !== undefined) this.current.set(oid, value);
  }

  /** DISCARD SEQUENCES / DISCARD ALL */
  discard(): void {
    this.cached.clear();
    this.current.clear();
    this.lastOid = undefined;
  }
}

const bySession = new WeakMap<object, SessionSequences>();

/** the state of the session whose CatalogView (EvalContext.catalog) is `key` */
export function sessionSequences(key: object): SessionSequences {
  let s = bySession.get(key);
  if (s === undefined) {
    s = new SessionSequences();
    bySession.set(key, s);
  }
  return s;
}
