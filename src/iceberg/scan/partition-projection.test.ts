/**
 * Inclusive projections and the stats evaluator on hand-made summaries and tuples: NaN in float identity
 * partitions, pre-1970 time values widened by one, truncate prefixes longer than the width, bucket IN,
 * void and unknown transforms, truncated string bounds.
 */
import { describe, expect, it } from 'vitest';
import type { PartitionSpec } from '../spec/partition-spec.ts';
import type { IcebergType, PrimitiveType } from '../spec/schema.ts';
import { singleValueBytes, truncateStringLower, truncateStringUpper } from '../write/single-value-bytes.ts';
import { bindPredicates, type BoundPredicate } from './bound-predicate.ts';
import { partitionTupleStats, projectedFields, projectPredicate, summaryStats } from './partition-projection.ts';
import { mightMatch } from './stats-evaluator.ts';
import { Oid } from '../../common/pgtypes/oids.ts';

const P = (name: string): PrimitiveType => ({ kind: 'primitive', name });
const types: Record<number, IcebergType> = { 1: P('double'), 2: P('date'), 3: P('string'), 4: P('long'), 5: P('timestamptz') };
const spec: PartitionSpec = {
  specId: 0, fields: [
    { sourceId: 1, fieldId: 1000, name: 'x', transform: 'identity' },
    { sourceId: 2, fieldId: 1001, name: 'd_month', transform: 'month' },
    { sourceId: 3, fieldId: 1002, name: 's_trunc', transform: 'truncate[3]' },
    { sourceId: 4, fieldId: 1003, name: 'id_bucket', transform: 'bucket[8]' },
    { sourceId: 4, fieldId: 1004, name: 'id_null', transform: 'void' },
    { sourceId: 5, fieldId: 1005, name: 'ts_zorder', transform: 'zorder' },
  ],
};
const fields = projectedFields(spec, (id) => types[id]);
const cols = [1, 2, 3, 4, 5].map((id) => ({ field: { id, name: `c${id}`, required: false, type: types[id]! }, comparable: true }));
const bind = (p: Parameters<typeof bindPredicates>[0]): BoundPredicate => bindPredicates(p, cols);
const day = (s: string): number => Date.parse(`${s}T00:00:00Z`) / 86_400_000;

/** might a file whose partition tuple is `tuple` (raw Avro values by field id) match? */
function tupleMatch(filter: BoundPredicate, tuple: Record<number, unknown>): boolean {
  return mightMatch(projectPredicate(filter, fields), partitionTupleStats(new Map(Object.entries(tuple).map(([k, v]) => [Number(k), v])), fields));
}

