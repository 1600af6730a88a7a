/**
 * MemoryPool: one query's memory budget. Blocking operators take a MemoryReservation from it, grow the
 * reservation as their state grows (once per batch, with estimates from size-estimate.ts) and release it when
 * they are done; a request beyond the query's limit, or beyond the server-wide account, is refused.
 * The pool of a query hangs on its ExecContext (context.ts: queryMemory).
 */
import { queryOutOfMemory } from './out-of-memory.ts';
import { MemoryReservation } from './memory-reservation.ts';
import { SERVER_MEMORY, type Refusal, type ServerMemory } from './server-memory.ts';
import type { GatewayError } from '../../common/errors.ts';

/** what a pool still holds; kept apart from the pool so a finalizer can give it back */
interface Held {
  used: number;
  readonly server: ServerMemory;
}

/**
 * A query whose stream is dropped without being closed (a client gone mid-result, a portal never closed) never
 * runs its operators' `finally`: when its pool is garbage-collected, what it still held goes back to the server.
 */
const ABANDONED = new FinalizationRegistry<Held>((held) => {
  held.server.shrink(held.used);
  held.used = 0;
});

export class MemoryPool {
  readonly #held: Held;
  #peak = 0;

  /**
   * `settingLimit`: the lakegate.query_memory_limit errors name when `limit` is only this pool's share of it
   * (a merge task's share in a scan worker, exchange/)
   */
  constructor(readonly limit: number, readonly server: ServerMemory = SERVER_MEMORY, readonly settingLimit: number = limit) {
    this.#held = { used: 0, server };
    ABANDONED.register(this, this.#held);
  }

  /** estimated bytes held by the query's live reservations */
  get used(): number { return this.#held.used; }
  get peak(): number { return this.#peak; }

  reserve(operator: string): MemoryReservation {
    return new MemoryReservation(this, operator);
  }

  /** takes `bytes` for a reservation, or says which limit refused them */
  tryGrow(bytes: number): Refusal | null {
    if (bytes <= 0) return null;
    const held = this.#held;
    if (held.used + bytes > this.limit) return 'query';
    const refused = this.server.tryGrow(bytes, held.used);
    if (refused !== null) return refused;
    held.used += bytes;
    if (held.used > this.#peak) this.#peak = held.used;
    return null;
  }

  shrink(bytes: number): void {
    if (bytes <= 0) return;
    const n = Math.min(bytes, this.#held.used);
    this.#held.used -= n;
    this.server.shrink(n);
  }

  outOfMemory(operator: string, request: number, why: Refusal): GatewayError {
    return queryOutOfMemory({ operator, request, why, queryLimit: this.settingLimit, serverLimit: this.server.limit, heap: this.server.lastHeap });
  }
}
