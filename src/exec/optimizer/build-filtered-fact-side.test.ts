/**
 * build_filtered_fact_side over tables that claim TPC-H Q9's proportions (lineitem 6M rows, part 200,000, orders
 * 1.5M): the join with all of orders builds the part-filtered lineitem side, and the orders scan may take a wide
 * key filter; the shapes it leaves alone. The answers: TPC-H Q9 (bench/tpch.ts checks them against PostgreSQL).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import { initParser, type Join, type LogicalPlan } from '../../sql/index.ts';
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
  add('li', [col('ok', Oid.int8), col('pk', Oid.int4), col('qty', Oid.numeric)], 6_000_000);
  add('part', [col('pk', Oid.int4), col('name', Oid.varchar)], 200_000);
  add('ord', [col('ok', Oid.int8), col('d', Oid.date), col('st', Oid.bpchar)], 1_500_000);
  return cat;
}

interface OrdersJoin { readonly join: Join; readonly scan: LogicalPlan }

/** the join one of whose inputs is the scan of ord, with only this rule run on the bound plan (`on`) or none */
function ordersJoin(sql: string, on: boolean): OrdersJoin {
  const cat = catalog();
  // alone: only the rule named runs (the build sides the other rules choose would hide the case at this scale)
  const plan = on ? optimizeWith(cat, bindPlan(cat, sql), 'build_filtered_fact_side', true) : bindPlan(cat, sql);
  const isOrd = (p: LogicalPlan): boolean => p.kind === 'TableScan' && p.name.endsWith('ord');
  const join = allPlanNodes(plan).find((n): n is Join => n.kind === 'Join' && (isOrd(n.left) || isOrd(n.right)));
  if (join === undefined) throw new Error('no join with ord');
  return { join, scan: isOrd(join.left) ? join.left : join.right };
}

/** Q9's shape: a lineitem side cut to 1/9 by filters (Q9's part filter is estimated at 1/4, keeps 1/18) joined with all orders */
const Q9 = `SELECT o.d, l.qty FROM (SELECT * FROM li WHERE pk < 100 AND qty < 5) l JOIN ord o ON o.ok = l.ok`;

describe('build_filtered_fact_side', () => {
  it('builds the filtered lineitem side and lets the whole orders scan take 1 key per 2 rows (off: orders built)', () => {
    const off = ordersJoin(Q9, false);
    expect(off.join.right).toBe(off.scan);
    expect(off.join.buildSide).not.toBe('left');
    expect(scanKeyLimit(off.scan, Oid.int8, 0)).toBe(1_500_000 / 16);
    const on = ordersJoin(Q9, true);
    expect(on.join.right).toBe(on.scan);
    expect(on.join.buildSide).toBe('left');
    expect(scanKeyLimit(on.scan, Oid.int8, 0)).toBe(400_000);
    // only the join key's column
    expect(scanKeyLimit(on.scan, Oid.int8, 1)).toBe(1_500_000 / 16);
  });

  it('leaves a filtered orders scan alone (its build side is not a whole table)', () => {
    const cat = catalog();
    const sql = Q9.replace('JOIN ord o', "JOIN (SELECT * FROM ord WHERE st = 'F') o");
    const plan = optimizeWith(cat, bindPlan(cat, sql), 'build_filtered_fact_side', true);
    expect(allPlanNodes(plan).some((n) => n.kind === 'Join' && n.buildSide === 'left')).toBe(false);
  });

  it('leaves the join alone when the other side is filtered too little', () => {
    expect(ordersJoin(Q9.replace(' AND qty < 5', ''), true).join.buildSide).not.toBe('left');
  });

  it('leaves an outer join alone', () => {
    expect(ordersJoin(Q9.replace('JOIN ord o', 'LEFT JOIN ord o'), true).join.buildSide).not.toBe('left');
  });
});
