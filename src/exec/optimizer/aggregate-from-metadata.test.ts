/**
 * aggregate_from_metadata over a test source whose "metadata" is its rows filtered *exactly* by the filters the
 * rule hands over: the rewrite happens only for count / min / max without GROUP BY under an exactly
 * translatable WHERE, the source sees that WHERE as ScanPredicates, and the answer is the same with the rule
 * on, off, and when the source declines (the replaced aggregate runs instead).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import type { MetadataAggregate, MetadataAggregateAnswer, MetadataAggregateContext, ScanPredicate } from '../../catalog/table-source.ts';
import { emptyScanMetrics } from '../../catalog/table-source.ts';
import { initParser } from '../../sql/index.ts';
import { MemoryCatalog } from '../../sql/testing/memory-catalog.ts';
import { matches, StrictTable } from '../testing/strict-table.ts';
import { optimizedExplain, runWithRules, sortedRows } from '../testing/optimizer-fixture.ts';

beforeAll(async () => { await initParser(); });

const col = (name: string, oid: number) => ({ name, type: sqlType(oid), nullable: true });

/** a StrictTable that answers aggregates from its rows, or declines when `exact` is false */
class MetaTable extends StrictTable {
  exact = true;
  readonly calls: { aggregates: readonly MetadataAggregate[]; filters?: readonly ScanPredicate[]; groupBy?: readonly number[] }[] = [];

  async aggregateFromMetadata(aggregates: readonly MetadataAggregate[], ctx: MetadataAggregateContext): Promise<MetadataAggregateAnswer | null> {
    this.calls.push({ aggregates, ...(ctx.filters === undefined ? {} : { filters: ctx.filters }), ...(ctx.groupBy === undefined ? {} : { groupBy: ctx.groupBy }) });
    if (!this.exact) return null;
    const keys = ctx.groupBy ?? [];
    const groups = new Map<string, (readonly unknown[])[]>();
    if (keys.length === 0) groups.set('', []);
    for (const r of this.rows.filter((x) => (ctx.filters ?? []).every((f) => matches(f, x)))) {
      const k = keys.length === 0 ? '' : JSON.stringify(keys.map((i) => String(r[i])));
      groups.set(k, [...(groups.get(k) ?? []), r]);
    }
    const rows = [...groups.values()].map((rs) => [...keys.map((i) => rs[0]?.[i] ?? null), ...aggregates.map((a) => {
      if (a.kind === 'countStar') return BigInt(rs.length);
      const vals = rs.map((r) => r[a.column]).filter((v) => v !== null && v !== undefined) as (number | bigint)[];
      if (a.kind === 'count') return BigInt(vals.length);
      if (vals.length === 0) return null;
      return vals.reduce((m, v) => ((a.kind === 'min' ? v < m : v > m) ? v : m));
    })]);
    return { rows, metrics: { ...emptyScanMetrics(), filesTotal: 3, fromMetadata: true } };
  }
}

function catalog(): { cat: MemoryCatalog; m: MetaTable } {
  const cat = new MemoryCatalog();
  const m = new MetaTable(
    [col('a', Oid.int4), col('b', Oid.text), col('c', Oid.int8), col('d', Oid.date)],
    [[1, 'x', 10n, 19723], [2, 'y', null, 19724], [3, null, 30n, null], [null, 'z', 40n, 19730], [5, 'x', 50n, 19731]],
  );
  cat.addRelation({ schema: 'public', name: 'm', source: m });
  cat.addRelation({ schema: 'public', name: 's', source: new StrictTable([col('a', Oid.int4)], [[1], [2]]) });
  return { cat, m };
}

const REWRITTEN = [
  `SELECT count(*) FROM m`,
  `SELECT count(*), count(b), min(a), max(a), min(c), max(d) FROM m`,
  `SELECT count(1) AS n, max(c) - min(c) AS span FROM m HAVING count(*) > 1`,
  `SELECT count(*), max(c) FROM m WHERE a > 1 AND (b = 'x' OR b IS NULL)`,
  `SELECT min(c) FROM m WHERE a IN (1, 5) AND d IS NOT NULL`,
  `SELECT count(*) FROM m WHERE a = 5000000000`,
  `SELECT count(*), min(a) FROM m WHERE c >= 30::int4 AND c < 45`,
  `SELECT min(DISTINCT a), max(ALL a) FROM m`,
  `SELECT x.n FROM (SELECT count(*) AS n FROM m WHERE b <> 'x') x`,
  `SELECT b, count(*), max(c) FROM m GROUP BY b`,
  `SELECT b, a, count(*) FROM m WHERE a > 1 GROUP BY a, b HAVING count(*) > 0`,
  `SELECT b, count(*) FROM m WHERE a > 100 GROUP BY b`,
];

