/**
 * The scan behind UPDATE / DELETE: the live rows of one snapshot, like IcebergTableSource.scan, plus two
 * trailing columns naming each row — its data file path (text) and its row position in that file (int8,
 * § Position Delete Files `pos`, 0-based). A separate reader keeps normal scans free of the extra column.
 * Deleted rows (position and equality deletes, with the sequence-number rules of planScan) are skipped
 * exactly as the normal reader skips them. Pushed filters are ignored: every live row is read, so the
 * row delta knows when a statement removes every row of a file (then the file itself is dropped).
 */
import type { Batch } from '../../common/batch.ts';
import type { IcebergIO } from '../io.ts';
import type { FileScanTask } from '../scan/table-scan.ts';
import type { NestedField } from '../spec/schema.ts';
import { readParquetColumns, type ParquetColumnRequest } from '../read/parquet-reader.ts';
import { tupleKey, type DeleteLoader } from '../read/delete-loader.ts';
import { missingValueOf } from '../read/file-scan-task-reader.ts';

export async function* readTaskWithRowIds(
  io: IcebergIO,
  task: FileScanTask,
  fields: readonly NestedField[],
  deletes: DeleteLoader,
  signal?: AbortSignal,
): AsyncGenerator<Batch> {
  const path = task.file.filePath;
  const deleted = new Set<number>();
  for (const d of task.positionDeletes) for (const p of await deletes.positionsFor(d.file, path)) deleted.add(p);
  const eqSets = await Promise.all(task.equalityDeletes.map((d) => deletes.equalitySet(d.file)));
  const requests: ParquetColumnRequest[] = fields.map((f) => ({ fieldId: f.id, type: f.type, missingValue: missingValueOf(f, task) }));
  const indexOfId = new Map(fields.map((f, i) => [f.id, i]));
  for (const s of eqSets) {
    for (const id of s.fieldIds) {
      const field = deletes.fieldById(id);
      if (indexOfId.has(id) || !field) continue;
      indexOfId.set(id, requests.length);
      requests.push({ fieldId: id, type: field.type, missingValue: missingValueOf(field, task) });
    }
  }
  const eqCols = eqSets.map((s) => s.fieldIds.map((id) => indexOfId.get(id)!));
  for await (const chunk of readParquetColumns({ io, size: Number(task.file.fileSizeInBytes) }, path, requests)) {
    signal?.throwIfAborted();
    const keep: number[] = [];
    rows: for (let r = 0; r < chunk.length; r++) {
      if (deleted.has(chunk.firstRowPosition + r)) continue;
      for (let s = 0; s < eqSets.length; s++) {
        if (eqSets[s]!.keys.has(tupleKey(eqCols[s]!.map((c) => chunk.columns[c]![r])))) continue rows;
      }
      keep.push(r);
    }
    if (keep.length === 0) continue;
    const cols = chunk.columns.slice(0, fields.length).map((c) => (keep.length === chunk.length ? c : keep.map((r) => c[r])));
    cols.push(new Array<unknown>(keep.length).fill(path), keep.map((r) => BigInt(chunk.firstRowPosition + r)));
    yield { length: keep.length, columns: cols };
  }
}
