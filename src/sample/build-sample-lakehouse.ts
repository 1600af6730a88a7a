/**
 * Writes the sample lakehouse into an Iceberg catalog: namespace `sample` with customers, products,
 * orders (partitioned by day(ordered_at)) and order_items, each created like CREATE TABLE and filled
 * through the same writer as COPY (Parquet data files, manifests, one append commit per table).
 *
 * The namespace property `lakegate.sample` says what the namespace is: `building` while tables are being
 * written, then the scale (`1`). A namespace named `sample` without it belongs to a user and is never
 * dropped by the startup hook; one still `building` was interrupted and is rebuilt.
 */
import type { IcebergCatalog, TableIdentifier } from '../catalog/iceberg/index.ts';
import type { Batch } from '../common/batch.ts';
import {
  createIcebergTable, insertIntoIcebergTable, loadTableMetadata, schemaById, type IcebergWriteIO,
} from '../iceberg/index.ts';
import { ProgressBar, formatDuration, type ProgressStream } from './progress-bar.ts';
import { sampleBatches } from './sample-batches.ts';
import { SAMPLE_NAMESPACE, SAMPLE_TABLES, type SampleTableDef, type SampleTableName } from './sample-schema.ts';
import { sampleWorld } from './sample-world.ts';
import { writeBehindDataFiles } from './write-behind-io.ts';

/** namespace property marking a lakegate-built sample: `building` or the scale it was built at */
export const SAMPLE_MARKER_PROPERTY = 'lakegate.sample';
const BUILDING = 'building';
/** expected order lines per order (LINE_WEIGHTS in sample-orders.ts), for the progress total */
const LINES_PER_ORDER = 2.42;

export interface SampleTarget {
  readonly catalog: IcebergCatalog;
  readonly io: IcebergWriteIO;
  /** warehouse root, for table locations when the namespace has no `location` */
  readonly warehouse?: string;
  /** deletes every file under a dropped table's location (absent: the files stay, as after DROP TABLE) */
  readonly purge?: (tableLocation: string) => Promise<void>;
}

export interface BuildSampleOptions {
  /** 1 ≈ 1.08 million rows; rows scale linearly (0.01 for tests) */
  readonly scale?: number;
  readonly namespace?: string;
  /** where the progress bar goes; null = none */
  readonly progress?: ProgressStream | null;
  /** Parquet files roll at this many (uncompressed) bytes; default the writer's */
  readonly targetFileSizeBytes?: number;
}

export interface SampleBuildResult {
  readonly scale: number;
  readonly rows: Readonly<Record<SampleTableName, number>>;
  readonly totalRows: number;
  readonly seconds: number;
}

export type SampleState = 'absent' | 'complete' | 'incomplete' | 'foreign';

/** absent; built by lakegate (complete, or interrupted while building); or a namespace someone else made */
export async function sampleState(catalog: IcebergCatalog, namespace = SAMPLE_NAMESPACE): Promise<SampleState> {
  if (!(await catalog.namespaceExists([namespace]))) return 'absent';
  const marker = (await catalog.loadNamespaceProperties([namespace]))[SAMPLE_MARKER_PROPERTY];
  if (marker === undefined) return 'foreign';
  return marker === BUILDING ? 'incomplete' : 'complete';
}

/**
 * Drops every table of the namespace and the namespace. Files are purged (when the target can) only for
 * the sample's own tables in a namespace lakegate built; other tables lose just their catalog pointer,
 * as with DROP TABLE, so a table registered there from elsewhere keeps its files.
 */
export async function dropSampleNamespace(target: SampleTarget, namespace = SAMPLE_NAMESPACE): Promise<boolean> {
  const { catalog } = target;
  if (!(await catalog.namespaceExists([namespace]))) return false;
  const ours = (await catalog.loadNamespaceProperties([namespace]))[SAMPLE_MARKER_PROPERTY] !== undefined;
  for (const id of await catalog.listTables([namespace])) {
    let location: string | undefined;
    if (ours && SAMPLE_TABLES.some((t) => t.name === id.name)) {
      try {
        location = (await loadTableMetadata(target.io, (await catalog.loadTableLocation(id)).metadataLocation)).location;
      } catch {
        location = undefined; // unreadable metadata: drop the pointer anyway
      }
    }
    await catalog.dropTable(id);
    if (location !== undefined) await target.purge?.(location);
  }
  await catalog.dropNamespace([namespace]);
  return true;
}