const KEPT = [
  `SELECT a + 1, count(*) FROM m GROUP BY a + 1`,
  `SELECT a, count(*) FROM m GROUP BY ROLLUP (a)`,
  `SELECT sum(a), count(*) FROM m`,
  `SELECT count(DISTINCT a) FROM m`,
  `SELECT count(*) FILTER (WHERE a > 1) FROM m`,
  `SELECT count(*) FROM m WHERE b LIKE 'x%'`,
  `SELECT count(*) FROM m WHERE NOT (a = 1)`,
  `SELECT count(*) FROM m WHERE a + 1 > 2`,
  `SELECT max(a + 1) FROM m`,
  `SELECT count(*) FROM m WHERE a = (SELECT min(a) FROM s)`,
  `SELECT count(*) FROM s`,
  `SELECT count(*) FROM m, s WHERE m.a = s.a`,
  `SELECT count(*) FROM (SELECT * FROM m LIMIT 2) x`,
];

describe('aggregate_from_metadata', () => {
  it('replaces count / min / max (GROUP BY columns or none) by a MetadataAggregate scan', () => {
    const { cat } = catalog();
    for (const q of REWRITTEN) expect(optimizedExplain(cat, q).join('\n'), q).toMatch(/MetadataAggregate: public\.m (groupBy=\[.*\] )?aggr=\[/);
    expect(optimizedExplain(cat, REWRITTEN[3]!).join('\n')).toContain(
      `MetadataAggregate: public.m aggr=[count(*), max(m.c)] filters=[a > 1, (b = 'x' OR b IS NULL)]`,
    );
    expect(optimizedExplain(cat, `SELECT b, count(*), max(c) FROM m GROUP BY b`).join('\n')).toContain('MetadataAggregate: public.m groupBy=[m.b] aggr=[count(*), max(m.c)]');
  });

  it('leaves GROUP BY expressions or sets, other aggregates, inexact WHERE clauses and sources without the hook alone', () => {
    const { cat } = catalog();
    for (const q of KEPT) {
      const plan = optimizedExplain(cat, q).join('\n');
      expect(plan, q).not.toMatch(/MetadataAggregate/);
    }
    expect(optimizedExplain(cat, `SELECT count(*) FROM m`, []).join('\n')).not.toMatch(/MetadataAggregate/);
  });

  it('hands the WHERE clause over exactly, as ScanPredicates', async () => {
    const { cat, m } = catalog();
    await runWithRules(cat, `SELECT count(*), max(c) FROM m WHERE a > 1 AND (b = 'x' OR b IS NULL) AND d IN ('2024-01-02', '2024-01-09')`, []);
    expect(m.calls).toHaveLength(1);
    expect(m.calls[0]!.aggregates).toEqual([{ kind: 'countStar' }, { kind: 'max', column: 2 }]);
    expect(m.calls[0]!.filters).toEqual([
      { kind: 'compare', op: '>', column: 0, value: 1 },
      { kind: 'or', args: [{ kind: 'compare', op: '=', column: 1, value: 'x' }, { kind: 'isNull', column: 1 }] },
      // the binder's IN is an OR of equalities
      { kind: 'or', args: [{ kind: 'compare', op: '=', column: 3, value: 19724 }, { kind: 'compare', op: '=', column: 3, value: 19731 }] },
    ]);
  });

  it('takes `$n` (the carried values, NULL as no match) and falls back with them', async () => {
    const q = `SELECT count(*), max(c) FROM m WHERE a > $1 AND (b = $2 OR b IS NULL)`;
    const oids = [Oid.int4, Oid.text];
    for (const params of [[1, 'x'], [0, null], [null, 'x']]) {
      const { cat, m } = catalog();
      const off = (await runWithRules(cat, q, ['aggregate_from_metadata'], params, oids)).rows;
      expect((await runWithRules(cat, q, [], params, oids)).rows, JSON.stringify(params)).toEqual(off);
      expect(m.calls.at(-1)!.filters![0], JSON.stringify(params)).toEqual(params[0] === null ? { kind: 'in', column: 0, values: [] } : { kind: 'compare', op: '>', column: 0, value: params[0] });
      const declining = catalog();
      declining.m.exact = false;
      expect((await runWithRules(declining.cat, q, [], params, oids)).rows, `${JSON.stringify(params)} declined`).toEqual(off);
    }
    expect(optimizedExplain(catalog().cat, q, undefined, [sqlType(Oid.int4), sqlType(Oid.text)]).join('\n'))
      .toContain(`MetadataAggregate: public.m aggr=[count(*), max(m.c)] filters=[a > $1, (b = $2 OR b IS NULL)]`);
  });

  it('gives the same rows with the rule on, off, and when the source declines', async () => {
    for (const q of REWRITTEN) {
      const { cat } = catalog();
      const off = sortedRows((await runWithRules(cat, q, ['aggregate_from_metadata'])).rows);
      const on = await runWithRules(cat, q, []);
      expect(sortedRows(on.rows), q).toEqual(off);
      const declining = catalog();
      declining.m.exact = false;
      const fallback = await runWithRules(declining.cat, q, []);
      expect(sortedRows(fallback.rows), `${q} (declined)`).toEqual(off);
      expect(declining.m.calls.length, q).toBeGreaterThan(0);
      // the fallback read the table
      expect(declining.m.scans.length, q).toBeGreaterThan(0);
    }
  });
});
