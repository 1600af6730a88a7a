/**
 * The duplicate check of a unique index build (unique-index-build.ts) for keys made only of int2 / int4 / int8
 * columns — every TPC-H primary key: the keys are kept as doubles in typed arrays, several columns folded into
 * one double by their value ranges, sorted natively and compared neighbour to neighbour. A Set of key texts
 * costs ~100 bytes and an allocation per row (lineitem's 6 M composite keys at SF 1: ~750 MB and seconds of GC);
 * this costs 8 bytes per key column and row. It answers exactly what the text Set answers: the first row, in
 * scan order, whose key an earlier row has (found again only when there is one, the error path).
 */
import type { Batch } from '../../common/batch.ts';
import { exactInt64Of } from '../../common/pgtypes/exact-int64-column.ts';
import { Oid } from '../../common/pgtypes/oids.ts';

/** whether every key column is an integer type this check takes */
export function integerKeyColumns(oids: readonly number[]): boolean {
  return oids.length > 0 && oids.every((o) => o === Oid.int2 || o === Oid.int4 || o === Oid.int8);
}

/** the duplicated row's key values, as the scan gave them (bigint for int8) */
export type DuplicateKey = readonly (number | bigint)[];

/** keys with a magnitude at or beyond 2^53 are not exact as doubles: the caller falls back to the text Set */
const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Collects the keys of batches over `columns` (0-based positions of int2 / int4 / int8 columns with `oids`);
 * rows with a NULL key column are left out (they never conflict). `add` returns false when a key is not exact
 * as a double; the collector is then unusable.
 */
export class IntegerKeyCheck {
  /** per key column, one Float64Array per batch (only the rows without a NULL key column) */
  private readonly chunks: Float64Array[][];
  private rows = 0;

  constructor(private readonly columns: readonly number[], private readonly oids: readonly number[]) {
    this.chunks = columns.map(() => []);
  }

  add(b: Batch): boolean {
    const n = b.length;
    if (n === 0) return true;
    let keep: Uint8Array | null = null;
    const values: Float64Array[] = [];
    for (let k = 0; k < this.columns.length; k++) {
      const col = b.columns[this.columns[k]!]!;
      const f = new Float64Array(n);
      const exact = this.oids[k] === Oid.int8 ? exactInt64Of(col, n) : undefined;
      if (exact !== undefined) {
        f.set(exact.f.subarray(0, n));
        if (exact.nulls !== null) keep = dropNulls(keep, exact.nulls, n);
      } else if (!readValues(col, n, f)) return false;
      else if (hasNull(col, n)) keep = dropNullValues(keep, col, n);
      values.push(f);
    }
    for (let k = 0; k < values.length; k++) this.chunks[k]!.push(keep === null ? values[k]! : compact(values[k]!, keep));
    this.rows += keep === null ? n : countKept(keep, n);
    return true;
  }

  /** the key of the first row (scan order) whose key an earlier row has, or null when the keys are unique */
  firstDuplicate(): DuplicateKey | null {
    const sorted = this.fold();
    if (sorted === null) return this.firstDuplicateByText();
    // sorted in place (no second copy: 48 MB for 6 M keys); scan order is folded again on the error path only
    sorted.sort();
    let any = false;
    for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) { any = true; break; }
    if (!any) return null;
    const folded = this.fold()!;
    const seen = new Set<number>();
    for (let i = 0; i < folded.length; i++) {
      const key = folded[i]!;
      if (seen.has(key)) return this.keyAt(i);
      seen.add(key);
    }
    return null;
  }

  /** every row's key as one double: column k's value minus its min, times the product of the later ranges */
  private fold(): Float64Array | null {
    const out = new Float64Array(this.rows);
    let span = 1;
    for (let k = this.columns.length - 1; k >= 0; k--) {
      let min = Infinity, max = -Infinity;
      for (const c of this.chunks[k]!) for (let i = 0; i < c.length; i++) { const v = c[i]!; if (v < min) min = v; if (v > max) max = v; }
      if (this.rows === 0) break;
      const range = max - min + 1;
      // the folded key must stay an exact integer below 2^53
      if (span * range > SAFE) return null;
      let r = 0;
      for (const c of this.chunks[k]!) for (let i = 0; i < c.length; i++, r++) out[r] = out[r]! + (c[i]! - min) * span;
      span *= range;
    }
    return out;
  }

  /** several columns whose ranges do not fold into 2^53: their doubles as text, the Set this file avoids otherwise */
  private firstDuplicateByText(): DuplicateKey | null {
    return this.replayAsText(new Set<string>(), (key) => key.join('\u0000'));
  }

  /**
   * For a caller that goes on with a Set of key texts (a later batch's key is not exact): adds the collected keys
   * to `seen` in scan order as `text` makes them; returns the first one already there, else null.
   */
  replayAsText(seen: Set<string>, text: (key: DuplicateKey) => string): DuplicateKey | null {
    const first = this.chunks[0] ?? [];
    for (let ci = 0; ci < first.length; ci++) {
      for (let i = 0; i < first[ci]!.length; i++) {
        const key = this.chunks.map((chunks, k) => this.valueOf(k, chunks[ci]![i]!));
        const t = text(key);
        if (seen.has(t)) return key;
        seen.add(t);
      }
    }
    return null;
  }

  private valueOf(k: number, x: number): number | bigint {
    return this.oids[k] === Oid.int8 ? BigInt(x) : x;
  }

  private keyAt(row: number): DuplicateKey {
    return this.chunks.map((chunks, k) => {
      let r = row;
      for (const c of chunks) {
        if (r < c.length) return this.valueOf(k, c[r]!);
        r -= c.length;
      }
      throw new Error('key row out of range');
    });
  }
}

/** the column's values as doubles (NULL as 0); false when one is not a safe integer */
function readValues(col: readonly unknown[], n: number, f: Float64Array): boolean {
  for (let i = 0; i < n; i++) {
    const v = col[i];
    if (typeof v === 'number') f[i] = v;
    else if (typeof v === 'bigint') {
      if (v > SAFE || v < -SAFE) return false;
      f[i] = Number(v);
    } else if (v !== null && v !== undefined) return false;
  }
  return true;
}

function hasNull(col: readonly unknown[], n: number): boolean {
  for (let i = 0; i < n; i++) if (col[i] === null || col[i] === undefined) return true;
  return false;
}

/** keep[i] = 0 where the row has a NULL key column (1 elsewhere) */
function dropNulls(keep: Uint8Array | null, nulls: Uint8Array, n: number): Uint8Array {
  const out = keep ?? new Uint8Array(n).fill(1);
  for (let i = 0; i < n; i++) if (nulls[i] === 1) out[i] = 0;
  return out;
}

function dropNullValues(keep: Uint8Array | null, col: readonly unknown[], n: number): Uint8Array {
  const out = keep ?? new Uint8Array(n).fill(1);
  for (let i = 0; i < n; i++) if (col[i] === null || col[i] === undefined) out[i] = 0;
  return out;
}

function countKept(keep: Uint8Array, n: number): number {
  let c = 0;
  for (let i = 0; i < n; i++) c += keep[i]!;
  return c;
}

function compact(f: Float64Array, keep: Uint8Array): Float64Array {
  const out = new Float64Array(countKept(keep, f.length));
  let j = 0;
  for (let i = 0; i < f.length; i++) if (keep[i] === 1) out[j++] = f[i]!;
  return out;
}
