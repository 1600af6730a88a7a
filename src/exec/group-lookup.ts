/**
 * GroupLookup: finds the group of one row for a hash aggregate with one grouping set, without building a
 * key string or array per row. Keys are hashed per column with valueKey (the same equality as tupleKey /
 * rowKey: values equal under compareValues share a key, NULLs share one) into nested Maps, one level per
 * key column; the row's key values are copied only when a new group starts. A row whose key values are the
 * previous row's (clustered input) takes the previous row's group without hashing.
 */
import { valueKey } from '../functions/index.ts';
import type { Cols, RowFn } from './expr/compile-expr.ts';

const NULL_KEY = Symbol('NULL');

type Level = Map<unknown, unknown>;

export class GroupLookup<G> {
  readonly #fns: readonly RowFn[];
  readonly #oids: readonly number[];
  readonly #scratch: unknown[];
  readonly #root: Level = new Map();
  #only: G | undefined = undefined;
  /** the previous row's key values and group */
  readonly #last: unknown[];
  #lastGroup: G | undefined = undefined;

  /** `create` receives the new group's key values (a fresh array it may keep) */
  constructor(fns: readonly RowFn[], oids: readonly number[], private readonly create: (keys: unknown[]) => G) {
    this.#fns = fns;
    this.#oids = oids;
    this.#scratch = new Array<unknown>(fns.length);
    this.#last = new Array<unknown>(fns.length);
  }

  find(cols: Cols, i: number): G {
    const fns = this.#fns;
    const n = fns.length;
    if (n === 0) return (this.#only ??= this.create([]));
    const scratch = this.#scratch, last = this.#last;
    // a row repeating the previous row's key values (===, so equal keys; clustered input) is in its group
    let same = this.#lastGroup !== undefined;
    for (let k = 0; k < n; k++) {
      const v = fns[k]!(cols, i);
      scratch[k] = v;
      if (v !== last[k]) same = false;
    }
    if (same) return this.#lastGroup!;
    let level = this.#root;
    for (let k = 0; k < n - 1; k++) {
      const v = scratch[k];
      const hk = v === null || v === undefined ? NULL_KEY : valueKey(this.#oids[k] ?? 0, v);
      let next = level.get(hk) as Level | undefined;
      if (next === undefined) { next = new Map(); level.set(hk, next); }
      level = next;
    }
    const v = scratch[n - 1];
    const hk = v === null || v === undefined ? NULL_KEY : valueKey(this.#oids[n - 1] ?? 0, v);
    let g = level.get(hk) as G | undefined;
    if (g === undefined) {
      g = this.create(scratch.slice());
      level.set(hk, g);
    }
    for (let k = 0; k < n; k++) last[k] = scratch[k];
    this.#lastGroup = g;
    return g;
  }
}
