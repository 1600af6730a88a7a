/**
 * The scan behind UPDATE / DELETE: the live rows of one snapshot, like IcebergTableSource.scan, plus two
 * trailing columns naming each row — its data file path (text) and its row position in that file (int8,
 * § Position Delete Files `pos`, 0-based); normal scans go without them.
 * Deleted rows (position and equality deletes, with the sequence-number rules of planScan) are skipped
 * exactly as the normal reader skips them (it is the normal reader, asked for row ids; name mapping and
 * row-group selection apply the same way). With a `filter` (a MERGE's / ON CONFLICT's join keys pushed into
 * the target's scan), rows that certainly fail it are skipped by late materialization, as in a normal scan.
 */
import type { Batch } from '../../common/batch.ts';
import type { IcebergIO } from '../io.ts';
import type { FileScanTask } from '../scan/table-scan.ts';
import type { NestedField } from '../spec/schema.ts';
import type { DeleteLoader } from '../read/delete-loader.ts';
import type { BoundPredicate } from '../scan/bound-predicate.ts';
import { readFileScanTask } from '../read/file-scan-task-reader.ts';

export function readTaskWithRowIds(
  io: IcebergIO,
  task: FileScanTask,
  fields: readonly NestedField[],
  deletes: DeleteLoader,
  signal?: AbortSignal,
  filter?: BoundPredicate,
): AsyncGenerator<Batch> {
  return readFileScanTask(io, task, fields, deletes, { ...(signal === undefined ? {} : { signal }), rowIds: true, ...(filter === undefined || filter.kind === 'true' ? {} : { filter }) });
}
