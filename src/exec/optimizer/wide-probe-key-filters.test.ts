/**
 * wide_probe_key_filters over tables that claim TPC-H Q10's proportions (customer 150,000 rows with strings,
 * orders 1.5M, a filtered per-customer aggregate on the build side): which probe scan gets the wider key cap,
 * and the shapes it leaves alone. The answers (rule on and off, against PostgreSQL) are in
 * test/sql/join/wide-probe-key-filters.slt.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import { initParser, type LogicalPlan } from '../../sql/index.ts';
import { MemoryCatalog } from '../../sql/testing/memory-catalog.ts';
import { bindPlan, optimizeWith } from '../testing/optimizer-fixture.ts';
import { StrictTable } from '../testing/strict-table.ts';
import { scanKeyLimit } from '../runtime-key-filter.ts';
import { allPlanNodes } from './plan-rewrite.ts';

beforeAll(async () => { await initParser(); });

/** a table that claims `rows` rows (estimates read only that) */
class ClaimedTable extends StrictTable {
  constructor(columns: ConstructorParameters<typeof StrictTable>[0], private readonly claimed: number) { super(columns, []); }
  get estimatedRows(): number { return this.claimed; }
}

const col = (name: string, oid: number) => ({ name, type: sqlType(oid), nullable: true });

function catalog(): MemoryCatalog {
  const cat = new MemoryCatalog();
  const add = (name: string, cols: ReturnType<typeof col>[], rows: number): void => { cat.addRelation({ schema: 'public', name, source: new ClaimedTable(cols, rows) }); };
  add('cust', [col('ck', Oid.int4), col('name', Oid.varchar), col('nk', Oid.int4), col('bal', Oid.numeric)], 150_000);
  add('ord', [col('ok', Oid.int8), col('ck', Oid.int4), col('d', Oid.date), col('amt', Oid.numeric)], 1_500_000);
  return cat;
}

/** the key cap of the scan of `table` in `sql` optimized with every rule on (`on`) or with only this one off */
function capOf(sql: string, table: string, on: boolean): number {
  const cat = catalog();
  // optimizeWith switches off the one rule named: a name of no rule leaves them all on
  const plan: LogicalPlan = optimizeWith(cat, bindPlan(cat, sql), on ? 'none' : 'wide_probe_key_filters', false);
  const scan = allPlanNodes(plan).find((n) => n.kind === 'TableScan' && n.name.endsWith(table));
  if (scan === undefined) throw new Error(`no scan of ${table}`);
  // the key is the scan's first column (ck) in every query here
  return scanKeyLimit(scan, Oid.int4, 0);
}

const Q10 = `SELECT c.ck, c.name, s.rev FROM (SELECT ck, sum(amt) AS rev FROM ord WHERE d >= date '1993-10-01' AND d < date '1994-01-01' GROUP BY ck) s
  JOIN cust c ON c.ck = s.ck ORDER BY s.rev DESC LIMIT 20`;

describe('wide_probe_key_filters', () => {
  it('lets the string-reading probe scan under a filtered build side take 1 key per 2 rows (off: 1 per 16)', () => {
    expect(capOf(Q10, 'cust', false)).toBe(150_000 / 16);
    expect(capOf(Q10, 'cust', true)).toBe(75_000);
  });

  it('widens the cap for the marked key column only', () => {
    const cat = catalog();
    const plan = optimizeWith(cat, bindPlan(cat, Q10), 'none', false);
    const scan = allPlanNodes(plan).find((n) => n.kind === 'TableScan' && n.name.endsWith('cust'))!;
    expect(scanKeyLimit(scan, Oid.int4, 0)).toBe(75_000);
    expect(scanKeyLimit(scan, Oid.int4, 2)).toBe(150_000 / 16);
    expect(scanKeyLimit(scan, Oid.int4)).toBe(150_000 / 16);
  });

  it('leaves the cap of a scan that reads no string besides the key', () => {
    const sql = Q10.replace('c.name', 'c.nk');
    expect(capOf(sql, 'cust', true)).toBe(150_000 / 16);
  });

  it('leaves the cap when the build side is a whole table (its keys would keep every row)', () => {
    const sql = `SELECT c.ck, c.name, s.rev FROM (SELECT ck, sum(amt) AS rev FROM ord GROUP BY ck) s JOIN cust c ON c.ck = s.ck`;
    expect(capOf(sql, 'cust', true)).toBe(150_000 / 16);
  });

  it('leaves the preserved side of an outer join alone', () => {
    const sql = `SELECT c.ck, c.name, s.rev FROM cust c LEFT JOIN (SELECT ck, sum(amt) AS rev FROM ord WHERE d >= date '1993-10-01' GROUP BY ck) s ON c.ck = s.ck`;
    expect(capOf(sql, 'cust', true)).toBe(150_000 / 16);
  });
});
