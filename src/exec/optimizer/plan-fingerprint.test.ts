/**
 * PlanFingerprints: equal subtrees get equal numbers, different ones different numbers, and an object every
 * node above a scan repeats (its PlanColumns) is spelled out once per plan, not once per node that holds it —
 * the O(depth × columns) text that made share_repeated_subplans TPC-H Q2's most expensive rule.
 */
import { describe, expect, it } from 'vitest';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import type { LogicalPlan, PlanColumn } from '../../sql/index.ts';
import { PlanFingerprints } from './plan-fingerprint.ts';

const source = { estimatedRows: 10 } as unknown as Extract<LogicalPlan, { kind: 'TableScan' }>['source'];

/** a PlanColumn whose own keys are listed through a counter (a Proxy keeps it a plain object) */
function countedColumn(name: string, reads: { n: number }): PlanColumn {
  const col: PlanColumn = { name, type: sqlType(Oid.int4), nullable: true } as PlanColumn;
  return new Proxy(col, { ownKeys: (t) => { reads.n++; return Reflect.ownKeys(t); } });
}

function scan(columns: readonly PlanColumn[]): LogicalPlan {
  return { kind: 'TableScan', source, name: 'public.t', tableOid: 1, columns };
}

/** `depth` Filters over one scan, each passing the scan's columns on as a new array of the same objects */
function filters(depth: number, columns: readonly PlanColumn[], literal = 1): LogicalPlan {
  let p = scan(columns);
  for (let i = 0; i < depth; i++) {
    const predicate = { kind: 'Literal', value: i === depth - 1 ? literal : true, type: sqlType(Oid.bool) };
    p = { kind: 'Filter', input: p, predicate, columns: [...columns] } as unknown as LogicalPlan;
  }
  return p;
}

describe('PlanFingerprints', () => {
  it('numbers equal subtrees alike and different ones apart', () => {
    const cols = [countedColumn('a', { n: 0 })];
    const prints = new PlanFingerprints();
    expect(prints.of(filters(3, cols))).toBe(prints.of(filters(3, cols)));
    expect(prints.of(filters(3, cols))).not.toBe(prints.of(filters(3, cols, 2)));
    expect(prints.of(filters(3, cols))).not.toBe(prints.of(filters(2, cols)));
  });

  it('spells out a column the nodes above a scan repeat once, not once per node', () => {
    const reads = { n: 0 };
    const cols = Array.from({ length: 8 }, (_, i) => countedColumn(`c${i}`, reads));
    new PlanFingerprints().of(filters(20, cols));
    // once per column object (was 21 per column: the scan and every Filter)
    expect(reads.n).toBe(cols.length);
  });
});
