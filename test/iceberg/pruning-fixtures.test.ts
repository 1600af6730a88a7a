/**
 * Pruning never changes answers on real tables written by Spark, PySpark, PyIceberg and Java (the shared
 * fixtures: bucket + identity partitions, day(timestamptz), v1 inline manifests, equality and position
 * deletes, renamed columns): for predicates built from each table's own values (=, <, >=, <>, IN,
 * IS [NOT] NULL, prefix), the rows passing the filter are the same with pruning as without.
 */
import { describe, expect, it } from 'vitest';
import { fixtureIO, openTable } from '../../src/iceberg/test/fixture-helpers.ts';
import { findLatestMetadataFile } from '../../src/iceberg/spec/metadata-file.ts';
import { Numeric } from '../../src/common/pgtypes/numeric.ts';
import { Oid } from '../../src/common/pgtypes/oids.ts';
import type { ScanPredicate } from '../../src/catalog/table-source.ts';
import type { IcebergTableSource } from '../../src/iceberg/iceberg-table-source.ts';
import { checkPruning, scanRows } from './pruning-helpers.ts';

const scalar = (v: unknown): boolean => typeof v === 'number' || typeof v === 'bigint' || typeof v === 'string' || Numeric.isNumeric(v);
const order = (a: unknown, b: unknown): number => (Numeric.isNumeric(a) ? a.compare(b as Numeric)
  : (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0);

/** predicates over column c from the values it holds */
function predicatesFor(c: number, values: unknown[]): ScanPredicate[][] {
  const vals = values.filter((v) => v !== null && !(typeof v === 'number' && Number.isNaN(v)));
  const out: ScanPredicate[][] = [[{ kind: 'isNull', column: c }], [{ kind: 'isNotNull', column: c }]];
  if (vals.length === 0 || !vals.every(scalar)) return out;
  const sorted = [...vals].sort(order);
  const lo = sorted[0];
  const mid = sorted[Math.floor(sorted.length / 2)];
  const hi = sorted[sorted.length - 1];
  out.push(
    [{ kind: 'compare', op: '=', column: c, value: mid }],
    [{ kind: 'compare', op: '<', column: c, value: mid }],
    [{ kind: 'compare', op: '>=', column: c, value: hi }],
    [{ kind: 'compare', op: '<=', column: c, value: lo }],
    [{ kind: 'compare', op: '<>', column: c, value: lo }],
    [{ kind: 'in', column: c, values: [lo, hi] }],
    [{ kind: 'compare', op: '>', column: c, value: mid }, { kind: 'compare', op: '<=', column: c, value: hi }],
  );
  if (typeof mid === 'string') out.push([{ kind: 'startsWith', column: c, prefix: [...mid].slice(0, 2).join('') }]);
  return out;
}

async function checkTable(t: IcebergTableSource, only?: readonly string[]): Promise<number> {
  let checked = 0;
  for (let c = 0; c < t.columns.length; c++) {
    if (only !== undefined && !only.includes(t.columns[c]!.name)) continue;
    // one column at a time (the filters name only it): big tables stay cheap
    const all = await scanRows(t, undefined, undefined, undefined, [c]);
    for (const filters of predicatesFor(c, all.map((r) => r[c]))) {
      const m = await checkPruning(t, filters, all, [c]);
      expect(m.filesScanned).toBeLessThanOrEqual(m.filesTotal);
      checked++;
    }
  }
  return checked;
}

describe('pruning on the shared fixtures never changes answers', () => {
  it('icebird-spark-bunnies (position deletes, added column) and rename_column (bucket[4] + identity date)', async () => {
    for (const v of [3, 4, 5]) expect(await checkTable(await openTable(`s3a://hyperparam-iceberg/spark/bunnies/metadata/v${v}.metadata.json`))).toBeGreaterThan(0);
    for (const v of [2, 3]) expect(await checkTable(await openTable(`s3a://hyperparam-iceberg/spark/rename_column/metadata/v${v}.metadata.json`))).toBeGreaterThan(0);
  });

  it('rename_column: an id and a date predicate prune bucket / identity partitions', async () => {
    const t = await openTable('s3a://hyperparam-iceberg/spark/rename_column/metadata/v3.metadata.json');
    const all = await scanRows(t);
    const id = t.columns.findIndex((c) => c.name === 'id');
    const m = await checkPruning(t, [{ kind: 'compare', op: '=', column: id, value: all[0]![id] }], all);
    expect(m.filesScanned).toBeLessThan(m.filesTotal);
    const date = t.columns.findIndex((c) => c.type.oid === Oid.date);
    const day = all.map((r) => r[date]).find((v) => v !== null);
    const byDate = await checkPruning(t, [{ kind: 'compare', op: '=', column: date, value: day }], all);
    expect(byDate.filesPrunedByPartition).toBeGreaterThan(0);
    const nullDate = await checkPruning(t, [{ kind: 'isNull', column: date }], all);
    expect(nullDate.filesScanned).toBeLessThan(nullDate.filesTotal);
  });

  it('duckdb-lineitem_iceberg (copy-on-write delete), now and at the first snapshot', async () => {
    const cols = ['l_orderkey', 'l_shipdate'];
    const now = await openTable('lineitem_iceberg/metadata/v2.metadata.json');
    expect(await checkTable(now, cols)).toBeGreaterThan(0);
    expect(await checkTable(now.at('7817332053627255703'), ['l_shipdate'])).toBeGreaterThan(0);
  }, 120_000);

  it('duckdb-equality_deletes (partitioned by name), iceberg_v1_deprecated (inline manifests), map_stats (day(timestamptz))', async () => {
    const uris = [
      await findLatestMetadataFile(fixtureIO, 'data/persistent/equality_deletes/warehouse/mydb/mytable_partitioned'),
      await findLatestMetadataFile(fixtureIO, 'data/persistent/equality_deletes/warehouse/mydb/mytable'),
      await findLatestMetadataFile(fixtureIO, 'data/persistent/iceberg_v1_deprecated/default/legacy_v1'),
      await findLatestMetadataFile(fixtureIO, 'file://data/persistent/map_stats/default.db/map_stats'),
    ];
    for (const u of uris) expect(await checkTable(await openTable(u))).toBeGreaterThan(0);
  });
});
