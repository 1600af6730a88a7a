/**
 * MemoryReservation: the part of a query's MemoryPool one operator holds. `grow` throws 53200 (out of
 * memory) when the pool refuses; `tryGrow` lets an operator that can spill decide instead. Release it in a
 * `finally`, so an error, a cancel or an early stop (LIMIT) gives the memory back.
 */
import type { MemoryPool } from './memory-pool.ts';

export class MemoryReservation {
  #size = 0;
  #peak = 0;

  constructor(readonly pool: MemoryPool, readonly operator: string) {}

  get size(): number { return this.#size; }
  /** the largest size this reservation had (EXPLAIN ANALYZE's Memory) */
  get peak(): number { return this.#peak; }

  tryGrow(bytes: number): boolean {
    if (bytes <= 0) return true;
    // whole bytes: estimates are fractional, and sums of fractions would leave residue in the accounts
    bytes = Math.ceil(bytes);
    if (this.pool.tryGrow(bytes) !== null) return false;
    this.#size += bytes;
    if (this.#size > this.#peak) this.#peak = this.#size;
    return true;
  }

  grow(bytes: number): void {
    if (bytes <= 0) return;
    bytes = Math.ceil(bytes);
    const refused = this.pool.tryGrow(bytes);
    if (refused !== null) throw this.pool.outOfMemory(this.operator, bytes, refused);
    this.#size += bytes;
    if (this.#size > this.#peak) this.#peak = this.#size;
  }

  shrink(bytes: number): void {
    const n = Math.min(Math.max(0, Math.ceil(bytes)), this.#size);
    this.#size -= n;
    this.pool.shrink(n);
  }

  /** grows or shrinks to exactly `bytes` */
  resize(bytes: number): void {
    if (bytes > this.#size) this.grow(bytes - this.#size);
    else this.shrink(this.#size - bytes);
  }

  release(): void {
    this.shrink(this.#size);
  }
}
