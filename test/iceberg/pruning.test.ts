/**
 * Partition and file pruning (issue #4): for every transform and op, a table with several partitions where
 * a pushed predicate must skip exactly the files without a matching row (counters), and the answer must not
 * change (rows of the pruned scan passing the filter = rows of the full scan passing it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Oid } from '../../src/common/pgtypes/oids.ts';
import { Numeric } from '../../src/common/pgtypes/numeric.ts';
import type { ColumnDef, ScanPredicate } from '../../src/catalog/table-source.ts';
import { partitionTransform } from '../../src/iceberg/transforms/partition-transform.ts';
import type { PrimitiveType } from '../../src/iceberg/spec/schema.ts';
import { checkPruning, matches, openWarehouse, TestTable, type Warehouse } from './pruning-helpers.ts';

const COLUMNS: ColumnDef[] = [
  { name: 'id', type: { oid: Oid.int8, typmod: -1 }, nullable: false },
  { name: 'd', type: { oid: Oid.date, typmod: -1 }, nullable: true },
  { name: 'ts', type: { oid: Oid.timestamptz, typmod: -1 }, nullable: true },
  { name: 'name', type: { oid: Oid.text, typmod: -1 }, nullable: true },
  { name: 'amount', type: { oid: Oid.numeric, typmod: ((12 << 16) | 2) + 4 }, nullable: true },
  { name: 'x', type: { oid: Oid.float8, typmod: -1 }, nullable: true },
  { name: 'region', type: { oid: Oid.text, typmod: -1 }, nullable: true },
];
const [ID, D, TS, NAME, AMOUNT, X, REGION] = [0, 1, 2, 3, 4, 5, 6] as const;
const SOURCE_TYPES: Record<number, PrimitiveType> = {
  [ID]: { kind: 'primitive', name: 'long' }, [D]: { kind: 'primitive', name: 'date' }, [TS]: { kind: 'primitive', name: 'timestamptz' },
  [NAME]: { kind: 'primitive', name: 'string' }, [REGION]: { kind: 'primitive', name: 'string' },
};

const day = (s: string): number => Date.parse(`${s}T00:00:00Z`) / 86_400_000;
const micros = (s: string): bigint => BigInt(Date.parse(s)) * 1000n;
const FRUITS = ['apple', 'apricot', 'banana', 'blueberry', 'cherry', 'cranberry', 'date'];
const REGIONS = ['east', 'west', 'north', 'south'];

export function makeRow(i: number): unknown[] {
  return [
    BigInt(i),
    day('2023-11-01') + i * 3,
    micros('2024-01-01T00:00:00Z') + BigInt(i) * 20n * 60_000_000n,
    `${FRUITS[i % 7]}${i}`,
    Numeric.of(BigInt(i * 125), 2),
    i % 10 === 0 ? NaN : i / 4,
    i % 11 === 0 ? null : REGIONS[i % 4],
  ];
}
const ROWS = Array.from({ length: 240 }, (_v, i) => makeRow(i));

const cmp = (op: '=' | '<>' | '<' | '<=' | '>' | '>=', column: number, value: unknown): ScanPredicate => ({ kind: 'compare', op, column, value });
const inList = (column: number, values: unknown[]): ScanPredicate => ({ kind: 'in', column, values });

/** partitions (= files: one small insert) that hold at least one row matching all filters */
function expectedFiles(transform: string, column: number, filters: readonly ScanPredicate[]): { files: number; matchingFiles: number } {
  const t = partitionTransform(transform, SOURCE_TYPES[column]!);
  const groups = new Map<string, boolean>();
  for (const r of ROWS) {
    const k = String(t.apply(r[column]));
    groups.set(k, (groups.get(k) ?? false) || filters.every((f) => matches(f, r)));
  }
  return { files: groups.size, matchingFiles: [...groups.values()].filter(Boolean).length };
}

