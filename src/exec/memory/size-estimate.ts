/**
 * Cheap, approximate sizes of values, rows and batches on the V8 heap, for memory accounting. A batch is
 * estimated per column from a few sampled values (not per value), so accounting costs a few dozen checks per
 * 4096-row batch. Sizes follow V8 on 64-bit: 8-byte slots, heap numbers, strings at 2 bytes per character
 * (the two-byte case: an overestimate for ASCII text, which keeps the estimate on the safe side).
 */
import type { Batch } from '../../common/batch.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { KEY_ONLY_INT64 } from '../../common/pgtypes/exact-int64-column.ts';
import { isSparseNumerics } from '../../common/pgtypes/numeric-column.ts';

/** a pointer in an array or an object field */
export const SLOT_BYTES = 8;
/** an object or array header (map, properties, elements / length) */
export const OBJECT_BYTES = 24;
/** one entry of a Map or Set (hash table slot, key, value, chain) */
export const MAP_ENTRY_BYTES = 40;

const NUMBER_BYTES = 8;
const STRING_HEADER_BYTES = 16;
const BIGINT_BYTES = 24;
/** a Numeric: the object (kind, unscaled, scale, brand) plus its bigint */
const NUMERIC_BYTES = 56 + BIGINT_BYTES;
const TYPED_ARRAY_BYTES = 96;
/** values sampled per column of a batch */
const SAMPLES = 8;

/** heap bytes of one value, not counting the slot that points at it */
export function estimateValueBytes(v: unknown): number {
  switch (typeof v) {
    case 'number': return NUMBER_BYTES;
    case 'string': return STRING_HEADER_BYTES + 2 * v.length;
    case 'bigint': return BIGINT_BYTES;
    case 'boolean': case 'undefined': return 0;
    case 'object': return v === null ? 0 : objectBytes(v);
    default: return OBJECT_BYTES;
  }
}

function objectBytes(v: object): number {
  // a key-only int8 (exact-int64-column.ts): one shared placeholder standing for a double in the attached array
  if (v === KEY_ONLY_INT64) return NUMBER_BYTES;
  if (Numeric.isNumeric(v)) return NUMERIC_BYTES;
  if (v instanceof Uint8Array) return TYPED_ARRAY_BYTES + v.byteLength;
  const values = (v as { values?: unknown }).values;
  // PgArray / PgRecord: header, a few fields, and the elements
  if (Array.isArray(values)) return OBJECT_BYTES * 3 + estimateArrayBytes(values, values.length);
  // Interval, TimeTz and other small records
  return OBJECT_BYTES + 4 * SLOT_BYTES + BIGINT_BYTES;
}

/** an array of `n` values: header, slots, and the values' payload estimated from up to 8 samples */
export function estimateArrayBytes(values: readonly unknown[], n: number = values.length): number {
  if (n <= 0) return OBJECT_BYTES;
  // a sparse lazy decimal column holds its attached doubles only (pgtypes/numeric-column.ts); a sampled read
  // would make every row's Numeric (self-materializing) or throw
  if (isSparseNumerics(values)) return OBJECT_BYTES + n * NUMBER_BYTES;
  let payload = 0;
  if (n <= SAMPLES) {
    for (let i = 0; i < n; i++) payload += estimateValueBytes(values[i]);
  } else {
    const step = (n - 1) / (SAMPLES - 1);
    let sum = 0;
    for (let k = 0; k < SAMPLES; k++) sum += estimateValueBytes(values[Math.round(k * step)]);
    payload = (sum / SAMPLES) * n;
  }
  return OBJECT_BYTES + n * SLOT_BYTES + Math.ceil(payload);
}

/** a columnar batch: every column array with its values */
export function estimateBatchBytes(b: Batch): number {
  let bytes = OBJECT_BYTES * 2;
  const cols = b.columns;
  for (let c = 0; c < cols.length; c++) bytes += estimateArrayBytes(cols[c]!, b.length);
  return bytes;
}

/** one row held as an array (sort runs, buffered rows) */
export function estimateRowBytes(row: readonly unknown[]): number {
  let bytes = OBJECT_BYTES + row.length * SLOT_BYTES;
  for (let i = 0; i < row.length; i++) bytes += estimateValueBytes(row[i]);
  return bytes;
}

/** a batch turned into `b.length` row arrays: the values plus one array header per row */
export function estimateBatchAsRowsBytes(b: Batch): number {
  return estimateBatchBytes(b) + b.length * OBJECT_BYTES;
}

/** a string key kept in a Set or Map (DISTINCT, UNION, INTERSECT/EXCEPT, window partitions) */
export function estimateKeyEntryBytes(key: string): number {
  return MAP_ENTRY_BYTES + STRING_HEADER_BYTES + 2 * key.length;
}
