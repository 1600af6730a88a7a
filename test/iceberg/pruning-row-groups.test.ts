/**
 * Row-group pruning through IcebergTableSource: a COPY-sized append is cut into 128Ki-row row groups by the
 * writer, the planner keeps only the row groups whose footer statistics may match (FileScanTask.rowGroups),
 * the scan decodes only those, and the metrics count row groups, bytes and rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Oid } from '../../src/common/pgtypes/oids.ts';
import { resetEnvSettings } from '../../src/common/env-settings.ts';
import { emptyScanMetrics, type ColumnDef, type ScanPredicate } from '../../src/catalog/table-source.ts';
import { checkPruning, openWarehouse, TestTable, type Warehouse } from './pruning-helpers.ts';

const COLUMNS: ColumnDef[] = [
  { name: 'id', type: { oid: Oid.int8, typmod: -1 }, nullable: false },
  { name: 'd', type: { oid: Oid.date, typmod: -1 }, nullable: true },
  { name: 'name', type: { oid: Oid.text, typmod: -1 }, nullable: true },
];
const N = 300_000;

describe('row-group pruning', () => {
  let wh: Warehouse;
  let table: TestTable;
  beforeAll(async () => {
    // bytes read are what this measures: no decoded-column cache (src/iceberg/read/file-cache.ts)
    process.env['LAKEGATE_FILE_CACHE_SIZE'] = '0';
    resetEnvSettings();
    wh = await openWarehouse();
    table = await TestTable.create(wh, 'rg', COLUMNS);
    await table.insert(Array.from({ length: N }, (_v, i) => [BigInt(i), 19000 + Math.floor(i / 1000), i % 5 === 0 ? null : `n${i % 97}`]), 50_000);
  }, 60_000);
  afterAll(async () => {
    delete process.env['LAKEGATE_FILE_CACHE_SIZE'];
    resetEnvSettings();
    await wh.close();
  });

  it('one file, three row groups; a selective predicate decodes one', async () => {
    const t = await table.source();
    const all = await t.explainScan({});
    expect(all).toMatchObject({ filesTotal: 1, filesScanned: 1, rowGroupsTotal: 3, rowGroupsScanned: 3 });
    const filters: ScanPredicate[] = [{ kind: 'compare', op: '<', column: 0, value: 1000n }];
    const m = await checkPruning(t, filters);
    expect(m).toMatchObject({ filesScanned: 1, rowGroupsTotal: 3, rowGroupsScanned: 1, rowsDecoded: 131_072, matching: 1000 });
    const plan = await t.planFiles(filters);
    expect(plan.tasks[0]!.rowGroups).toEqual([0]);
    expect(m.bytesRead).toBeGreaterThan(0);
    expect(m.bytesRead).toBeLessThan(Number(plan.tasks[0]!.file.fileSizeInBytes) / 2);
    const last = await checkPruning(t, [{ kind: 'compare', op: '>=', column: 1, value: 19000 + 299 }]);
    expect(last).toMatchObject({ rowGroupsScanned: 1, matching: 1000 });
  });

  it('a predicate no row group can match drops the file (counted as pruned by statistics)', async () => {
    const t = await table.source();
    // id 131071 is in row group 0 and d = 19200 in row group 1: the file holds both, no row group does
    const m = await checkPruning(t, [{ kind: 'compare', op: '=', column: 0, value: 131_071n }, { kind: 'compare', op: '=', column: 1, value: 19000 + 200 }]);
    expect(m).toMatchObject({ filesScanned: 0, filesPrunedByStats: 1, rowGroupsScanned: 0, matching: 0 });
  });

  it('without filters every row group is read and counted', async () => {
    const t = await table.source();
    const m = emptyScanMetrics();
    let rows = 0;
    for await (const b of t.scan({ signal: new AbortController().signal, projection: [0], metrics: m })) rows += b.length;
    expect(rows).toBe(N);
    expect(m).toMatchObject({ filesScanned: 1, rowGroupsTotal: 3, rowGroupsScanned: 3, rowsDecoded: N });
  });
});