describe('partition pruning per transform', () => {
  let wh: Warehouse;
  beforeAll(async () => { wh = await openWarehouse(); });
  afterAll(async () => { await wh.close(); });

  const cases: { transform: string; option: string; column: number; preds: { name: string; filters: ScanPredicate[]; exact?: boolean }[] }[] = [
    {
      transform: 'identity', option: 'region', column: REGION, preds: [
        { name: '=', filters: [cmp('=', REGION, 'east')] },
        { name: 'IN', filters: [inList(REGION, ['east', 'west'])] },
        { name: '<', filters: [cmp('<', REGION, 'north')] },
        { name: '>=', filters: [cmp('>=', REGION, 'south')] },
        { name: '<>', filters: [cmp('<>', REGION, 'east')] },
        { name: 'IS NULL', filters: [{ kind: 'isNull', column: REGION }] },
        { name: 'IS NOT NULL', filters: [{ kind: 'isNotNull', column: REGION }] },
        { name: 'startsWith', filters: [{ kind: 'startsWith', column: REGION, prefix: 'we' }] },
        { name: 'OR', filters: [{ kind: 'or', args: [cmp('=', REGION, 'east'), { kind: 'isNull', column: REGION }] }] },
      ],
    },
    {
      transform: 'bucket[4]', option: 'bucket(4, id)', column: ID, preds: [
        { name: '=', filters: [cmp('=', ID, 17n)] },
        { name: 'IN', filters: [inList(ID, [3n, 200n])] },
        { name: '< (no partition projection)', filters: [cmp('<', ID, 10n)], exact: false },
      ],
    },
    {
      transform: 'truncate[50]', option: 'truncate(50, id)', column: ID, preds: [
        { name: '=', filters: [cmp('=', ID, 120n)] },
        { name: '<', filters: [cmp('<', ID, 100n)] },
        { name: '<=', filters: [cmp('<=', ID, 100n)] },
        { name: '>', filters: [cmp('>', ID, 149n)] },
        { name: '>=', filters: [cmp('>=', ID, 151n)] },
        { name: 'IN', filters: [inList(ID, [5n, 205n])] },
        { name: 'range', filters: [cmp('>=', ID, 60n), cmp('<', ID, 110n)] },
      ],
    },
    {
      transform: 'truncate[2]', option: 'truncate(2, name)', column: NAME, preds: [
        { name: '=', filters: [cmp('=', NAME, 'banana2')] },
        { name: 'startsWith (≤ width)', filters: [{ kind: 'startsWith', column: NAME, prefix: 'ap' }] },
        { name: 'startsWith (> width)', filters: [{ kind: 'startsWith', column: NAME, prefix: 'apr' }] },
        { name: '<', filters: [cmp('<', NAME, 'bb')] },
        { name: '>', filters: [cmp('>', NAME, 'cr')] },
      ],
    },
    ...(['year', 'month'] as const).map((tr) => ({
      transform: tr, option: `${tr}(d)`, column: D, preds: [
        { name: '=', filters: [cmp('=', D, day('2024-05-11'))] },
        { name: '<', filters: [cmp('<', D, day('2024-01-01'))] },
        { name: '<=', filters: [cmp('<=', D, day('2024-03-15'))] },
        { name: '>', filters: [cmp('>', D, day('2025-02-10'))] },
        { name: '>=', filters: [cmp('>=', D, day('2024-07-01'))] },
        { name: 'IN', filters: [inList(D, [day('2023-11-04'), day('2025-06-02')])] },
        { name: 'range', filters: [cmp('>=', D, day('2024-04-01')), cmp('<', D, day('2024-06-01'))] },
      ],
    })),
    ...(['day', 'hour'] as const).map((tr) => ({
      transform: tr, option: `${tr}(ts)`, column: TS, preds: [
        { name: '=', filters: [cmp('=', TS, micros('2024-01-02T10:00:00Z'))] },
        { name: '<', filters: [cmp('<', TS, micros('2024-01-01T05:30:00Z'))] },
        { name: '>=', filters: [cmp('>=', TS, micros('2024-01-03T22:00:00Z'))] },
        { name: 'range', filters: [cmp('>', TS, micros('2024-01-02T00:00:00Z')), cmp('<=', TS, micros('2024-01-02T12:00:00Z'))] },
        { name: 'IN', filters: [inList(TS, [micros('2024-01-01T01:00:00Z'), micros('2024-01-03T00:20:00Z')])] },
      ],
    })),
  ];

  for (const c of cases) {
    describe(c.option, () => {
      let table: TestTable;
      beforeAll(async () => {
        table = await TestTable.create(wh, `t_${c.option.replace(/\W+/g, '_')}`, COLUMNS, [c.option]);
        await table.insert(ROWS);
      });
      for (const p of c.preds) {
        it(`${p.name} prunes exactly the non-matching files`, async () => {
          const t = await table.source();
          const m = await checkPruning(t, p.filters);
          const want = expectedFiles(c.transform, c.column, p.filters);
          expect(m.filesTotal).toBe(want.files);
          if (p.exact === false) expect(m.filesScanned).toBeGreaterThanOrEqual(want.matchingFiles);
          else expect(m.filesScanned).toBe(want.matchingFiles);
          if (p.exact !== false && c.transform !== 'identity') expect(m.filesPrunedByPartition).toBeGreaterThan(0);
          expect(m.matching).toBeGreaterThan(0);
        });
      }
    });
  }
});

