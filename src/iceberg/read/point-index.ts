/**
 * PointIndex: a hash index (value → row offsets) over one column of one row group held in the decoded-column
 * cache (file-cache.ts), built on the first equality lookup and kept as long as that cached column lives.
 *
 * Why: a lookup `WHERE id = $1` on a small cached file (pgbench's 1,000-row table, a dimension row by key)
 * otherwise judges the filter on every row of the file per execution; with the index it costs one Map probe.
 * Cached Arrow data is immutable (Iceberg files never change), so an index over it can never be stale.
 *
 * The index is keyed by the cached column's batch array (file-cache.ts keeps that array when it adds other
 * columns to the entry) and by the type its values are read as (a promoted int column is long in newer
 * schemas: other JS values). Its memory is charged to the row group's cache entry (chargeRowGroup), so the
 * cache bound still holds and eviction drops the index with the data. Only types whose JS values are equal
 * exactly when their SQL values are equal are indexed (row-filter.ts SET_TYPES less booleans: NULLs are
 * never keys, floats have NaN / -0 rules, numerics are objects, char(n) ignores trailing blanks).
 */
import type { Data } from 'apache-arrow';
import type { PrimitiveType } from '../spec/schema.ts';
import { arrowDataToValues } from './arrow-values.ts';
import { chargeRowGroup, type CachedRowGroup } from './file-cache.ts';

/** Iceberg types whose JS values (arrow-values.ts) are Map keys with SQL equality */
export const INDEXABLE_TYPES: ReadonlySet<string> = new Set(['int', 'long', 'date', 'timestamp', 'timestamptz', 'string']);

/** row groups with more rows are not indexed (the Map would rival the data in memory) */
export const MAX_INDEXED_ROWS = 1 << 20;

/** value → row offset within the row group (ascending), one number when the value occurs once */
export type PointIndex = ReadonlyMap<unknown, number | readonly number[]>;

/** estimated heap bytes per Map entry (hash table slot, key, boxed offset) */
const ENTRY_BYTES = 48;

/** by cached column, then type name: sources of other schema versions may read one column as int or long */
const indexes = new WeakMap<readonly Data[], Map<string, PointIndex>>();

/** counters of this thread's indexes (tests, diagnostics) */
export const pointIndexStats = { builds: 0, probes: 0 };

/**
 * The index of column `name` of a cached row group, built now when missing; undefined when the entry lacks
 * the column, the row group is too big, or the cache cannot take the index's memory.
 */
export function pointIndexOf(fileKey: string, rg: number, entry: CachedRowGroup, name: string, type: PrimitiveType, uri: string): PointIndex | undefined {
  const data = entry.columns.get(name);
  if (data === undefined) return undefined;
  const known = indexes.get(data)?.get(type.name);
  if (known !== undefined) return known;
  const rows = entry.batchLengths.reduce((a, b) => a + b, 0);
  if (rows > MAX_INDEXED_ROWS) return undefined;
  const index = new Map<unknown, number | number[]>();
  let bytes = 0;
  let base = 0;
  for (const d of data) {
    const values = arrowDataToValues(d, type, uri);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (v === null || v === undefined) continue; // NULL equals nothing
      const at = base + i;
      const seen = index.get(v);
      if (seen === undefined) {
        index.set(v, at);
        bytes += ENTRY_BYTES + (typeof v === 'string' ? 2 * v.length : typeof v === 'bigint' ? 16 : 0);
      } else if (typeof seen === 'number') {
        index.set(v, [seen, at]);
        bytes += 32;
      } else {
        seen.push(at);
        bytes += 8;
      }
    }
    base += d.length;
  }
  if (!chargeRowGroup(fileKey, rg, entry, bytes)) return undefined;
  let byType = indexes.get(data);
  if (byType === undefined) indexes.set(data, (byType = new Map()));
  byType.set(type.name, index);
  pointIndexStats.builds++;
  return index;
}

/** offsets (ascending, distinct) of the rows holding any of `values` */
export function probePointIndex(index: PointIndex, values: readonly unknown[]): number[] {
  pointIndexStats.probes++;
  const out: number[] = [];
  for (const v of values) {
    const at = index.get(v);
    if (at === undefined) continue;
    if (typeof at === 'number') out.push(at);
    else for (const a of at) out.push(a);
  }
  return values.length > 1 ? sortDistinctOffsets(out) : out;
}

/** row offsets found for several lookup values, in file order and each once (an IN list may name a value twice) */
export function sortDistinctOffsets(out: number[]): number[] {
  out.sort((a, b) => a - b);
  let w = 0;
  for (let r = 0; r < out.length; r++) if (r === 0 || out[r] !== out[r - 1]) out[w++] = out[r]!;
  out.length = w;
  return out;
}
