/**
 * The sample lakehouse at server start and in `lakegate sample`: written through the engine's own Iceberg
 * catalog and FileIO (whatever catalog_uri / warehouse / S3 settings say), then the engine's mirror is
 * refreshed so the tables are visible at once. The first start on a warehouse without a `sample`
 * namespace builds it before listening; later starts find it and go on.
 */
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { QueryEngine } from '../engine/index.ts';
import { icebergIOFromFileIO, writableIcebergIO } from '../iceberg/index.ts';
import {
  buildSampleLakehouse, formatDuration, sampleState, SAMPLE_NAMESPACE, type ProgressStream, type SampleBuildResult, type SampleTarget,
} from '../sample/index.ts';
import type { Config } from './config.ts';

export type SampleLog = (line: string) => void;

const stderrLog: SampleLog = (line) => process.stderr.write(`lakegate: ${line}\n`);

/** the engine's catalog for the first database, as a sample target; undefined without a warehouse */
export function engineSampleTarget(engine: QueryEngine, cfg: Config): SampleTarget | undefined {
  const catalog = engine.icebergCatalog?.(cfg.databases[0]!);
  const fileIO = engine.fileIO?.();
  if (catalog === undefined || fileIO === undefined) return undefined;
  return {
    catalog,
    io: writableIcebergIO(icebergIOFromFileIO(fileIO), fileIO),
    warehouse: cfg.warehouse,
    // a rebuild leaves no orphan files: every object under the table location goes
    purge: async (location) => {
      const prefix = location.endsWith('/') ? location : `${location}/`;
      for await (const f of fileIO.list(prefix)) await fileIO.delete(f.uri);
      const local = /^file:/i.test(location) ? fileURLToPath(location) : /^[a-z][a-z0-9+.-]*:/i.test(location) ? null : location;
      if (local !== null) await rm(local, { recursive: true, force: true }); // the empty partition folders
    },
  };
}

/** drops and rebuilds the sample namespace, then makes the engine see it */
export async function rebuildSample(engine: QueryEngine, cfg: Config, progress: ProgressStream | null): Promise<SampleBuildResult> {
  const target = engineSampleTarget(engine, cfg);
  if (target === undefined) throw new Error('the sample dataset needs a warehouse (Iceberg catalog)');
  const result = await buildSampleLakehouse(target, { scale: cfg.sample_scale, progress });
  await engine.icebergCatalogChanged?.(cfg.databases[0]!);
  return result;
}

export const describeRows = (r: SampleBuildResult): string =>
  `${r.totalRows.toLocaleString('en-US')} rows (customers ${r.rows.customers.toLocaleString('en-US')}, products ${r.rows.products.toLocaleString('en-US')}, `
  + `orders ${r.rows.orders.toLocaleString('en-US')}, order_items ${r.rows.order_items.toLocaleString('en-US')})`;

/**
 * Startup hook: builds the sample when the namespace is missing (or a build was interrupted); leaves a
 * complete sample, or a user's own `sample` namespace, alone.
 */
export async function ensureSampleLakehouse(engine: QueryEngine, cfg: Config, log: SampleLog = stderrLog, progress: ProgressStream | null = process.stderr): Promise<'created' | 'present' | 'skipped'> {
  const target = engineSampleTarget(engine, cfg);
  if (target === undefined) return 'skipped';
  const state = await sampleState(target.catalog);
  if (state === 'complete') return 'present';
  if (state === 'foreign') {
    log(`schema "${SAMPLE_NAMESPACE}" exists and was not made by lakegate: sample dataset not created`);
    return 'skipped';
  }
  log(`${state === 'incomplete' ? 'an earlier sample build was interrupted: rebuilding' : 'creating'} the sample dataset `
    + `(schema "${SAMPLE_NAMESPACE}", scale ${cfg.sample_scale}) in ${cfg.warehouse}; skip it with --no-sample or LAKEGATE_SAMPLE=false`);
  const result = await rebuildSample(engine, cfg, progress);
  log(`sample dataset created in ${formatDuration(result.seconds)}: ${describeRows(result)}`);
  return 'created';
}
