/**
 * PRIMARY KEY / UNIQUE of a transaction block re-applied at COMMIT onto a table other writers added rows to
 * meanwhile (iceberg/commit/rebase-staged.ts). The block checked its new keys against the table as it began;
 * what it has not seen are the rows committed since. When file bounds cannot prove the two sets of keys apart
 * (staged-conflicts.ts), the keys are read: the block's new keys from the data files its staged snapshot
 * added (as its last staged snapshot has them: rows it deleted again are gone), then looked up only in the
 * data files the concurrent commits added that are still live (existing-keys.ts: pruned by the keys, delete
 * files applied). None there → the block re-applies (two sessions inserting distinct ids interleaved both
 * commit, as in PostgreSQL); a key there → 23505 with PostgreSQL's message and DETAIL, as PostgreSQL's later
 * inserter gets once the first commits.
 */
import type { Batch } from '../../common/batch.ts';
import type { IcebergIO } from '../io.ts';
import { DeleteLoader } from '../read/delete-loader.ts';
import { readFileScanTask } from '../read/file-scan-task-reader.ts';
import { planScan } from '../scan/table-scan.ts';
import type { DataFile } from '../spec/manifest.ts';
import { indexById, type NestedField, type Schema } from '../spec/schema.ts';
import type { TableMetadata } from '../spec/table-metadata.ts';
import { probeExistingKeys } from './existing-keys.ts';
import { uniqueViolation } from './key-check.ts';
import { KeyCollector } from './key-collector.ts';
import type { UniqueKey } from './unique-keys.ts';
import { noteViolatingRow } from './violating-row.ts';

export interface StagedKeyCheck {
  /** the table now (the concurrent commits' files are in its current snapshot) */
  readonly current: TableMetadata;
  /** the block's last staged metadata (its added files, with its own later deletes) */
  readonly staged: TableMetadata;
  readonly schema: Schema;
  readonly relation: { readonly schema: string; readonly name: string };
  readonly keys: readonly UniqueKey[];
  /** data files one staged snapshot added */
  readonly added: readonly DataFile[];
  /** data files the concurrent commits added */
  readonly concurrent: readonly DataFile[];
}

/** 23505 when a key the block adds is in a row committed concurrently; nothing read when none could be */
export async function checkStagedKeys(io: IcebergIO, c: StagedKeyCheck): Promise<void> {
  const collectors = c.keys.map((k) => new KeyCollector(k));
  const paths = new Set(c.added.map((f) => f.filePath));
  const byId = new Map<number, NestedField>();
  for (const s of c.staged.schemas) for (const [id, f] of indexById(s)) byId.set(id, f);
  const keyFields = [...new Set(c.keys.flatMap((k) => k.columns.map((col) => col.index)))];
  const fields = keyFields.map((i) => c.schema.fields[i]!);
  const deletes = new DeleteLoader(io, (id) => byId.get(id));
  const plan = await planScan(io, c.staged, c.staged.currentSnapshotId);
  for (const task of plan.tasks) {
    if (!paths.has(task.file.filePath)) continue;
    for await (const b of readFileScanTask(io, task, fields, deletes)) {
      // KeyCollector reads key columns at their schema positions: a sparse table-row batch
      const columns: (readonly unknown[])[] = c.schema.fields.map(() => []);
      keyFields.forEach((i, k) => { columns[i] = b.columns[k]!; });
      const rows: Batch = { columns, length: b.length };
      for (const col of collectors) col.add(rows);
    }
  }
  await probeExistingKeys(io, c.current, collectors, { onlyFiles: new Set(c.concurrent.map((f) => f.filePath)) });
  let worst: { row: number; keys: KeyCollector } | null = null;
  for (const col of collectors) {
    const row = col.firstViolation();
    if (row >= 0 && (worst === null || row < worst.row)) worst = { row, keys: col };
  }
  if (worst !== null) throw noteViolatingRow(uniqueViolation(c.relation, worst.keys, worst.row), worst.row);
}
