/**
 * An all-NULL column of `n` rows without `n` slots: what late materialization hands on for a filter column nobody
 * reads from an exactly judged batch (ChunkFilter.unreadWhenExact: TPC-H q1's l_shipdate, 98 % of lineitem). A
 * filled array cost q1's scan workers 9.3 MB per pass at SF 0.2 (8 bytes a row, every batch). Here the array holds
 * one element, its last (an element past the end of an empty array keeps V8's array in dictionary mode: no backing
 * store of n slots), and every hole reads as NULL through its prototype — so a reader the verdict did not foresee
 * still sees NULLs, as it did from the filled array, only slower.
 */

import { holeProto, oneSlotArray } from '../../common/one-slot-array.ts';

/** a hole reads as NULL (common/one-slot-array.ts) */
const NULLS_PROTO = holeProto(() => null);

/** `n` NULLs, as few slots as V8 allows (see the header) */
export function unreadNulls(n: number): unknown[] {
  return oneSlotArray(n, null, NULLS_PROTO);
}