describe('inclusive partition projection', () => {
  it('unknown transforms are ignored; void projects to TRUE', () => {
    expect(fields.map((f) => f.field.fieldId)).toEqual([1000, 1001, 1002, 1003, 1004]);
    expect(projectPredicate(bind([{ kind: 'compare', op: '=', column: 3, value: 5n }]), fields.filter((f) => f.field.fieldId === 1004))).toEqual({ kind: 'true' });
  });

  it('month: ranges and =, pre-1970 values widened by one (old writers rounded toward zero)', () => {
    const f = bind([{ kind: 'compare', op: '<', column: 1, value: day('2024-03-01') }]);
    expect(tupleMatch(f, { 1001: 650 })).toBe(true); // 2024-03: inclusive (the file's bounds prune it later)
    expect(tupleMatch(f, { 1001: 651 })).toBe(false);
    const old = bind([{ kind: 'compare', op: '=', column: 1, value: day('1969-11-15') }]);
    expect(tupleMatch(old, { 1001: -2 })).toBe(true);
    expect(tupleMatch(old, { 1001: -1 })).toBe(true); // a Java < 0.13 writer's value for 1969-11
    expect(tupleMatch(old, { 1001: 0 })).toBe(false);
  });

  it('truncate: prefixes up to the width stay prefixes, longer ones become = on the truncated prefix', () => {
    expect(tupleMatch(bind([{ kind: 'startsWith', column: 2, prefix: 'ap' }]), { 1002: 'apr' })).toBe(true);
    expect(tupleMatch(bind([{ kind: 'startsWith', column: 2, prefix: 'ap' }]), { 1002: 'ban' })).toBe(false);
    expect(tupleMatch(bind([{ kind: 'startsWith', column: 2, prefix: 'apricot' }]), { 1002: 'apr' })).toBe(true);
    expect(tupleMatch(bind([{ kind: 'startsWith', column: 2, prefix: 'apricot' }]), { 1002: 'app' })).toBe(false);
    expect(tupleMatch(bind([{ kind: 'compare', op: '>', column: 2, value: 'apq' }]), { 1002: 'apq' })).toBe(true);
    expect(tupleMatch(bind([{ kind: 'compare', op: '>', column: 2, value: 'apq' }]), { 1002: 'app' })).toBe(false);
  });

  it('bucket: = and IN only', () => {
    const f = bind([{ kind: 'in', column: 3, values: [1n, 2n] }]);
    const p = projectPredicate(f, fields);
    expect(p).toMatchObject({ kind: 'in', fieldId: 1003 });
    const buckets = (p as unknown as { values: number[] }).values;
    expect(tupleMatch(f, { 1003: buckets[0] })).toBe(true);
    expect(tupleMatch(f, { 1003: [0, 1, 2, 3, 4, 5, 6, 7].find((b) => !buckets.includes(b)) })).toBe(false);
    expect(projectPredicate(bind([{ kind: 'compare', op: '<', column: 3, value: 5n }]), fields)).toEqual({ kind: 'true' });
  });

  it('float identity partitions: NaN tuples and contains_nan summaries', () => {
    const gt = bind([{ kind: 'compare', op: '>', column: 0, value: 1 }]);
    const lt = bind([{ kind: 'compare', op: '<', column: 0, value: 1 }]);
    expect(tupleMatch(gt, { 1000: NaN })).toBe(true); // NaN > 1 in PostgreSQL
    expect(tupleMatch(lt, { 1000: NaN })).toBe(false);
    expect(tupleMatch(gt, { 1000: 0.5 })).toBe(false);
    const summary = (containsNan: boolean | null) => summaryStats([
      { containsNull: false, containsNan, lowerBound: singleValueBytes(P('double'), -1), upperBound: singleValueBytes(P('double'), 0.5) },
      ...spec.fields.slice(1).map(() => ({ containsNull: true, containsNan: null, lowerBound: null, upperBound: null })),
    ], spec, fields);
    expect(mightMatch(projectPredicate(gt, fields), summary(false))).toBe(false);
    expect(mightMatch(projectPredicate(gt, fields), summary(true))).toBe(true);
    expect(mightMatch(projectPredicate(gt, fields), summary(null))).toBe(true);
    expect(mightMatch(projectPredicate(bind([{ kind: 'isNull', column: 0 }]), fields), summary(false))).toBe(false);
  });

  it('truncated string bounds (16 code points, upper rounded up) never exclude a matching value', () => {
    const v = 'abcdefghijklmnopqrstuvwxyz';
    const stats = () => ({ lower: truncateStringLower('abcdefghijklmnopq-0'), upper: truncateStringUpper('abcdefghijklmnopzzzz')!, nullCount: 0 });
    for (const [op, value] of [['=', v], ['>', v], ['>=', 'abcdefghijklmnop~'], ['<', 'abcdefghijklmnopr']] as const) {
      const f = bind([{ kind: 'compare', op, column: 2, value }]);
      expect(mightMatch(f, () => stats()), `${op} ${value}`).toBe(true);
    }
    expect(mightMatch(bind([{ kind: 'startsWith', column: 2, prefix: 'abcdefghijklmnopz' }]), () => stats())).toBe(true);
    expect(mightMatch(bind([{ kind: 'compare', op: '>', column: 2, value: 'abcdefghijklmnoq' }]), () => stats())).toBe(false);
  });

  it('declared types compared differently than stored (bpchar, jsonb) only prune on NULLs', () => {
    const c = [{ field: { id: 3, name: 'b', required: false, type: P('string') }, comparable: Oid.bpchar !== Oid.bpchar }];
    expect(bindPredicates([{ kind: 'compare', op: '=', column: 0, value: 'a' }], c)).toEqual({ kind: 'true' });
    expect(bindPredicates([{ kind: 'isNull', column: 0 }], c)).toMatchObject({ kind: 'isNull', fieldId: 3 });
  });
});
