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

/**
 * A column of `length` NULLs, shared: batches are immutable, so every scan that widens a projected batch to
 * the table's width (columns the query does not read stay NULL) can hand out the same array instead of
 * allocating and filling one per column per batch (garbage the size of the unread columns, per batch).
 * Every array it returns is marked (isNullColumn), so operators that copy rows — gather, concatenation in
 * joins, filters — pass such a column on as another shared null column instead of copying NULLs row by row.
 * Lengths up to NULL_COLUMN_MAX_CACHED are kept (batch sizes repeat: a scan's batches are 8192 rows); longer
 * ones (a join's whole build side) are allocated each time so the cache never pins big arrays.
 */
export function nullColumn(length: number): readonly unknown[] {
  let col = nullColumns.get(length);
  if (col === undefined) {
    if (length > NULL_COLUMN_MAX_CACHED) {
      // one big one, held weakly: the columns of one build side share it, and the GC may take it after
      const big = lastBig?.deref();
      if (big !== undefined && big.length === length) return big;
      col = new Array<unknown>(length).fill(null);
      markedNull.add(col);
      lastBig = new WeakRef(col);
      return col;
    }
    col = new Array<unknown>(length).fill(null);
    markedNull.add(col);
    if (nullColumns.size >= NULL_COLUMN_CACHE) nullColumns.delete(nullColumns.keys().next().value!);
    nullColumns.set(length, col);
  }
  return col;
}
const NULL_COLUMN_CACHE = 64;
const NULL_COLUMN_MAX_CACHED = 65_536;
const nullColumns = new Map<number, readonly unknown[]>();
const markedNull = new WeakSet<readonly unknown[]>();
let lastBig: WeakRef<readonly unknown[]> | undefined;

/** true for an array made by nullColumn (all NULL, shared: never to be written) */
export function isNullColumn(col: readonly unknown[] | undefined): boolean {
  return col !== undefined && markedNull.has(col);
}

/** A batch of the projected columns `wanted` (in that order) spread to `width` columns, the others NULL. */
export function widenBatch(b: Batch, wanted: readonly number[], width: number): Batch {
  const columns: (readonly unknown[])[] = new Array<readonly unknown[]>(width);
  for (let c = 0; c < width; c++) columns[c] = nullColumn(b.length);
  wanted.forEach((c, k) => { columns[c] = b.columns[k]!; });
  return { length: b.length, columns };
}
