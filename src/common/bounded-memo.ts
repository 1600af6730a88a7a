/**
 * A memo that starts over once it holds `limit` entries: compiled code and parsed values keyed by text that users
 * choose (COPY schemas, LIKE patterns, inet literals, filter proofs) must not grow a process without bound, and a
 * full clear costs less to keep than an LRU's bookkeeping on a hot path. `undefined` is never memoized.
 */
export class BoundedMemo<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly limit: number) {}

  /** the value kept for `key`, else `make(key)` kept and returned */
  get(key: K, make: (key: K) => V): V {
    const hit = this.#entries.get(key);
    if (hit !== undefined) return hit;
    const made = make(key);
    if (this.#entries.size >= this.limit) this.#entries.clear();
    this.#entries.set(key, made);
    return made;
  }

  get size(): number {
    return this.#entries.size;
  }
}
