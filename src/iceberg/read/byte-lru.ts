/**
 * ByteLru: a least-recently-used map bounded by the bytes its entries hold (each entry states its cost).
 * The process-wide caches of immutable Iceberg files (read/file-cache.ts, scan/manifest-cache.ts) sit on it:
 * their entries differ in size by orders of magnitude (a footer, a decoded column of a million rows), so a
 * count bound would be either useless or wasteful. An entry costing more than a quarter of the bound is not
 * kept (it would push out everything else for one file).
 */
export class ByteLru<V> {
  readonly #map = new Map<string, { readonly value: V; readonly bytes: number }>();
  #bytes = 0;
  #limit: number;
  /** the most recently used entry (the map's last), or null */
  #newest: { readonly value: V; readonly bytes: number } | null = null;
  evictions = 0;

  constructor(limitBytes: number) {
    this.#limit = Math.max(0, limitBytes);
  }

  get limitBytes(): number {
    return this.#limit;
  }

  /** bytes held now (always ≤ limitBytes) */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#map.size;
  }

  /** the value, marked as most recently used */
  get(key: string): V | undefined {
    const e = this.#map.get(key);
    if (e === undefined) return undefined;
    // a repeated lookup of the newest entry (a pgbench lookup's one row group) needs no move
    if (e !== this.#newest) {
      this.#map.delete(key);
      this.#map.set(key, e);
      this.#newest = e;
    }
    return e.value;
  }

  has(key: string): boolean {
    return this.#map.has(key);
  }

  /** whether an entry of this cost would be kept */
  admits(bytes: number): boolean {
    return bytes <= this.#limit / 4;
  }

  /** stores `value` (replacing any entry of that key) unless it costs too much; false when not stored */
  set(key: string, value: V, bytes: number): boolean {
    this.delete(key);
    if (!this.admits(bytes)) return false;
    const e = { value, bytes };
    this.#map.set(key, e);
    this.#newest = e;
    this.#bytes += bytes;
    this.#shrink();
    return true;
  }

  delete(key: string): void {
    const e = this.#map.get(key);
    if (e === undefined) return;
    this.#map.delete(key);
    this.#bytes -= e.bytes;
    if (e === this.#newest) this.#newest = null;
  }

  /** a new bound; entries past it go, least recently used first */
  resize(limitBytes: number): void {
    this.#limit = Math.max(0, limitBytes);
    this.#shrink();
  }

  clear(): void {
    this.#map.clear();
    this.#newest = null;
    this.#bytes = 0;
  }

  #shrink(): void {
    for (const [k, e] of this.#map) {
      if (this.#bytes <= this.#limit) break;
      this.#map.delete(k);
      if (e === this.#newest) this.#newest = null;
      this.#bytes -= e.bytes;
      this.evictions++;
    }
  }
}
