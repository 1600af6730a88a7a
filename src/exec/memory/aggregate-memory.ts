/**
 * AggregateMemory: the accounting of HashAggregateExec, called once per input batch. A group costs its key
 * values plus fixed overhead (hash-table entries per key column, the group and its aggregate states); an
 * aggregate that keeps its input (array_agg, string_agg, json[b]_agg, ordered-set aggregates, ORDER BY or
 * DISTINCT inside the call) costs per stepped row as well. Key sizes are sampled per batch (8 of its new groups).
 */
import type { Aggregate } from '../../sql/index.ts';
import type { MemoryReservation } from './memory-reservation.ts';
import { MAP_ENTRY_BYTES, OBJECT_BYTES, SLOT_BYTES, estimateRowBytes } from './size-estimate.ts';

const COLLECTING = new Set(['array_agg', 'string_agg', 'json_agg', 'jsonb_agg', 'json_object_agg', 'jsonb_object_agg', 'xmlagg',
  'percentile_cont', 'percentile_disc', 'mode', 'json_agg_strict', 'jsonb_agg_strict', 'json_objectagg', 'json_arrayagg']);
/** one aggregate state object with a few fields */
const STATE_BYTES = 96;
/** a value a collecting aggregate keeps, with its slot in the state's list */
const COLLECTED_ROW_BYTES = 64;
/** new groups whose keys are measured per batch */
const SAMPLES = 8;

export class AggregateMemory {
  #groupsSeen = 0;
  readonly #groupBytes: number;
  readonly #collecting: number;

  constructor(readonly reservation: MemoryReservation, plan: Aggregate) {
    const nKeys = plan.groupKeys.length;
    const aggs = plan.aggregates;
    const distinct = aggs.filter((a) => a.distinct).length;
    // group object + key array + aggs array + per aggregate (slot object + state) + hash entries + DISTINCT sets
    this.#groupBytes = OBJECT_BYTES * 3 + 3 * SLOT_BYTES + aggs.length * (OBJECT_BYTES + 3 * SLOT_BYTES + STATE_BYTES)
      + Math.max(1, nKeys) * (MAP_ENTRY_BYTES + OBJECT_BYTES) + distinct * 2 * OBJECT_BYTES;
    this.#collecting = aggs.filter((a) => COLLECTING.has(a.def.name) || a.distinct || a.orderBy.length > 0).length;
  }

  /** after a batch of `rows` input rows: charges the groups created since the last call (`groups` lists all) */
  afterBatch(rows: number, groups: readonly { readonly keys: readonly unknown[] }[]): void {
    this.afterGroups(rows, groups.length, (g) => groups[g]!.keys);
  }

  /** afterBatch for groups numbered 0 … groupCount-1 whose key values `keysOf(g)` gives (group-table.ts) */
  afterGroups(rows: number, groupCount: number, keysOf: (g: number) => readonly unknown[]): void {
    let bytes = this.#collecting * rows * COLLECTED_ROW_BYTES;
    const from = this.#groupsSeen;
    const fresh = groupCount - from;
    if (fresh > 0) {
      // key sizes from up to 8 of the new groups, not one estimate per group
      const samples = Math.min(SAMPLES, fresh);
      const step = fresh / samples;
      let keys = 0;
      for (let k = 0; k < samples; k++) keys += estimateRowBytes(keysOf(from + Math.floor(k * step)));
      bytes += fresh * (this.#groupBytes + keys / samples);
    }
    this.#groupsSeen = groupCount;
    this.reservation.grow(bytes);
  }

  release(): void {
    this.reservation.release();
  }
}
