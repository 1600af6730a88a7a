/**
 * GroupBytes: the estimated heap bytes of a hash aggregate's group table as it grows, batch by batch. A group
 * costs its key values plus fixed overhead (hash-table entries per key column, the group and its aggregate
 * states); an aggregate that keeps its input (array_agg, string_agg, json[b]_agg, ordered-set aggregates,
 * ORDER BY or DISTINCT inside the call) costs per stepped row as well. Key sizes are sampled per batch (8 of
 * its new groups). AggregateMemory charges these bytes to a reservation; a scan worker's partial aggregate
 * uses them alone to decide when to flush its groups (exec/partial/run-fragment.ts).
 */
import { MAP_ENTRY_BYTES, OBJECT_BYTES, SLOT_BYTES, estimateRowBytes } from './size-estimate.ts';

const COLLECTING = new Set(['array_agg', 'string_agg', 'json_agg', 'jsonb_agg', 'json_object_agg', 'jsonb_object_agg', 'xmlagg',
  'percentile_cont', 'percentile_disc', 'mode', 'json_agg_strict', 'jsonb_agg_strict', 'json_objectagg', 'json_arrayagg']);
/** one aggregate state object with a few fields */
const STATE_BYTES = 96;
/** a value a collecting aggregate keeps, with its slot in the state's list */
const COLLECTED_ROW_BYTES = 64;
/** new groups whose keys are measured per batch */
const SAMPLES = 8;

/** what the estimate reads of an Aggregate plan node (sql/ Aggregate has it; so does a worker fragment, rebuilt) */
export interface AggregateShape {
  readonly groupKeys: { readonly length: number };
  readonly aggregates: readonly {
    readonly distinct: boolean;
    readonly orderBy: { readonly length: number };
    readonly def: { readonly name: string };
  }[];
}

export class GroupBytes {
  #groupsSeen = 0;
  #bytes = 0;
  readonly #groupBytes: number;
  readonly #collecting: number;

  constructor(plan: AggregateShape) {
    const nKeys = plan.groupKeys.length;
    const aggs = plan.aggregates;
    const distinct = aggs.filter((a) => a.distinct).length;
    // group object + key array + aggs array + per aggregate (slot object + state) + hash entries + DISTINCT sets
    this.#groupBytes = OBJECT_BYTES * 3 + 3 * SLOT_BYTES + aggs.length * (OBJECT_BYTES + 3 * SLOT_BYTES + STATE_BYTES)
      + Math.max(1, nKeys) * (MAP_ENTRY_BYTES + OBJECT_BYTES) + distinct * 2 * OBJECT_BYTES;
    this.#collecting = aggs.filter((a) => COLLECTING.has(a.def.name) || a.distinct || a.orderBy.length > 0).length;
  }

  /** one group's fixed cost, key values not included */
  get perGroup(): number { return this.#groupBytes; }

  /** the estimated bytes of everything counted since construction or the last reset */
  get bytes(): number { return this.#bytes; }

  /**
   * After a batch of `rows` input rows, with groups numbered 0 … groupCount-1 whose key values `keysOf(g)`
   * gives: the bytes the groups created since the last call (and collected rows) added.
   */
  add(rows: number, groupCount: number, keysOf: (g: number) => readonly unknown[]): number {
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
    this.#bytes += bytes;
    return bytes;
  }

  /** the group table was emptied: counting starts again from no groups */
  reset(): void {
    this.#groupsSeen = 0;
    this.#bytes = 0;
  }
}
