/**
 * How many keys a runtime key filter may carry into a scan: integer keys travel as one typed array and are
 * probed as a bitmap, so a big scan takes up to MAX_SCAN_INT_KEYS of them (TPC-H Q3 at SF1: 145,000 orders
 * keys into lineitem); other key types and filters below an aggregate keep the smaller cap.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Oid, sqlType } from '../common/pgtypes/oids.ts';
import { initParser, type Join, type LogicalPlan } from '../sql/index.ts';
import { MemoryCatalog } from '../sql/testing/memory-catalog.ts';
import { allPlanNodes } from './optimizer/plan-rewrite.ts';
import { bindPlan } from './testing/optimizer-fixture.ts';
import { StrictTable } from './testing/strict-table.ts';
import { resolvePredicate } from './optimizer/resolve-pushed.ts';
import { MAX_RUNTIME_FILTER_KEYS, MAX_SCAN_FILTER_KEYS, MAX_SCAN_INT_KEYS, MAX_WORKER_FRAGMENT_KEYS, scanKeyLimit, withKeyFilter } from './runtime-key-filter.ts';

beforeAll(async () => { await initParser(); });

/** a table that claims `rows` rows (the estimate is all the cap reads) */
class ClaimedTable extends StrictTable {
  constructor(columns: ConstructorParameters<typeof StrictTable>[0], private readonly claimed: number) { super(columns, []); }
  get estimatedRows(): number { return this.claimed; }
}

const col = (name: string, oid: number) => ({ name, type: sqlType(oid), nullable: false });

function catalog(factRows: number): MemoryCatalog {
  const cat = new MemoryCatalog();
  cat.addRelation({ schema: 'public', name: 'fact', source: new ClaimedTable([col('k8', Oid.int8), col('k4', Oid.int4), col('t', Oid.text), col('v', Oid.int4)], factRows) });
  cat.addRelation({ schema: 'public', name: 'dim', source: new ClaimedTable([col('k8', Oid.int8), col('k4', Oid.int4), col('t', Oid.text)], 1000) });
  return cat;
}

const joinOf = (cat: MemoryCatalog, sql: string): Join => allPlanNodes(bindPlan(cat, sql)).filter((n): n is Join => n.kind === 'Join').at(-1)!;
const eqOf = (j: Join) => {
  const c = j.condition!;
  if (c.kind !== 'Op') throw new Error('expected a = condition');
  return c;
};
const keys = (n: number, f: (i: number) => unknown): unknown[] => Array.from({ length: n }, (_, i) => f(i));
const scanOf = (p: LogicalPlan | undefined): Extract<LogicalPlan, { kind: 'TableScan' }> | undefined =>
  p === undefined ? undefined : allPlanNodes(p).find((n): n is Extract<LogicalPlan, { kind: 'TableScan' }> => n.kind === 'TableScan');

describe('runtime key filter caps', () => {
  it('lets integer keys into a big scan up to 1 key per 16 rows, capped at MAX_SCAN_INT_KEYS', () => {
    const scan = scanOf(bindPlan(catalog(6_000_000), 'SELECT * FROM fact'))!;
    expect(scanKeyLimit(scan, Oid.int8)).toBe(375_000);
    expect(scanKeyLimit(scan, Oid.int4)).toBe(375_000);
    expect(scanKeyLimit(scan, Oid.text)).toBe(MAX_RUNTIME_FILTER_KEYS);
    expect(scanKeyLimit(scan)).toBe(MAX_RUNTIME_FILTER_KEYS);
    const huge = scanOf(bindPlan(catalog(100_000_000), 'SELECT * FROM fact'))!;
    expect(scanKeyLimit(huge, Oid.int8)).toBe(MAX_SCAN_INT_KEYS);
    const small = scanOf(bindPlan(catalog(3_000), 'SELECT * FROM fact'))!;
    expect(scanKeyLimit(small, Oid.int8)).toBe(MAX_SCAN_FILTER_KEYS);
  });

  it('pushes 150,000 bigint keys into a 6M-row scan, but not 150,000 text keys', () => {
    const cat = catalog(6_000_000);
    const j = joinOf(cat, 'SELECT d.t FROM dim d JOIN fact f ON f.k8 = d.k8');
    const f = withKeyFilter(j.right, 0, eqOf(j), keys(150_000, (i) => BigInt(i * 4 + 1)));
    expect(f?.plan.kind).toBe('TableScan');
    const pushed = scanOf(f?.plan)?.filters?.at(-1);
    expect(pushed).toMatchObject({ kind: 'in', column: 0 });
    const resolved = pushed === undefined ? null : resolvePredicate(pushed, []);
    expect(resolved?.kind === 'in' ? resolved.values.length : 0).toBe(150_000);
    // past 1 key per 16 rows the filter keeps too much to pay
    expect(withKeyFilter(j.right, 0, eqOf(j), keys(380_000, (i) => BigInt(i)))).toBeNull();
    const t = joinOf(cat, 'SELECT d.t FROM dim d JOIN fact f ON f.t = d.t');
    expect(withKeyFilter(t.right, 2, eqOf(t), keys(150_000, (i) => `k${i}`))).toBeNull();
    expect(withKeyFilter(t.right, 2, eqOf(t), keys(90_000, (i) => `k${i}`))?.plan.kind).toBe('TableScan');
  });

  it('keeps the smaller cap below an aggregate (the keys become a Filter evaluated per row)', () => {
    const cat = catalog(6_000_000);
    const j = joinOf(cat, 'SELECT d.t, a.n FROM dim d JOIN (SELECT k4, count(*) AS n FROM fact GROUP BY k4) a ON a.k4 = d.k4');
    expect(withKeyFilter(j.right, 0, eqOf(j), keys(MAX_RUNTIME_FILTER_KEYS, (i) => i))).not.toBeNull();
    expect(withKeyFilter(j.right, 0, eqOf(j), keys(MAX_RUNTIME_FILTER_KEYS + 1, (i) => i))).toBeNull();
  });
  it('below an aggregate over a scan, no more keys than a scan filter could skip rows for (a whole table\'s keys)', () => {
    // TPC-H Q13 at SF 0.2 with orders counted per o_custkey: all 30,000 customers' keys against 300,000 orders
    // rows would drop no group and cost a probe per row
    const cat = catalog(300_000);
    const j = joinOf(cat, 'SELECT d.t, a.n FROM dim d JOIN (SELECT k4, count(*) AS n FROM fact GROUP BY k4) a ON a.k4 = d.k4');
    expect(withKeyFilter(j.right, 0, eqOf(j), keys(18_750, (i) => i))).not.toBeNull();
    expect(withKeyFilter(j.right, 0, eqOf(j), keys(30_000, (i) => i))).toBeNull();
  });

  it('takes an aggregate the scan workers run to the main thread past MAX_WORKER_FRAGMENT_KEYS keys', () => {
    // TPC-H Q21's per-order min/max (exists_pair_to_key_min_max): the workers' fragment got the key Filter with
    // every scan task; the scan below keeps the keys either way
    const cat = catalog(6_000_000);
    const j = joinOf(cat, 'SELECT d.t, a.n FROM dim d JOIN (SELECT k4, count(*) AS n FROM fact GROUP BY k4) a ON a.k4 = d.k4');
    const withPartial = (p: LogicalPlan): LogicalPlan => (p.kind === 'Aggregate' ? { ...p, workerPartial: true } : p.kind === 'Projection' ? { ...p, input: withPartial(p.input) } : p);
    const right = withPartial(j.right);
    const aggOf = (p: LogicalPlan | undefined) => (p === undefined ? undefined : allPlanNodes(p).find((n): n is Extract<LogicalPlan, { kind: 'Aggregate' }> => n.kind === 'Aggregate'));
    expect(aggOf(right)?.workerPartial).toBe(true);
    const few = withKeyFilter(right, 0, eqOf(j), keys(MAX_WORKER_FRAGMENT_KEYS, (i) => i));
    expect(aggOf(few?.plan)?.workerPartial).toBe(true);
    const many = withKeyFilter(right, 0, eqOf(j), keys(MAX_WORKER_FRAGMENT_KEYS + 1, (i) => i));
    expect(aggOf(many?.plan)?.workerPartial).toBeUndefined();
    expect(scanOf(many?.plan)?.filters?.length).toBe(1);
  });
});

