/**
 * A hash join's distinct built keys as a runtime key filter's list (exec/runtime-key-filter.ts), read from the hash
 * table's own numbers (join-hash-table.ts keyNumbers) instead of a row per key: TPC-H Q3's 29,000 o_orderkey keys
 * at SF 0.2 were each looked up in a key-only column (a WeakMap lookup per key), made a BigInt, then checked and
 * stored into the list's typed words by markIntKeyList (iceberg/scan/int-key-list.ts) in a second pass. Here the
 * list and its words are made in one pass and marked together, so that later pass finds the list marked.
 */
import { Oid } from '../common/pgtypes/oids.ts';
import { markIntKeyListWords } from '../iceberg/scan/int-key-list.ts';
import type { JoinHashTable } from './join-hash-table.ts';

/**
 * the table's distinct keys as the values of a build key of type `oid` — bigints for int8, numbers for int2 /
 * int4 — marked as an integer key list; null when the table has no key numbers (two keys, or not an integer
 * table) or the type is another one (a date key's values are kept by the row path)
 */
export function builtKeyList(table: JoinHashTable, oid: number): unknown[] | null {
  if (oid !== Oid.int8 && oid !== Oid.int4 && oid !== Oid.int2) return null;
  const nums = table.keyNumbers();
  if (nums === null) return null;
  const m = nums.length;
  const values = new Array<unknown>(m);
  if (oid !== Oid.int8) {
    for (let i = 0; i < m; i++) values[i] = nums[i]!;
    markIntKeyListWords(values, nums);
    return values;
  }
  // the table's numbers are exact (safe integers): BigInt of each is the key itself
  const words = new BigInt64Array(m);
  for (let i = 0; i < m; i++) {
    const v = BigInt(nums[i]!);
    values[i] = v;
    words[i] = v;
  }
  markIntKeyListWords(values, words);
  return values;
}
