/**
 * Runs one FileScanTask in a worker thread: Parquet decode (parquet-wasm), deletes, the pushed row filter,
 * then packs the surviving rows for the trip back (column-transfer.ts). Errors return as plain records
 * (worker-errors.ts); a set cancel flag stops the task at the next batch.
 */
import { Piscina } from 'piscina';
import type { Batch } from '../../common/batch.ts';
import type { NestedField } from '../spec/schema.ts';
import type { IcebergIO } from '../io.ts';
import { DeleteLoader } from '../read/delete-loader.ts';
import { configureFileCache } from '../read/file-cache.ts';
import { readFileScanTask, type FileScanTaskReadOptions } from '../read/file-scan-task-reader.ts';
import type { LateHistory } from '../read/late-materialization.ts';
import { wireFilterFor } from './filter-wire.ts';
import type { PackedBatch } from './column-transfer.ts';
import { packBatches } from './pack-batches.ts';
import { isExact } from './exact-rows.ts';
import { ioFromDescription } from './io-from-description.ts';
import { compileRowFilter } from './row-filter.ts';
import { emptyReadMetrics, isCanceled, requestTasks, type ReadMetrics, type ScanTaskRequest, type ScanTaskResult } from './scan-task.ts';
import { isMergeTaskRequest, type MergeTaskRequest, type MergeTaskResult } from './merge-task.ts';
import { toPlainError } from './worker-errors.ts';
import { scaledOnlyField } from '../read/arrow-fast-columns.ts';
import { referencedFieldIds, type BoundPredicate } from '../scan/bound-predicate.ts';

/** batches smaller than this after filtering are merged before packing */
const TARGET_ROWS = 8192;
/** delete files are loaded once per scan per worker; a few recent scans are remembered */
const DELETE_CACHE_SCANS = 4;
const deleteLoaders = new Map<string, DeleteLoader>();

function deleteLoaderFor(scanId: string, io: IcebergIO, fields: readonly NestedField[]): DeleteLoader {
  let loader = deleteLoaders.get(scanId);
  if (loader === undefined) {
    const byId = new Map(fields.map((f) => [f.id, f]));
    loader = new DeleteLoader(io, (id) => byId.get(id));
    deleteLoaders.set(scanId, loader);
    if (deleteLoaders.size > DELETE_CACHE_SCANS) deleteLoaders.delete(deleteLoaders.keys().next().value!);
  }
  return loader;
}

/** late materialization's history per scan (read/late-materialization.ts), for a few recent scans */
const lateHistories = new Map<string, LateHistory>();

function lateHistoryFor(scanId: string): LateHistory {
  let h = lateHistories.get(scanId);
  if (h === undefined) {
    h = { rowGroups: 0, matched: 0 };
    lateHistories.set(scanId, h);
    if (lateHistories.size > DELETE_CACHE_SCANS) lateHistories.delete(lateHistories.keys().next().value!);
  }
  return h;
}

const CANCELED: ScanTaskResult = { ok: false, canceled: true, error: null };

/**
 * The request's fields for a scan whose rows are only packed (no partial aggregate, and no row filter here after
 * the reader: it would pick rows without their doubles): a decimal column no pushed filter reads and no equality
 * delete compares is converted lazily (arrow-fast-columns.ts scaledOnly: exact doubles and placeholders, no
 * Numeric per value), since packing sends just those doubles (column-transfer.ts packAttachedDecimal) and the
 * main thread makes its Numerics from them. TPC-H q9: 64k rows × 3 decimals per run at SF 0.2.
 */
function packedOnlyFields(req: ScanTaskRequest, filter: BoundPredicate | null): ScanTaskRequest['fields'] {
  if (!req.fields.some((f) => f.type.kind === 'primitive' && f.type.name === 'decimal')) return req.fields;
  if (requestTasks(req).some((t) => t.equalityDeletes.length > 0)) return req.fields;
  const read = filter === null ? new Set<number>() : referencedFieldIds(filter);
  return req.fields.map((f) => (f.type.kind === 'primitive' && f.type.name === 'decimal' && !read.has(f.id) ? scaledOnlyField(f) : f));
}

/** the batches of every file of the request (a group of small files: task-groups.ts), one file after the other */
async function* readRequestTasks(io: IcebergIO, req: ScanTaskRequest, deletes: DeleteLoader, options: FileScanTaskReadOptions, fields = req.fields): AsyncGenerator<Batch> {
  for (const task of requestTasks(req)) yield* readFileScanTask(io, task, fields, deletes, options);
}

/**
 * the partial-aggregate runner, imported on the first fragment task: kept, because every dynamic import()
 * goes through the module loader's resolve hooks again (tsx: a round trip to its hooks thread per task)
 */
let fragmentModule: Promise<typeof import('../../exec/partial/run-fragment.ts')> | undefined;
let mergeModule: Promise<typeof import('../../exec/exchange/exchange-task.ts')> | undefined;

