/**
 * PartialMerge: the main thread's side of a partial aggregate run in the scan workers (run-fragment.ts). Packs
 * of partial groups are combined in task order: their keys numbered by one GroupTable (typed keys, as the main
 * thread's own hash aggregate: no key string or Map entry per group, new groups in first-seen order), counts and
 * numeric sums / avgs that came as typed arrays added into GroupStates' typed arrays (no state object per group),
 * and packed state objects poured into fresh states and combined by group id.
 */
import type { AggregateState, EvalContext } from '../../functions/registry-types.ts';
import { fromCloneable } from '../../iceberg/parallel/cloneable.ts';
import { GroupStates, type GroupStateSpec } from '../expr/group-states.ts';
import { GroupTable } from '../group-table.ts';
import type { PartialGroups } from './run-fragment.ts';
import { unpackStateInto } from './state-wire.ts';
import { int8KeyColumn } from './int8-key-wire.ts';

/** key column c of `part` as the group table reads it (an int8 column as exact doubles, no BigInt per group) */
function keyColumnOf(part: PartialGroups, c: number, col: readonly unknown[], n: number): readonly unknown[] {
  const wire = part.int8Keys?.[c];
  if (wire !== undefined && wire !== null) return int8KeyColumn(wire, n);
  return part.keysTagged[c] ? col.map(fromCloneable) : col;
}

export class PartialMerge {
  readonly #table: GroupTable;
  /** the typed counts and sums of aggregates whose kind is 'count' or 'sum' (their state objects made here too) */
  readonly #typed: GroupStates;
  /** per aggregate of another kind: its state by group id */
  readonly #objects: AggregateState[][];
  readonly #inTyped: readonly boolean[];
  #gids = new Int32Array(0);

  constructor(keyOids: readonly number[], private readonly specs: readonly GroupStateSpec[], private readonly ctx: EvalContext) {
    this.#table = new GroupTable(keyOids);
    this.#typed = new GroupStates(specs, ctx);
    this.#inTyped = this.#typed.kinds.map((k) => k === 'count' || k === 'sum');
    this.#objects = specs.map(() => []);
  }

  /** merged groups so far */
  get size(): number { return this.#table.size; }

  /** the first value seen of group g's key column c */
  keyAt(c: number, g: number): unknown { return this.#table.keyAt(c, g); }

  /** the key values of group g */
  keysOf(g: number): unknown[] { return this.#table.keysOf(g); }

  /** combines one pack of partial groups (new keys numbered after the others) */
  add(part: PartialGroups): void {
    const n = part.count;
    if (n === 0) return;
    if (this.#gids.length < n) this.#gids = new Int32Array(n);
    const gids = this.#gids;
    this.#table.assign(part.keys.map((col, c) => keyColumnOf(part, c, col, n)), n, gids);
    const gs = this.#typed;
    gs.ensure(this.#table.size);
    for (let k = 0; k < this.specs.length; k++) {
      const typed = part.typed?.[k];
      if (typed !== undefined) {
        if (!this.#inTyped[k]) throw new Error('internal error: typed partial states of an aggregate that keeps state objects');
        gs.mergeTyped(k, gids, n, typed);
        continue;
      }
      const spec = this.specs[k]!, packed = part.states[k]!;
      const objects = this.#objects[k]!;
      for (let g = 0; g < n; g++) {
        const s = unpackStateInto(spec.def.create(this.ctx, spec.argTypes, spec.type), packed, g);
        const id = gids[g]!;
        if (this.#inTyped[k]) { gs.state(k, id).combine!(s); continue; }
        const known = objects[id];
        if (known === undefined) objects[id] = s;
        else known.combine!(s);
      }
    }
  }

  /** the result of aggregate k for group g (a group never merged: the aggregate over no rows) */
  final(k: number, g: number): unknown {
    if (this.#inTyped[k]) return this.#typed.final(k, g);
    const s = this.#objects[k]![g];
    if (s !== undefined) return s.final() ?? null;
    const spec = this.specs[k]!;
    return spec.def.create(this.ctx, spec.argTypes, spec.type).final() ?? null;
  }
}
