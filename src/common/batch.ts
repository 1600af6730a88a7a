/**
 * Batch: the unit of data that flows between operators and out to the wire.
 * Columnar: `columns[c][r]` is the value of column c in row r (JS values as described in pgtypes/values.ts,
 * `null` for NULL). Arrow RecordBatches are converted to and from this shape at the storage and worker
 * boundaries (common/arrow); kernels that profit from typed arrays get them there.
 */
export interface Batch {
  readonly length: number;
  readonly columns: readonly (readonly unknown[])[];
}

export function batchOf(columns: readonly (readonly unknown[])[], length?: number): Batch {
  return { columns, length: length ?? columns[0]?.length ?? 0 };
}

export const EMPTY_BATCH: Batch = { length: 0, columns: [] };

/** Row-wise view used by tests and small paths (catalog tables): rows → columnar. */
export function batchFromRows(rows: readonly (readonly unknown[])[], columnCount: number): Batch {
  const columns: unknown[][] = Array.from({ length: columnCount }, () => new Array<unknown>(rows.length));
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    for (let c = 0; c < columnCount; c++) columns[c]![r] = row[c] ?? null;
  }
  return { columns, length: rows.length };
}

export function rowsOfBatch(batch: Batch): unknown[][] {
  const rows: unknown[][] = [];
  for (let r = 0; r < batch.length; r++) rows.push(batch.columns.map((col) => col[r] ?? null));
  return rows;
}