describe('file pruning on column metrics (unpartitioned, several commits)', () => {
  let wh: Warehouse;
  let table: TestTable;
  const CHUNK = 100;
  beforeAll(async () => {
    wh = await openWarehouse();
    table = await TestTable.create(wh, 'bounds', COLUMNS);
    // five commits with disjoint id/d/ts ranges; commit 2 has only NULL regions and no NaN, commit 4 no NULLs
    for (let k = 0; k < 5; k++) {
      const rows = Array.from({ length: CHUNK }, (_v, j) => {
        const r = makeRow(k * CHUNK + j);
        if (k === 2) { r[REGION] = null; r[X] = j / 4; }
        if (k === 4) r[REGION] = 'east';
        return r;
      });
      await table.insert(rows);
    }
  });
  afterAll(async () => { await wh.close(); });

  it('id, date, timestamptz and numeric ranges skip files by lower/upper bounds', async () => {
    const t = await table.source();
    for (const [filters, files] of [
      [[cmp('=', ID, 250n)], 1],
      [[cmp('<', ID, 100n)], 1],
      [[cmp('>=', ID, 199n)], 4],
      [[cmp('>', D, day('2024-01-01') + 3 * 310)], 2],
      [[cmp('<=', TS, micros('2024-01-01T00:00:00Z') + 150n * 20n * 60_000_000n)], 2],
      [[cmp('>', AMOUNT, Numeric.parse('500.00'))], 1],
      [[cmp('>=', AMOUNT, Numeric.parse('375.00'))], 2],
      [[inList(ID, [5n, 450n])], 2],
      [[cmp('=', NAME, 'cherry4')], 5], // every file spans apple…date
      [[cmp('<', NAME, 'ap')], 0],
      [[cmp('>', NAME, 'date')], 5],
      [[{ kind: 'startsWith', column: NAME, prefix: 'zzz' }], 0],
      [[cmp('<>', REGION, 'east')], 3],
    ] as [ScanPredicate[], number][]) {
      const m = await checkPruning(t, filters);
      expect(m.filesTotal).toBe(5);
      expect(m.filesScanned, JSON.stringify(filters, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).toBe(files);
      expect(m.filesPrunedByPartition).toBe(0);
    }
  });

  it('IS NULL / IS NOT NULL use null counts', async () => {
    const t = await table.source();
    // commit 4 has no NULL region; commit 2 has only NULLs
    expect((await checkPruning(t, [{ kind: 'isNull', column: REGION }])).filesScanned).toBe(4);
    expect((await checkPruning(t, [{ kind: 'isNotNull', column: REGION }])).filesScanned).toBe(4);
    expect((await checkPruning(t, [cmp('=', REGION, 'west')])).filesScanned).toBe(3);
  });

  it('NaN: x > v keeps files with NaNs (NaN is above every float in PostgreSQL), x < v may skip them', async () => {
    const t = await table.source();
    // every commit but 2 holds NaN (i % 10 === 0); bounds exclude NaN
    const gt = await checkPruning(t, [cmp('>', X, 1000)]);
    expect(gt.filesScanned).toBe(4);
    expect(gt.matching).toBe(40);
    const lt = await checkPruning(t, [cmp('<', X, 10)]);
    expect(lt.filesScanned).toBe(2); // ids 0–39 and commit 2's x = j/4
    expect((await checkPruning(t, [cmp('=', X, 1000)])).filesScanned).toBe(0);
    expect((await checkPruning(t, [cmp('<>', X, 1)])).filesScanned).toBe(5);
  });

  it('a comparison with NULL or an empty IN matches nothing; unsupported values prune nothing', async () => {
    const t = await table.source();
    expect((await checkPruning(t, [cmp('=', ID, null)])).filesScanned).toBe(0);
    expect((await checkPruning(t, [inList(ID, [null])])).filesScanned).toBe(0);
    expect((await checkPruning(t, [cmp('>', X, NaN)])).filesScanned).toBe(5);
    expect((await checkPruning(t, [cmp('<', AMOUNT, Numeric.parse('NaN'))])).filesScanned).toBe(5);
  });

  it('limit stops reading files once enough rows came', async () => {
    const t = await table.source();
    const m = (await import('../../src/catalog/table-source.ts')).emptyScanMetrics();
    let rows = 0;
    for await (const b of t.scan({ signal: new AbortController().signal, limit: 10, metrics: m })) rows += b.length;
    expect(rows).toBeGreaterThanOrEqual(10);
    expect(m.filesScanned).toBe(1);
    expect(m.filesTotal).toBe(5);
  });

  it('time travel keeps pruning against the older snapshot', async () => {
    const t = await table.source();
    const first = t.metadata.snapshots[1]!.snapshotId; // after two commits
    const old = t.at(String(first));
    const m = await checkPruning(old, [cmp('>=', ID, 150n)]);
    expect(m.filesTotal).toBe(2);
    expect(m.filesScanned).toBe(1);
  });
});

describe('partition evolution: files of two specs', () => {
  let wh: Warehouse;
  let table: TestTable;
  beforeAll(async () => {
    wh = await openWarehouse();
    table = await TestTable.create(wh, 'evolved', COLUMNS, ['month(d)']);
    await table.insert(ROWS.slice(0, 120));
    const { updateTableMetadata } = await import('../../src/iceberg/commit/update-metadata.ts');
    await updateTableMetadata(wh.catalog, wh.io, table.id, (doc) => ({
      ...doc,
      'partition-specs': [...(doc['partition-specs'] as unknown[]), { 'spec-id': 1, fields: [{ 'source-id': 7, 'field-id': 1001, name: 'region', transform: 'identity' }] }],
      'default-spec-id': 1,
      'last-partition-id': 1001,
    }));
    await table.insert(ROWS.slice(120));
  });
  afterAll(async () => { await wh.close(); });

  it('each file is pruned through its own spec', async () => {
    const t = await table.source();
    expect(new Set(t.metadata.partitionSpecs.map((s) => s.specId))).toEqual(new Set([0, 1]));
    const months = new Set(ROWS.slice(0, 120).map((r) => partitionTransform('month', SOURCE_TYPES[D]!).apply(r[D]))).size;
    const regions = new Set(ROWS.slice(120).map((r) => r[REGION])).size;
    const byMonth = await checkPruning(t, [cmp('<', D, day('2024-01-01'))]);
    expect(byMonth.filesTotal).toBe(months + regions);
    // spec 0: only Nov and Dec 2023; spec 1 (region) files hold later dates: pruned by bounds
    expect(byMonth.filesScanned).toBe(2);
    // the inclusive projection month <= 2024-01 keeps January's file: its bounds prune it
    expect(byMonth.filesPrunedByPartition).toBe(months - 3);
    expect(byMonth.filesPrunedByStats).toBe(regions + 1);
    const byRegion = await checkPruning(t, [cmp('=', REGION, 'east')]);
    // spec 1: the 'east' file; spec 0 files have mixed regions, so they stay
    expect(byRegion.filesScanned).toBe(months + 1);
    expect(byRegion.filesPrunedByPartition).toBe(regions - 1);
  });
});
