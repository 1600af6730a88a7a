/**
 * A worker's partial groups keyed by one int8 column, sent to the main thread as exact doubles. The worker's group
 * table hands its int8 keys back as BigInts (group-table.ts keySlice), and structured clone copies a JS array of
 * BigInts value by value (≈ 2.5 ms per 10,000 keys to post, on this VM); doubles move as one buffer, and the main
 * thread's group table numbers them without a BigInt per group (exact-int64-column.ts keyOnlyInt64Column: its
 * keys become BigInts only when read). TPC-H q18's l_orderkey packs of 50,000 groups: pack + clone + merge
 * 6.7–7.9 → 4.4–4.8 ms per pack (session 27). One key only: with several keys the group table reads key values.
 */
import { keyOnlyInt64Column } from '../../common/pgtypes/exact-int64-column.ts';

export interface Int8KeyWire {
  /** the keys as doubles (0 at NULL rows) */
  readonly f: Float64Array;
  /** 1 at NULL rows; null: none */
  readonly nulls: Uint8Array | null;
}

/**
 * the first `n` keys of `col` (bigint or NULL) as exact doubles, their buffers added to `transfer`; null when a
 * value is not a bigint a double holds exactly (then the column is sent as it is)
 */
export function int8KeysOf(col: readonly unknown[], n: number, transfer: ArrayBufferLike[]): Int8KeyWire | null {
  const f = new Float64Array(n);
  let nulls: Uint8Array | null = null;
  for (let i = 0; i < n; i++) {
    const v = col[i];
    if (v === null || v === undefined) {
      (nulls ??= new Uint8Array(n))[i] = 1;
      continue;
    }
    if (typeof v !== 'bigint') return null;
    const d = Number(v);
    if (!Number.isSafeInteger(d)) return null;
    f[i] = d;
  }
  transfer.push(f.buffer);
  if (nulls !== null) transfer.push(nulls.buffer);
  return { f, nulls };
}

/** the main thread's key column of `n` groups from `wire` (read as hash keys through its exact doubles) */
export function int8KeyColumn(wire: Int8KeyWire, n: number): unknown[] {
  return keyOnlyInt64Column(wire.f, n, wire.nulls);
}
