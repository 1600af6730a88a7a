/**
 * What IcebergTableSource.scan() prepares before reading on the pool — the pruned plan, the projected
 * fields, the equality-delete field lookup, the bound pushed filters, row-group splits — for callers that
 * run their own fragment on the workers instead of reading rows (exec/partial/ partial aggregates).
 */
import type { ScanContext } from '../../catalog/table-source.ts';
import type { IcebergTableSource } from '../iceberg-table-source.ts';
import { addPlanCounters, type FileScanTask } from '../scan/table-scan.ts';
import { indexById, type NestedField } from '../spec/schema.ts';
import { lateMaterializationOn } from '../read/late-materialization.ts';
import { applyFileCacheSetting, threadShare } from '../read/file-cache-setting.ts';
import { planParallelScan, readFieldIds, type ParallelReadContext, type ParallelScan } from './parallel-scan.ts';

export interface SourceParallelScan {
  readonly scan: ParallelScan;
  readonly tasks: readonly FileScanTask[];
  /** the projected fields, in `projection` order */
  readonly fields: readonly NestedField[];
  readonly read: ParallelReadContext;
}

/**
 * The pool read of `source` for `ctx`, or null when the scan would run on the main thread. `keepEven`: files that
 * share out evenly over the threads are not cut into pieces (parallel-scan.ts ParallelScanOptions.keepEven).
 */
export async function sourceParallelScan(
  source: IcebergTableSource,
  ctx: Pick<ScanContext, 'signal' | 'projection' | 'filters' | 'metrics'> & Partial<Pick<ScanContext, 'session'>>,
  options: { readonly keepEven?: boolean } = {},
): Promise<SourceParallelScan | null> {
  const plan = await source.planFiles(ctx.filters);
  const wanted = ctx.projection ?? source.schema.fields.map((_f, i) => i);
  const fields = wanted.map((i) => source.schema.fields[i]!);
  const filter = source.bindFilters(ctx.filters, { rows: true });
  const parallel = await planParallelScan(source.io, plan.tasks, { fieldIds: () => readFieldIds(fields, filter), keepEven: options.keepEven === true });
  if (parallel === null) return null;
  if (ctx.metrics) addPlanCounters(ctx.metrics, plan.counters);
  // equality-delete ids may name fields of any schema version
  const byId = new Map<number, NestedField>();
  for (const s of source.metadata.schemas) for (const [id, f] of indexById(s)) byId.set(id, f);
  for (const [id, f] of indexById(source.schema)) byId.set(id, f);
  const read: ParallelReadContext = {
    signal: ctx.signal,
    filter,
    fieldById: (id) => byId.get(id),
    lateMaterialization: lateMaterializationOn(ctx.session),
    fileCacheBytes: threadShare(applyFileCacheSetting(ctx.session, parallel.pool.size), parallel.pool.size, 'worker'),
    ...(ctx.metrics ? { metrics: ctx.metrics } : {}),
  };
  return { scan: parallel, tasks: parallel.tasks, fields, read };
}
