/**
 * Test fixture: a multi-file table (multi-file-table.ts) in a temp warehouse, read through the shared scan pool of
 * 2 workers with no row minimum (so even a small table goes to the pool), set up before the enclosing describe's
 * tests and removed after them. Read `source` inside tests (it exists once beforeAll ran).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { IcebergTableSource } from '../../iceberg-table-source.ts';
import { acquireSharedScanPool } from '../scan-pool.ts';
import { multiFileTable, type MultiFileTable } from './multi-file-table.ts';

export interface PooledTable {
  readonly source: IcebergTableSource;
}

/** registers the fixture's beforeAll / afterAll in the calling describe */
export function usePooledMultiFileTable(prefix: string, files: number, rows: number): PooledTable {
  const warehouse = mkdtempSync(join(tmpdir(), prefix));
  let table: MultiFileTable | undefined;
  let source: IcebergTableSource | undefined;
  let release: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    table = await multiFileTable(warehouse, files, rows);
    source = await table.load();
    release = acquireSharedScanPool({ size: 2, minRows: 0 });
  }, 120_000);
  afterAll(async () => {
    await release?.();
    await table?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });
  return {
    get source(): IcebergTableSource {
      if (source === undefined) throw new Error('pooled table read before its beforeAll ran');
      return source;
    },
  };
}
