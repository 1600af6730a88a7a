/**
 * build_side_under_key_filters over tables that claim TPC-H Q21's proportions (lineitem 120,000 rows, orders
 * 20,000, supplier 200, nation 25): which joins build left with the rule on and off, the shapes it leaves
 * alone, the scaled estimates behind it and the denser key cap of the scan it marks. The answers (rule on
 * and off, against PostgreSQL) are in test/sql/join/build-side-under-key-filters.slt.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import { initParser, type LogicalPlan } from '../../sql/index.ts';
import { MemoryCatalog } from '../../sql/testing/memory-catalog.ts';
import { bindPlan, optimizedExplain } from '../testing/optimizer-fixture.ts';
import { StrictTable } from '../testing/strict-table.ts';
import { allowDenserScanKeys, scanKeyLimit } from '../runtime-key-filter.ts';
import { allPlanNodes } from './plan-rewrite.ts';
import { estimate } from './row-estimate.ts';
import { OPTIMIZER_RULE_NAMES } from './rule-names.ts';

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
  add('li', [col('ok', Oid.int8), col('sk', Oid.int4), col('late', Oid.bool)], 120_000);
  add('ord', [col('ok', Oid.int8), col('st', Oid.text)], 20_000);
  add('sup', [col('sk', Oid.int4), col('nk', Oid.int4), col('name', Oid.text)], 200);
  add('nat', [col('nk', Oid.int4), col('name', Oid.text)], 25);
  return cat;
}

const Q21 = `SELECT s.name, count(*) FROM sup s, li l, ord o, nat n WHERE s.sk = l.sk AND o.ok = l.ok AND o.st = 'F' AND l.late
  AND s.nk = n.nk AND n.name = 'N3' GROUP BY s.name`;
const ALL_BUT = (rule: string): string[] => OPTIMIZER_RULE_NAMES.filter((r) => r !== rule);
const joinLines = (sql: string, rules?: readonly string[]): string[] =>
  optimizedExplain(catalog(), sql, rules).filter((l) => l.includes('Join')).map((l) => l.trim());

describe('build_side_under_key_filters', () => {
  it('builds li below the nation\'s suppliers and streams ord (off: ord is built)', () => {
    expect(joinLines(Q21)).toContain('Inner Join: (o.ok = l.ok)');
    expect(joinLines(Q21)).toContain('Inner Join (build: left): (s.sk = l.sk)');
    const off = joinLines(Q21, ALL_BUT('build_side_under_key_filters'));
    expect(off).toContain('Inner Join (build: left): (o.ok = l.ok)');
  });

  it('leaves a join alone when no filtered build above cuts its right input', () => {
    const sql = `SELECT count(*) FROM sup s, li l, ord o, nat n WHERE s.sk = l.sk AND o.ok = l.ok AND o.st = 'F' AND l.late AND s.nk = n.nk`;
    expect(joinLines(sql)).toContain('Inner Join (build: left): (o.ok = l.ok)');
    expect(joinLines(`SELECT count(*) FROM li l, ord o WHERE o.ok = l.ok AND o.st = 'F' AND l.late`)).toEqual(['Inner Join (build: left): (o.ok = l.ok)']);
  });

  it('leaves a join alone whose left input stays clearly smaller than the cut right input', () => {
    const sql = `SELECT count(*) FROM sup s, li l, ord o, nat n WHERE s.sk = l.sk AND o.ok = l.ok AND o.st = 'F' AND o.ok < 10 AND o.ok > 2
      AND l.late AND s.nk = n.nk AND n.name = 'N3'`;
    expect(joinLines(sql)).toContain('Inner Join (build: left): (o.ok = l.ok)');
  });

  it('leaves outer joins alone', () => {
    const sql = `SELECT count(*) FROM sup s JOIN li l ON s.sk = l.sk JOIN nat n ON s.nk = n.nk AND n.name = 'N3'
      LEFT JOIN ord o ON o.ok = l.ok AND o.st = 'F' WHERE l.late`;
    expect(joinLines(sql).some((l) => l.startsWith('Left Join') && l.includes('o.ok = l.ok'))).toBe(true);
  });
});

describe('scaled estimates and the denser key cap', () => {
  const scanOf = (p: LogicalPlan): LogicalPlan => allPlanNodes(p).find((n) => n.kind === 'TableScan')!;

  it('scales a scan by the fraction a runtime key filter keeps, and everything above it', () => {
    const plan = bindPlan(catalog(), 'SELECT * FROM li WHERE late');
    const scan = scanOf(plan);
    expect(estimate(scan)).toEqual({ rows: 120_000, selectivity: 1 });
    expect(estimate(scan, new Map([[scan, 0.1]]))).toEqual({ rows: 12_000, selectivity: 0.1 });
    expect(estimate(plan, new Map([[scan, 0.1]]))!.rows).toBeCloseTo(estimate(plan)!.rows / 10);
  });

  it('lets a marked scan take up to 1 integer key per 8 rows instead of 16', () => {
    const scan = scanOf(bindPlan(catalog(), 'SELECT * FROM li'));
    const big = { ...scan, source: new ClaimedTable([col('ok', Oid.int8)], 800_000) } as LogicalPlan;
    expect(scanKeyLimit(big, Oid.int8)).toBe(50_000);
    allowDenserScanKeys(big);
    expect(scanKeyLimit(big, Oid.int8)).toBe(100_000);
  });
});
