/**
 * Scan-worker side of a row-partitioned aggregate: when partial states hardly reduce the rows (one group per
 * order), a task sends no states at all but its rows — the aggregate's input after the fragment's Filters and
 * Projections — split into P sets by keyPartition of the group key, column-wise as WireColumns (unread
 * columns are one NULL constant, so only the columns the aggregate reads cost anything). The merge task of
 * partition p then aggregates its rows with the executor's HashAggregateExec (aggregate-partition.ts).
 */
import type { Batch } from '../../common/batch.ts';
import type { RowFn } from '../expr/compile-expr.ts';
import type { ExecOperator } from '../operator.ts';
import { keyPartition } from './key-partition.ts';
import { packColumn, type WireColumn } from './wire-column.ts';
import { packPieces } from './pack-pieces.ts';

/** one partition's rows of one task */
export interface RowSet {
  readonly length: number;
  readonly columns: readonly WireColumn[];
}

/**
 * what a scan task returns when its fragment repartitions rows: `parts[p]` for partition p; with one partition,
 * its rows in pieces instead — one set per input batch, in order (see repartitionRows)
 */
export interface RepartitionedRows {
  readonly repartitioned: true;
  readonly rows: number;
  readonly parts: readonly RowSet[];
}

export function isRepartitionedRows(v: unknown): v is RepartitionedRows {
  return typeof v === 'object' && v !== null && (v as Partial<RepartitionedRows>).repartitioned === true;
}

/** rows between two looks at the cancel flag */
const CANCEL_CHECK_ROWS = 4096;

/**
 * The rows of `input` split by the hash of `keys` into `parts` sets; null once `canceled()`. Buffers to move
 * go to `transfer`.
 */
export async function repartitionRows(
  input: ExecOperator,
  keys: readonly RowFn[],
  keyOids: readonly number[],
  parts: number,
  canceled: () => boolean,
  transfer: ArrayBufferLike[],
): Promise<RepartitionedRows | null> {
  const batches: Batch[] = [];
  const rowParts: Uint16Array[] = [];
  const counts = new Array<number>(parts).fill(0);
  const kv = new Array<unknown>(keys.length);
  let rows = 0;
  for await (const b of input.execute()) {
    if (canceled()) return null;
    if (parts === 1) {
      // one set (a serial aggregate's narrowed rows, partial/worker-rows.ts): every row goes to it, no key is read
      batches.push(b);
      rows += b.length;
      continue;
    }
    const of = new Uint16Array(b.length);
    for (let i = 0; i < b.length; i++) {
      if (i % CANCEL_CHECK_ROWS === CANCEL_CHECK_ROWS - 1 && canceled()) return null;
      for (let k = 0; k < keys.length; k++) kv[k] = keys[k]!(b.columns, i);
      const p = keyPartition(kv, keyOids, parts);
      of[i] = p;
      counts[p]!++;
    }
    batches.push(b);
    rowParts.push(of);
    rows += b.length;
  }
  const width = batches[0]?.columns.length ?? 0;
  if (parts === 1) {
    // one partition (a serial aggregate's narrowed rows, partial/worker-rows.ts): a set per batch, each column packed
    // straight from it (pack-pieces.ts). Not one set per task: a task of grouped small files holds ~37k rows at SF 0.2,
    // 130k at SF 1, and typed arrays that long are fresh memory faulted in page by page on both threads (~25 µs a
    // page on the dev VM), where a batch's ≤ 64 KiB come from the allocator's reused heap; and the main thread's
    // batches stay below V8's large-object size either way (worker-rows.ts WORKER_ROWS_BATCH)
    const sets: RowSet[] = [];
    for (const b of batches) {
      if (b.length === 0) continue;
      const columns: WireColumn[] = [];
      for (let c = 0; c < width; c++) columns.push(packPieces([{ column: b.columns[c]!, length: b.length }], b.length, transfer));
      sets.push({ length: b.length, columns });
    }
    return { repartitioned: true, rows, parts: sets };
  }
  // columns the scan did not read (widened with NULLs) cost one look, not a gather per partition
  const allNull: boolean[] = [];
  for (let c = 0; c < width; c++) allNull.push(batches.every((b) => { const col = b.columns[c]!; for (let i = 0; i < b.length; i++) if (col[i] !== null) return false; return true; }));
  const out: RowSet[] = [];
  for (let p = 0; p < parts; p++) {
    const n = counts[p]!;
    const columns: WireColumn[] = [];
    for (let c = 0; c < width; c++) {
      if (allNull[c]) { columns.push({ kind: 'const', value: null, length: n }); continue; }
      // gathered column by column: a column shared by every row (an unread one) stays one constant
      const col = new Array<unknown>(n);
      let at = 0;
      for (let k = 0; k < batches.length; k++) {
        const src = batches[k]!.columns[c]!;
        const of = rowParts[k]!;
        for (let i = 0; i < of.length; i++) if (of[i] === p) col[at++] = src[i];
      }
      columns.push(packColumn(col, transfer));
    }
    out.push({ length: n, columns });
  }
  return { repartitioned: true, rows, parts: out };
}