/**
 * Integer keys pushed into a scan go as one array literal marked as an integer key list (iceberg/scan/int-key-list.ts):
 * resolving, binding and the plan cache key pass the same array on instead of walking it (TPC-H Q3's 29,000 orders
 * keys at SF 0.2 cost a third of its main thread as a literal node per key).
 */
describe('runtime key filter: integer keys as one key list', () => {
  const pushedOf = (f: ReturnType<typeof withKeyFilter>) => scanOf(f?.plan)?.filters?.at(-1);

  it('pushes bigint keys as one array literal that resolves to the same array', () => {
    const cat = catalog(6_000_000);
    const j = joinOf(cat, 'SELECT d.t FROM dim d JOIN fact f ON f.k8 = d.k8');
    const values = keys(20_000, (i) => BigInt(i * 3 + 7));
    const pushed = pushedOf(withKeyFilter(j.right, 0, eqOf(j), values));
    expect(pushed).toMatchObject({ kind: 'in', column: 0, values: { kind: 'Literal' } });
    const resolved = resolvePredicate(pushed!, []);
    expect(resolved?.kind === 'in' ? resolved.values : null).toBe(values);
  });

  it('pushes int4 keys the same way', () => {
    const cat = catalog(6_000_000);
    const j = joinOf(cat, 'SELECT d.t FROM dim d JOIN fact f ON f.k4 = d.k4');
    const values = keys(6_000, (i) => i * 2);
    const pushed = pushedOf(withKeyFilter(j.right, 1, eqOf(j), values));
    expect(pushed).toMatchObject({ kind: 'in', column: 1, values: { kind: 'Literal' } });
    const resolved = resolvePredicate(pushed!, []);
    expect(resolved?.kind === 'in' ? resolved.values : null).toBe(values);
  });

  it('keeps the per-value form for keys that are not all integers of one representation', () => {
    const cat = catalog(6_000_000);
    const j = joinOf(cat, 'SELECT d.t FROM dim d JOIN fact f ON f.k8 = d.k8');
    // a NULL among the keys (a hash join passes none, but the marker must not claim it): values checked one by one
    const withNull = [...keys(100, (i) => BigInt(i)), null];
    const pushed = pushedOf(withKeyFilter(j.right, 0, eqOf(j), withNull));
    expect(pushed !== undefined && 'values' in pushed && Array.isArray(pushed.values)).toBe(true);
    // up to 64 keys: the per-value form a Filter above an exactly judged scan may skip (scan-judged-filter.ts)
    const few = pushedOf(withKeyFilter(j.right, 0, eqOf(j), keys(64, (i) => BigInt(i))));
    expect(few !== undefined && 'values' in few && Array.isArray(few.values) ? few.values.length : 0).toBe(64);
    const t = joinOf(cat, 'SELECT d.t FROM dim d JOIN fact f ON f.t = d.t');
    const text = pushedOf(withKeyFilter(t.right, 2, eqOf(t), keys(100, (i) => `k${i}`)));
    expect(text !== undefined && 'values' in text && Array.isArray(text.values)).toBe(true);
  });
});
