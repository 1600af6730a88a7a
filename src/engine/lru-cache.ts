/**
 * LruCache: a small least-recently-used map (Map keeps insertion order, so re-inserting marks use).
 * Keys the parse cache by statement text and the plan cache by text + catalog version + search_path.
 */
export class LruCache<K, V> {
  private readonly map = new Map<K, V>();
  /** the most recently used key: using it again needs no re-insert (a repeated statement's usual case) */
  private newest: K | undefined = undefined;

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined && key !== this.newest) {
      this.map.delete(key);
      this.map.set(key, v);
      this.newest = key;
    }
    return v;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    this.newest = key;
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }

  clear(): void {
    this.map.clear();
    this.newest = undefined;
  }
}
