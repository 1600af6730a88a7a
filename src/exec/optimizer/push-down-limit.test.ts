/** push_down_limit: LIMIT over a scan (through projections only) reaches the scan; never past a filter or sort. */
import { beforeAll, describe, expect, it } from 'vitest';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import { initParser } from '../../sql/index.ts';
import type { StrictTable } from '../testing/strict-table.ts';
import { optimizedExplain, runWithRules, strictCatalog } from '../testing/optimizer-fixture.ts';

beforeAll(async () => { await initParser(); });

const scanLines = (sql: string, rules = ['push_down_limit'], params: number[] = []): string[] =>
  optimizedExplain(strictCatalog(), sql, rules, params.map((o) => sqlType(o))).filter((l) => l.includes('TableScan')).map((l) => l.trim());

describe('push_down_limit', () => {
  it('pushes LIMIT / OFFSET constants and parameters through projections', () => {
    expect(scanLines(`SELECT name FROM emp LIMIT 2`)).toEqual([`TableScan: public.emp limit=2`]);
    expect(scanLines(`SELECT name, salary * 2 FROM emp LIMIT 2 OFFSET 3`)).toEqual([`TableScan: public.emp limit=2 offset 3`]);
    expect(scanLines(`SELECT name FROM emp LIMIT $1`, ['push_down_limit'], [Oid.int8])).toEqual([`TableScan: public.emp limit=$1`]);
  });

  it('stops at filters, sorts, aggregates, joins and DISTINCT', () => {
    for (const sql of [`SELECT name FROM emp WHERE id > 1 LIMIT 2`, `SELECT name FROM emp ORDER BY id LIMIT 2`, `SELECT count(*) FROM emp LIMIT 1`, `SELECT DISTINCT dept FROM emp LIMIT 1`]) {
      expect(scanLines(sql)).toEqual([`TableScan: public.emp`]);
    }
    expect(scanLines(`SELECT 1 FROM t, u LIMIT 2`)).toEqual([`TableScan: public.t`, `TableScan: public.u`]);
  });

  it('hands limit + offset to the scan', async () => {
    const cat = strictCatalog();
    const r = await runWithRules(cat, `SELECT id FROM ev LIMIT $1 OFFSET $2`, [], [3n, 2n], [Oid.int8, Oid.int8]);
    expect((cat.findRelation('public', 'ev')!.source as StrictTable).scans[0]!.limit).toBe(5);
    expect(r.rows).toEqual([[2n], [3n], [4n]]);
  });

  it('switched off: no scan gets a limit', () => {
    expect(scanLines(`SELECT name FROM emp LIMIT 2`, [])).toEqual([`TableScan: public.emp`]);
  });
});
