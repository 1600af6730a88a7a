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
import { int64Number, materializeColumn, typedValueAt, type TypedColumn } from './typed-columns.ts';

export interface RowGroups {
  /** number of distinct partition tuples in the batch */
  readonly count: number;
  /** group of each row, 0 … count − 1 (in order of first appearance) */
  readonly groupOf: Int32Array;
  /** first row of each group */
  readonly first: readonly number[];
}

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

function mixK1(k: number): number {
  return Math.imul(rotl(Math.imul(k, C1), 15), C2);
}
const rotl = (x: number, r: number): number => (x << r) | (x >>> (32 - r));
function mixH1(h: number, k: number): number {
  return (Math.imul(rotl(h ^ k, 13), 5) + 0xe6546b64) | 0;
}
function fmix(h: number, n: number): number {
  h ^= n;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/** murmur3_x86_32 (seed 0) of the 8-byte little-endian long (hi, lo): Iceberg's hash of int/long/date */
export function murmurLong(lo: number, hi: number): number {
  return fmix(mixH1(mixH1(0, mixK1(lo | 0)), mixK1(hi | 0)), 8);
}

/** murmur3_x86_32 (seed 0) of data[start, end) */
export function murmurRange(data: Uint8Array, start: number, end: number): number {
  let h = 0;
  const n = end - start;
  const blocks = start + (n & ~3);
  let i = start;
  for (; i < blocks; i += 4) h = mixH1(h, mixK1(data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24)));
  let k1 = 0;
  switch (n & 3) {
    case 3: k1 ^= data[i + 2]! << 16; // falls through
    case 2: k1 ^= data[i + 1]! << 8; // falls through
    case 1: k1 ^= data[i]!; h ^= mixK1(k1);
  }
  return fmix(h, n);
}

/** days since 1970-01-01 → months since 1970-01 (Howard Hinnant's civil_from_days) */
export function monthOfDays(days: number): number {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return (y - 1970) * 12 + m - 1;
}

const floorMod = (a: number, b: number): number => ((a % b) + b) % b;

/** the partition value of valid row i as a number, for the transforms computed from int32 buffers; null: not here */
function int32Fn(f: BoundPartitionField, domain: 'int' | 'date'): ((v: number) => number) | null {
  const t = f.transform;
  const src = domain;
  switch (t.name) {
    case 'identity': return (v) => v;
    case 'bucket': { const n = t.param!; return (v) => (murmurLong(v, v < 0 ? -1 : 0) & 0x7fffffff) % n; }
    case 'truncate': { const w = t.param!; return src === 'int' ? (v) => v - floorMod(v, w) : null; }
    case 'day': return src === 'date' ? (v) => v : null;
    case 'month': return src === 'date' ? monthOfDays : null;
    case 'year': return src === 'date' ? (v) => Math.floor(monthOfDays(v) / 12) : null;
    default: return null;
  }
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
    const { values, validity } = col;
    let lastV = 0;
    let lastId = -1;
    for (let i = 0; i < length; i++) {
      if (!isValid(validity, i)) ids[i] = idOf(NULL_KEY);
      else if (lastId >= 0 && values[i] === lastV) ids[i] = lastId;
      else ids[i] = lastId = idOf(fn((lastV = values[i]!)));
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