/** Piscina's Transferable protocol: `value` is posted with `transfer`'s buffers moved, not copied */
function moved(value: unknown, transfer: readonly ArrayBufferLike[]): unknown {
  if (transfer.length === 0) return value;
  const movable = { [Piscina.transferableSymbol]: transfer, [Piscina.valueSymbol]: value };
  return Piscina.move(movable as unknown as Parameters<typeof Piscina.move>[0]);
}

/** a hash-partitioned final aggregate's merge task (merge-task.ts) */
async function runMergeTask(req: MergeTaskRequest): Promise<unknown> {
  const cancel = new Int32Array(req.cancel);
  if (isCanceled(cancel)) return CANCELED;
  try {
    const { runExchangeTask } = await (mergeModule ??= import('../../exec/exchange/exchange-task.ts'));
    const transfer: ArrayBufferLike[] = [];
    const merged = await runExchangeTask(req.payload as Parameters<typeof runExchangeTask>[0], () => isCanceled(cancel), transfer);
    if (merged === null) return CANCELED;
    return moved({ ok: true, merged } satisfies MergeTaskResult, transfer);
  } catch (e) {
    return { ok: false, canceled: false, error: toPlainError(e) } satisfies MergeTaskResult;
  }
}

export default async function runScanTask(req: ScanTaskRequest | MergeTaskRequest | null): Promise<unknown> {
  if (req === null) return null; // warm-up ping (ScanPool.warm)
  if (isMergeTaskRequest(req)) return runMergeTask(req);
  const cancel = new Int32Array(req.cancel);
  if (isCanceled(cancel)) return CANCELED;
  try {
    if (req.fileCacheBytes !== undefined) configureFileCache(req.fileCacheBytes);
    const io = ioFromDescription(req.io);
    const deletes = deleteLoaderFor(req.scanId, io, req.deleteFields);
    const bound = req.filter === null ? null : wireFilterFor(req.scanId, req.filter);
    const late = bound !== null && req.lateMaterialization === true;
    // late materialization filters inside the reader; otherwise the decoded batches are filtered here
    const filter = bound === null || late ? null : compileRowFilter(bound, new Map(req.fields.map((f, i) => [f.id, i])));
    const metrics: ReadMetrics = emptyReadMetrics();
    // filled by a partial aggregate before its first batch is read (run-fragment.ts): fields its exact batches never read
    const unreadWhenExact = new Set<number>();
    // one shape whether late or not (absent fields undefined): the reader's reads of it stay monomorphic across queries
    const readOptions: FileScanTaskReadOptions = {
      signal: undefined, metrics, rowIds: false, filter: late ? bound : undefined,
      lateHistory: late ? lateHistoryFor(req.scanId) : undefined, unreadWhenExact: late ? unreadWhenExact : undefined,
    };
    if (req.fragment !== undefined) {
      // scan → filter → project → partial aggregate (exec/partial/): the groups go back, not the rows
      const { runFragment } = await (fragmentModule ??= import('../../exec/partial/run-fragment.ts'));
      const rows = async function* (): AsyncGenerator<Batch> {
        for await (const b of readRequestTasks(io, req, deletes, readOptions)) {
          if (isCanceled(cancel)) return;
          const kept = filter === null ? b : filter(b);
          if (kept.length > 0) yield kept;
        }
      };
      const transfer: ArrayBufferLike[] = []; // a partitioned fragment's packed columns (exec/exchange/)
      // the filter late materialization judged: batches it judged exactly may skip the same Filter conjuncts (exact-rows.ts)
      const judged = late && bound !== null ? { filter: bound, fields: req.fields, unreadWhenExact } : undefined;
      const partial = await runFragment(req.fragment as Parameters<typeof runFragment>[0], rows(), () => isCanceled(cancel), transfer, judged);
      if (partial === null || isCanceled(cancel)) return CANCELED;
      return moved({ ok: true, batches: [], metrics, partial } satisfies ScanTaskResult, transfer);
    }
    const types = req.fields.map((f) => f.type);
    const transfer: ArrayBufferLike[] = [];
    const out: PackedBatch[] = [];
    let pending: Batch[] = [];
    let pendingRows = 0;
    const flush = (): void => {
      // the pieces' rows together: exact (exact-rows.ts) when every piece was
      // packed as one batch, the typed columns piece by piece (not glued first: pack-batches.ts)
      if (pendingRows > 0) out.push(packBatches(pending, types, transfer, pending.every(isExact)));
      pending = [];
      pendingRows = 0;
    };
    for await (const b of readRequestTasks(io, req, deletes, readOptions, filter === null ? packedOnlyFields(req, bound) : req.fields)) {
      if (isCanceled(cancel)) return CANCELED;
      const kept = filter === null ? b : filter(b);
      if (kept.length === 0) continue;
      pending.push(kept);
      pendingRows += kept.length;
      if (pendingRows >= TARGET_ROWS) flush();
    }
    flush();
    return moved({ ok: true, batches: out, metrics } satisfies ScanTaskResult, transfer);
  } catch (e) {
    return { ok: false, canceled: false, error: toPlainError(e) } satisfies ScanTaskResult;
  }
}
