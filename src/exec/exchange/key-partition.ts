/**
 * Which partition of a hash-partitioned final aggregate a group belongs to: hash(group key) mod P. Every
 * scan worker must send equal keys to the same partition, so the hash is taken over valueKey (the equality
 * of GroupLookup / rowKey: 1.50 and 1.5 share a key, int8 5 and int4 5 too, NULLs share one) and depends on
 * nothing but the value — not on the thread, the task or the order groups were met.
 */
import { valueKey } from '../../functions/index.ts';
import { fmix32, fnv1a } from '../hash-mix.ts';

const f64 = new Float64Array(1);
const i32 = new Int32Array(f64.buffer);

/** the hash of one key value folded into `h` */
function hashValue(oid: number, v: unknown, h: number): number {
  if (v === null || v === undefined) return Math.imul(h ^ 0x9e3779b9, 0x01000193);
  const k = valueKey(oid, v);
  if (typeof k === 'number') {
    // an integer's bits as a double: equal numbers (int4 5, int8 5n, 5.0) share them; -0 and NaN are normalised by valueKey
    f64[0] = k;
    return Math.imul(Math.imul(h ^ i32[0]!, 0x01000193) ^ i32[1]!, 0x01000193);
  }
  if (typeof k === 'boolean') return Math.imul(h ^ (k ? 2 : 1), 0x01000193);
  return fnv1a(typeof k === 'bigint' ? `b${k}` : k, h);
}

/** The partition (0 ≤ p < parts) of the group with these key values. */
export function keyPartition(keys: readonly unknown[], oids: readonly number[], parts: number): number {
  if (parts <= 1) return 0;
  let h = 0x811c9dc5;
  for (let c = 0; c < keys.length; c++) h = hashValue(oids[c] ?? 0, keys[c], h);
  return (fmix32(h) >>> 0) % parts;
}
