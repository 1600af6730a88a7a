/**
 * AggregateMemory: the accounting of a hash aggregate's group table (HashAggregateExec, the final merge of
 * partial states in PartialAggregateExec and in the exchange's merge tasks), called once per input batch:
 * the estimate of group-bytes.ts charged to the operator's reservation, so a table past the query's budget
 * fails with 53200 before it can exhaust the heap.
 */
import { GroupBytes, type AggregateShape } from './group-bytes.ts';
import type { MemoryReservation } from './memory-reservation.ts';

export type { AggregateShape } from './group-bytes.ts';

export class AggregateMemory {
  readonly #groups: GroupBytes;

  constructor(readonly reservation: MemoryReservation, plan: AggregateShape) {
    this.#groups = new GroupBytes(plan);
  }

  /** after a batch of `rows` input rows: charges the groups created since the last call (`groups` lists all) */
  afterBatch(rows: number, groups: readonly { readonly keys: readonly unknown[] }[]): void {
    this.afterGroups(rows, groups.length, (g) => groups[g]!.keys);
  }

  /** afterBatch for groups numbered 0 … groupCount-1 whose key values `keysOf(g)` gives (group-table.ts) */
  afterGroups(rows: number, groupCount: number, keysOf: (g: number) => readonly unknown[]): void {
    this.reservation.grow(this.#groups.add(rows, groupCount, keysOf));
  }

  release(): void {
    this.reservation.release();
  }
}
