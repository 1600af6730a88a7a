/**
 * Scan-worker side of a hash-partitioned final aggregate: a task's partial groups (run-fragment.ts) split
 * into P sets by keyPartition, each column-wise — key columns and every state field as a WireColumn — so
 * the main thread only routes set i to merge task i (merge-partition.ts) and moves the buffers on, with no
 * work per group on its side.
 */
import type { AggregateState } from '../../functions/registry-types.ts';
import { packStates } from '../partial/state-wire.ts';
import { keyPartition } from './key-partition.ts';
import { buffersOf, packColumn, type WireColumn } from './wire-column.ts';

/** packed states of one aggregate: state field paths (state-wire.ts) and one column per path */
export interface WireStates {
  readonly paths: readonly (readonly string[])[];
  readonly columns: readonly WireColumn[];
}

/** one partition's groups of one task */
export interface PartitionGroups {
  readonly count: number;
  readonly keys: readonly WireColumn[];
  readonly states: readonly WireStates[];
}

/** what a scan task returns when its fragment is partitioned: `parts[p]` for partition p */
export interface PartitionedPartial {
  readonly partitioned: true;
  /** groups before partitioning (the judge of partial-aggregate-exec.ts counts them) */
  readonly count: number;
  readonly parts: readonly PartitionGroups[];
  /** sets packed earlier in the task, when the worker flushed its group table (run-fragment.ts), in order */
  readonly earlier?: readonly PartitionedPartial[];
}

export function isPartitionedPartial(v: unknown): v is PartitionedPartial {
  return typeof v === 'object' && v !== null && (v as Partial<PartitionedPartial>).partitioned === true;
}

interface Group {
  readonly keys: readonly unknown[];
  readonly states: readonly AggregateState[];
}

function packGroups(groups: readonly Group[], width: number, aggs: number, transfer: ArrayBufferLike[]): PartitionGroups {
  const keys: WireColumn[] = [];
  for (let c = 0; c < width; c++) keys.push(packColumn(groups.map((g) => g.keys[c]), transfer));
  const states: WireStates[] = [];
  for (let a = 0; a < aggs; a++) {
    // packStates tags Numerics inside state fields; those columns stay cloned
    const p = packStates(groups.map((g) => g.states[a]!));
    states.push({
      paths: p.paths,
      columns: p.columns.map((col, k) => (p.tagged[k] ? { kind: 'cloned', values: col, tagged: true } : packColumn(col, transfer))),
    });
  }
  return { count: groups.length, keys, states };
}

/** Splits `groups` (in the order met) into `parts` partitions by key; the buffers to move go to `transfer`. */
export function partitionGroups(
  groups: readonly Group[],
  keyOids: readonly number[],
  aggs: number,
  parts: number,
  transfer: ArrayBufferLike[],
): PartitionedPartial {
  const byPart: Group[][] = Array.from({ length: parts }, () => []);
  for (const g of groups) byPart[keyPartition(g.keys, keyOids, parts)]!.push(g);
  return { partitioned: true, count: groups.length, parts: byPart.map((gs) => packGroups(gs, keyOids.length, aggs, transfer)) };
}

/** The transferable buffers of partition sets (main thread: moved on to the merge task). */
export function buffersOfGroups(sets: readonly PartitionGroups[]): ArrayBufferLike[] {
  const out: ArrayBufferLike[] = [];
  for (const s of sets) {
    buffersOf(s.keys, out);
    for (const st of s.states) buffersOf(st.columns, out);
  }
  return out;
}
