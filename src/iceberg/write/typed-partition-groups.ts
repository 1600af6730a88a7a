/**
 * Groups the rows of a typed batch (COPY, typed-columns.ts) by partition tuple without JS values per row:
 * common transforms are computed straight from the buffers — year/month/day/identity/bucket/truncate of a
 * date or int (Int32Array), bucket/truncate/identity of a long (two 32-bit words), bucket of a string (its
 * UTF-8 bytes, which is what Iceberg hashes) — and anything else falls back to the transform's `apply` on the
 * source column's JS values. Only the grouping comes from here: each group's tuple is still computed by
 * `transform.apply` on its first row, so tuples, keys and paths are the JS path's exactly.
 */
import type { BoundPartitionField } from '../transforms/partition-path.ts';
import { singleValueBytes } from './single-value-bytes.ts';
import { int32PartitionFn, murmurLong, murmurRange } from './partition-split.mjs';
import { int64Number, materializeColumn, typedValueAt, type TypedColumn } from './typed-columns.ts';

export interface RowGroups {
  /** number of distinct partition tuples in the batch */
  readonly count: number;
  /** group of each row, 0 … count − 1 (in order of first appearance) */
  readonly groupOf: Int32Array;
  /** first row of each group */
  readonly first: readonly number[];
}

export { monthOfDays, murmurLong, murmurRange } from './partition-split.mjs';

/** the partition value of valid row i as a number, for the transforms computed from int32 buffers; null: not here */
function int32Fn(f: BoundPartitionField, domain: 'int' | 'date'): ((v: number) => number) | null {
  return int32PartitionFn(f.transform.name, f.transform.param, domain);
}

const NULL_KEY = Symbol('null');

/** key of a partition value for a Map: numbers, bigints and strings by value, others by their bytes */
function keyOf(f: BoundPartitionField, v: unknown): unknown {
  if (v === null || v === undefined) return NULL_KEY;
  // Map keys compare by SameValueZero: -0 (a float partition value of its own, as in Java) needs its own key
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : v;
  if (typeof v === 'bigint' || typeof v === 'string') return v;
  return Buffer.from(singleValueBytes(f.transform.resultType, v)).toString('latin1');
}

const isValid = (bitmap: Uint8Array | null, i: number): boolean => bitmap === null || (bitmap[i >> 3]! & (1 << (i & 7))) !== 0;

/** an int32 column whose values span at most this many: ids memoized per value in one Int32Array */
const MAX_MEMO_SPAN = 1 << 16;
/** the memo's table, reused by every call (the function is synchronous) */
let memoTable: Int32Array | null = null;

/**
 * ids of an int32 column's rows through a table indexed by value − min: lineitem's l_shipdate changes on almost
 * every row, and a Map lookup of its month per row cost ≈ 40 ns (68 → 30 ns a row for the whole grouping); the
 * table is filled in row order, so ids are numbered in order of first appearance as before. Small batches take it
 * too: a path only they took was compiled without type feedback and deoptimized the caller each time one came.
 * false: the values span more than MAX_MEMO_SPAN, nothing written
 */
