/**
 * Aggregate states across threads. A worker's AggregateState is a class instance (CountState, NumericSumState
 * holding a NumericSum, FloatStats, FoldState with its merge closure…); structured clone keeps only data. The
 * worker sends the states' own data fields (nested class instances flattened to paths, Numerics tagged by
 * cloneable.ts, closures left out), and the main thread pours them into a fresh state of the same aggregate
 * (def.create with the same argument and result types, so the closures are the same) before combine().
 */
import { Numeric } from '../../common/pgtypes/numeric.ts';
import type { AggregateState } from '../../functions/registry-types.ts';
import { fromCloneable, toCloneable } from '../../iceberg/parallel/cloneable.ts';

/** a class instance other than the value types of values.ts (Numeric) and arrays */
function isInstance(v: unknown): v is object {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || ArrayBuffer.isView(v) || v instanceof Map || Numeric.isNumeric(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto !== Object.prototype && proto !== null;
}

/**
 * Many states of one aggregate, column-wise: one array per data field (nested instances flattened to paths),
 * so structured clone copies a few arrays of plain values instead of an object graph per group — the cost that
 * matters when there are many groups. All states of one aggregate share a class, so the first one's fields
 * name the columns.
 */
export interface PackedStates {
  readonly paths: readonly (readonly string[])[];
  readonly columns: readonly (readonly unknown[])[];
  /** columns holding Numerics (tagged by cloneable.ts) */
  readonly tagged: readonly boolean[];
}

function pathsOf(o: object, prefix: readonly string[], out: string[][]): void {
  for (const [k, v] of Object.entries(o)) {
    if (typeof v === 'function') continue;
    if (isInstance(v)) pathsOf(v, [...prefix, k], out);
    else out.push([...prefix, k]);
  }
}

function at(o: unknown, path: readonly string[]): unknown {
  let x = o;
  for (const k of path) x = (x as Record<string, unknown>)[k];
  return x;
}

export function packStates(states: readonly AggregateState[]): PackedStates {
  const paths: string[][] = [];
  if (states.length > 0) pathsOf(states[0]!, [], paths);
  const columns: unknown[][] = [];
  const tagged: boolean[] = [];
  for (const p of paths) {
    const col = states.map((s) => at(s, p));
    const tag = col.some((v) => typeof v === 'object' && v !== null);
    columns.push(tag ? col.map(toCloneable) : col);
    tagged.push(tag);
  }
  return { paths, columns, tagged };
}

/** `fresh` with the data of state `g` of a PackedStates poured in. */
export function unpackStateInto<S extends AggregateState>(fresh: S, packed: PackedStates, g: number): S {
  for (let c = 0; c < packed.paths.length; c++) {
    const path = packed.paths[c]!;
    const v = packed.columns[c]![g];
    let target = fresh as unknown as Record<string, unknown>;
    for (let k = 0; k < path.length - 1; k++) target = target[path[k]!] as Record<string, unknown>;
    target[path[path.length - 1]!] = packed.tagged[c] ? fromCloneable(v) : v;
  }
  return fresh;
}
