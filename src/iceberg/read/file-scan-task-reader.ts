/**
 * Reads one FileScanTask into lakegate Batches: the projected schema fields by field id (renames are free),
 * fields missing from the file from the identity partition value, v3 initial-default or NULL, then drops
 * rows hit by position deletes (file_path + pos) and equality deletes (tuple over equality_ids).
 * Only the task's `rowGroups` are read when the planner chose some (row-group pruning).
 */
import type { Batch } from '../../common/batch.ts';
import type { IcebergIO } from '../io.ts';
import type { FileScanTask } from '../scan/table-scan.ts';
import type { NestedField } from '../spec/schema.ts';
import { fromAvroValue, fromJsonSingleValue } from '../spec/types.ts';
import { readParquetColumns, type ParquetColumnRequest, type ParquetReadOptions } from './parquet-reader.ts';
import { tupleKey, type DeleteLoader } from './delete-loader.ts';

/** The value a field takes in a file that lacks it (§ Column Projection). */
export function missingValueOf(field: NestedField, task: FileScanTask): unknown {
  const identity = task.spec.fields.find((p) => p.transform === 'identity' && p.sourceId === field.id);
  if (identity && task.file.partition.has(identity.fieldId)) return fromAvroValue(field.type, task.file.partition.get(identity.fieldId));
  if (field.initialDefault !== undefined) return fromJsonSingleValue(field.type, field.initialDefault);
  return null;
}

export async function* readFileScanTask(
  io: IcebergIO,
  task: FileScanTask,
  fields: readonly NestedField[],
  deletes: DeleteLoader,
  signal?: AbortSignal,
  /** row groups / bytes / rows read are added here (a worker passes its own and sends it back) */
  metrics?: ParquetReadOptions['metrics'],
): AsyncGenerator<Batch> {
  const path = task.file.filePath;
  const deleted = new Set<number>();
  for (const d of task.positionDeletes) for (const p of await deletes.positionsFor(d.file, path)) deleted.add(p);
  const eqSets = await Promise.all(task.equalityDeletes.map((d) => deletes.equalitySet(d.file)));

  // equality columns are read even when not projected, then dropped
  const requests: ParquetColumnRequest[] = fields.map((f) => ({ fieldId: f.id, type: f.type, missingValue: missingValueOf(f, task) }));
  const indexOfId = new Map(fields.map((f, i) => [f.id, i]));
  for (const s of eqSets) {
    for (const id of s.fieldIds) {
      if (indexOfId.has(id)) continue;
      const field = deletes.fieldById(id);
      if (!field) continue;
      indexOfId.set(id, requests.length);
      requests.push({ fieldId: id, type: field.type, missingValue: missingValueOf(field, task) });
    }
  }
  const eqCols = eqSets.map((s) => s.fieldIds.map((id) => indexOfId.get(id)!));

  for await (const chunk of readParquetColumns({ io, size: Number(task.file.fileSizeInBytes) }, path, requests, {
    ...(task.rowGroups === undefined ? {} : { rowGroups: task.rowGroups }),
    ...(metrics === undefined ? {} : { metrics }),
    ...(task.nameMapping === undefined ? {} : { nameMapping: task.nameMapping }),
  })) {
    signal?.throwIfAborted();
    let keep: number[] | null = null;
    if (deleted.size > 0 || eqSets.length > 0) {
      keep = [];
      rows: for (let r = 0; r < chunk.length; r++) {
        if (deleted.has(chunk.firstRowPosition + r)) continue;
        for (let s = 0; s < eqSets.length; s++) {
          if (eqSets[s]!.keys.has(tupleKey(eqCols[s]!.map((c) => chunk.columns[c]![r])))) continue rows;
        }
        keep.push(r);
      }
    }
    const cols = chunk.columns.slice(0, fields.length);
    if (keep === null) {
      yield { length: chunk.length, columns: cols };
    } else if (keep.length > 0) {
      const k = keep;
      yield { length: k.length, columns: cols.map((c) => k.map((r) => c[r])) };
    }
  }
}
