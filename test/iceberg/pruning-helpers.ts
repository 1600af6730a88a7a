/**
 * Helpers of the pruning tests: tables created and appended through the real write path (SQL catalog on a
 * temp warehouse), a JS evaluator of ScanPredicates with PostgreSQL semantics (NULL never matches a
 * comparison, NaN above every float), and `checkPruning`, which asserts that a pushed filter never changes
 * the answer (rows of the pruned scan that pass the filter = rows of the full scan that pass it) and returns
 * the scan metrics.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { matches } from '../../src/exec/testing/strict-table.ts';
import { openSqlCatalog, type IcebergCatalog } from '../../src/catalog/iceberg/index.ts';
import { FileIO } from '../../src/storage/index.ts';
import { icebergIOFromFileIO } from '../../src/iceberg/io.ts';
import { writableIcebergIO, type IcebergWriteIO } from '../../src/iceberg/write/write-io.ts';
import { createIcebergTable } from '../../src/iceberg/commit/create-table.ts';
import { insertIntoIcebergTable } from '../../src/iceberg/commit/table-writer.ts';
import { loadTableMetadata } from '../../src/iceberg/spec/metadata-file.ts';
import { currentSchema } from '../../src/iceberg/spec/table-metadata.ts';
import { IcebergTableSource } from '../../src/iceberg/iceberg-table-source.ts';
import { batchFromRows, rowsOfBatch, type Batch } from '../../src/common/batch.ts';
import { Numeric } from '../../src/common/pgtypes/numeric.ts';
import { emptyScanMetrics, type ColumnDef, type ScanMetrics, type ScanPredicate } from '../../src/catalog/table-source.ts';

export interface Warehouse {
  readonly io: IcebergWriteIO;
  readonly catalog: IcebergCatalog;
  close(): Promise<void>;
}

export async function openWarehouse(): Promise<Warehouse> {
  const dir = mkdtempSync(join(tmpdir(), 'lakegate-prune-'));
  const fileIO = new FileIO();
  const io = writableIcebergIO(icebergIOFromFileIO(fileIO), fileIO);
  const catalog = await openSqlCatalog({ warehouse: dir });
  await catalog.createNamespace(['ns']);
  return { io, catalog, close: async () => { await catalog.close(); rmSync(dir, { recursive: true, force: true }); } };
}

export class TestTable {
  constructor(readonly wh: Warehouse, readonly name: string, readonly width: number) {}
  get id() { return { namespace: ['ns'], name: this.name }; }

  static async create(wh: Warehouse, name: string, columns: readonly ColumnDef[], partitioning: readonly string[] = []): Promise<TestTable> {
    await createIcebergTable(wh.catalog, wh.io, { namespace: ['ns'], name }, columns, { partitioning });
    return new TestTable(wh, name, columns.length);
  }

  async metadata() {
    return loadTableMetadata(this.wh.io, (await this.wh.catalog.loadTableLocation(this.id)).metadataLocation);
  }

  /** one append commit (files per partition, rolled at the target size) */
  async insert(rows: readonly (readonly unknown[])[], batchRows = 10_000): Promise<void> {
    const md = await this.metadata();
    const width = this.width;
    async function* batches(): AsyncIterable<Batch> {
      for (let i = 0; i < rows.length; i += batchRows) yield batchFromRows(rows.slice(i, i + batchRows), width);
    }
    await insertIntoIcebergTable({ catalog: this.wh.catalog, io: this.wh.io, id: this.id }, md, currentSchema(md), batches());
  }

  async source(): Promise<IcebergTableSource> {
    return new IcebergTableSource(this.wh.io, await this.metadata());
  }
}

export async function scanRows(t: IcebergTableSource, filters?: readonly ScanPredicate[], metrics?: ScanMetrics, limit?: number, projection?: readonly number[]): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  const ctx = {
    signal: new AbortController().signal,
    ...(projection === undefined ? {} : { projection }),
    ...(filters === undefined ? {} : { filters }),
    ...(metrics === undefined ? {} : { metrics }),
    ...(limit === undefined ? {} : { limit }),
  };
  for await (const b of t.scan(ctx)) rows.push(...rowsOfBatch(b));
  return rows;
}

export { matches };

const rowKey = (r: readonly unknown[]): string => JSON.stringify(r, (_k, v: unknown) =>
  (typeof v === 'bigint' ? `${v}n` : Numeric.isNumeric(v) ? `num${v.toString()}` : typeof v === 'number' && Number.isNaN(v) ? 'NaN' : v));
export const sortedKeys = (rows: readonly (readonly unknown[])[]): string[] => rows.map(rowKey).sort();

/**
 * Scans with `filters` (metrics filled) and without, asserts the filtered answers are equal and that
 * explainScan reports the same plan counters, and returns the metrics with the number of matching rows.
 */
export async function checkPruning(
  t: IcebergTableSource,
  filters: readonly ScanPredicate[],
  fullScan?: readonly unknown[][],
  projection?: readonly number[],
): Promise<ScanMetrics & { matching: number }> {
  const all = (fullScan ?? await scanRows(t, undefined, undefined, undefined, projection)) as unknown[][];
  const m = emptyScanMetrics();
  const pruned = await scanRows(t, filters, m, undefined, projection);
  // compare only the projected columns (the others are NULL in both)
  const keep = (rows: unknown[][]): unknown[][] => (projection === undefined ? rows : rows.map((r) => projection.map((c) => r[c])));
  const want = all.filter((r) => filters.every((f) => matches(f, r)));
  const got = pruned.filter((r) => filters.every((f) => matches(f, r)));
  expect(sortedKeys(keep(got))).toEqual(sortedKeys(keep(want)));
  const e = await t.explainScan({ filters });
  expect({ files: e.filesScanned, total: e.filesTotal, part: e.filesPrunedByPartition, stats: e.filesPrunedByStats, rg: e.rowGroupsScanned })
    .toEqual({ files: m.filesScanned, total: m.filesTotal, part: m.filesPrunedByPartition, stats: m.filesPrunedByStats, rg: m.rowGroupsScanned });
  expect(m.filesScanned + m.filesPrunedByPartition + m.filesPrunedByStats).toBe(m.filesTotal);
  return { ...m, matching: want.length };
}