/** the batches, counted on the progress bar as the writer takes them; then says the files are being written */
async function* counted(batches: Iterable<Batch>, progress: ProgressBar | null, table: string): AsyncGenerator<Batch> {
  for (const b of batches) {
    yield b;
    progress?.add(b.length);
  }
  progress?.setPhase(`${table}: writing Parquet files, committing`);
}

async function createSampleTable(target: SampleTarget, namespace: string, def: SampleTableDef): Promise<TableIdentifier> {
  const id: TableIdentifier = { namespace: [namespace], name: def.name };
  const foreignKeys = def.foreignKeys.map((fk) => ({ name: fk.name, columns: fk.columns, refSchema: namespace, refTable: fk.refTable, refColumns: fk.refColumns }));
  await createIcebergTable(target.catalog, target.io, id, def.columns, {
    primaryKey: def.primaryKey,
    partitioning: def.partitioning,
    ...(target.warehouse === undefined ? {} : { warehouse: target.warehouse }),
    // the same properties CREATE TABLE / COMMENT ON write (engine/iceberg-tables.ts)
    properties: { comment: def.comment, ...(foreignKeys.length === 0 ? {} : { 'lakegate.foreign-keys': JSON.stringify(foreignKeys) }) },
  });
  return id;
}

/**
 * Drops the namespace if it exists, then creates and fills the four tables (one commit each). The
 * namespace is marked complete only at the end.
 */
export async function buildSampleLakehouse(target: SampleTarget, options: BuildSampleOptions = {}): Promise<SampleBuildResult> {
  const scale = options.scale ?? 1;
  const namespace = options.namespace ?? SAMPLE_NAMESPACE;
  const started = performance.now();
  const world = sampleWorld(scale);
  const { catalog } = target;
  await dropSampleNamespace(target, namespace);
  await catalog.createNamespace([namespace], { [SAMPLE_MARKER_PROPERTY]: BUILDING, comment: 'lakegate sample dataset (lakegate sample --scale N rebuilds it)' });
  const estimate = world.sizes.customers + world.sizes.products + world.sizes.orders + Math.round(world.sizes.orders * LINES_PER_ORDER);
  const progress = options.progress === null ? null : new ProgressBar(estimate, options.progress ?? process.stderr);
  const rows = { customers: 0, products: 0, orders: 0, order_items: 0 };
  try {
    for (const def of SAMPLE_TABLES) {
      progress?.setPhase(`${namespace}.${def.name}`);
      const id = await createSampleTable(target, namespace, def);
      const md = await loadTableMetadata(target.io, (await catalog.loadTableLocation(id)).metadataLocation);
      const writer = { catalog, io: writeBehindDataFiles(target.io), id, ...(options.targetFileSizeBytes === undefined ? {} : { targetFileSizeBytes: options.targetFileSizeBytes }) };
      const stats = { orderItems: 0 };
      rows[def.name] = await insertIntoIcebergTable(writer, md, schemaById(md, md.currentSchemaId), counted(sampleBatches(def.name, world, undefined, stats), progress, `${namespace}.${def.name}`));
      // the orders pass counted the order lines: the total is exact from here on
      if (def.name === 'orders') progress?.setTotal(world.sizes.customers + world.sizes.products + world.sizes.orders + stats.orderItems);
    }
  } catch (e) {
    progress?.finish('failed');
    throw e;
  }
  const totalRows = rows.customers + rows.products + rows.orders + rows.order_items;
  progress?.setTotal(totalRows);
  await catalog.updateNamespaceProperties([namespace], [], { [SAMPLE_MARKER_PROPERTY]: String(scale) });
  const seconds = (performance.now() - started) / 1000;
  progress?.finish(`done in ${formatDuration(seconds)}`);
  return { scale, rows, totalRows, seconds };
}