function int32IdsByValue(values: Int32Array, validity: Uint8Array | null, length: number, fn: (v: number) => number, idOf: (key: unknown) => number, ids: Int32Array): boolean {
  let min = 0x7fffffff;
  let max = -0x80000000;
  for (let i = 0; i < length; i++) {
    if (!isValid(validity, i)) continue;
    const v = values[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (max - min >= MAX_MEMO_SPAN) return false;
  const memo = (memoTable ??= new Int32Array(MAX_MEMO_SPAN));
  memo.fill(-1, 0, max >= min ? max - min + 1 : 0);
  for (let i = 0; i < length; i++) {
    if (!isValid(validity, i)) {
      ids[i] = idOf(NULL_KEY);
      continue;
    }
    const k = values[i]! - min;
    let id = memo[k]!;
    if (id < 0) memo[k] = id = idOf(fn(values[i]!));
    ids[i] = id;
  }
  return true;
}

/** per-row ids of one field's partition values (0 … n − 1) */
function fieldIds(f: BoundPartitionField, col: TypedColumn, length: number): { ids: Int32Array; n: number } {
  const ids = new Int32Array(length);
  const seen = new Map<unknown, number>();
  const idOf = (key: unknown): number => {
    let id = seen.get(key);
    if (id === undefined) seen.set(key, (id = seen.size));
    return id;
  };
  if (f.transform.name === 'void') return { ids, n: 1 };
  const t = f.transform;
  const fn = col.kind === 'int32' ? int32Fn(f, col.domain) : null;
  if (col.kind === 'int32' && fn !== null) {
    if (!int32IdsByValue(col.values, col.validity, length, fn, idOf, ids)) {
      const { values, validity } = col;
      let lastV = 0;
      let lastId = -1;
      for (let i = 0; i < length; i++) {
        if (!isValid(validity, i)) ids[i] = idOf(NULL_KEY);
        else if (lastId >= 0 && values[i] === lastV) ids[i] = lastId;
        else ids[i] = lastId = idOf(fn((lastV = values[i]!)));
      }
    }
  } else if (col.kind === 'int64' && (t.name === 'bucket' || t.name === 'identity')) {
    const words = new Int32Array(col.values.buffer, col.values.byteOffset, 2 * length);
    for (let i = 0; i < length; i++) {
      if (!isValid(col.validity, i)) ids[i] = idOf(NULL_KEY);
      else if (t.name === 'bucket') ids[i] = idOf((murmurLong(words[2 * i]!, words[2 * i + 1]!) & 0x7fffffff) % t.param!);
      else ids[i] = idOf(int64Number(words, i) ?? col.values[i]!);
    }
  } else if (col.kind === 'utf8' && t.name === 'bucket') {
    for (let i = 0; i < length; i++) {
      ids[i] = isValid(col.validity, i) ? idOf((murmurRange(col.data, col.offsets[i]!, col.offsets[i + 1]!) & 0x7fffffff) % t.param!) : idOf(NULL_KEY);
    }
  } else {
    const values = materializeColumn(col);
    for (let i = 0; i < length; i++) ids[i] = idOf(keyOf(f, t.apply(values[i] ?? null)));
  }
  return { ids, n: seen.size };
}

/** groups rows by the partition tuple of `fields` over the batch's typed columns */
export function typedPartitionGroups(fields: readonly BoundPartitionField[], typed: readonly TypedColumn[], length: number): RowGroups {
  let groupOf: Int32Array | null = null;
  let count = 1;
  for (const f of fields) {
    const { ids, n } = fieldIds(f, typed[f.sourcePos]!, length);
    if (groupOf === null) {
      groupOf = ids;
      count = n;
      continue;
    }
    // combine with the previous fields, then renumber densely
    const seen = new Map<number, number>();
    const prev: Int32Array = groupOf;
    for (let i = 0; i < length; i++) {
      const key = prev[i]! * n + ids[i]!;
      let g = seen.get(key);
      if (g === undefined) seen.set(key, (g = seen.size));
      prev[i] = g;
    }
    count = seen.size;
  }
  groupOf ??= new Int32Array(length);
  // ids are in order of first appearance per field, but combined groups may not be: renumber in row order
  const order = new Int32Array(count).fill(-1);
  const first: number[] = [];
  for (let i = 0; i < length; i++) {
    const g = groupOf[i]!;
    if (order[g] === -1) {
      order[g] = first.length;
      first.push(i);
    }
    groupOf[i] = order[g]!;
  }
  return { count: first.length, groupOf, first };
}

/** the partition tuple of row i, as the JS path computes it */
export function tupleAt(fields: readonly BoundPartitionField[], typed: readonly TypedColumn[], i: number): unknown[] {
  return fields.map((f) => f.transform.apply(typedValueAt(typed[f.sourcePos]!, i)));
}
