import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlCatalog, type IcebergCatalog } from '../catalog/iceberg/index.ts';
import { FileIO } from '../storage/index.ts';
import {
  findSnapshot, icebergIOFromFileIO, loadTableMetadata, schemaById, writableIcebergIO, type IcebergWriteIO, type TableMetadata,
} from '../iceberg/index.ts';
import { buildSampleLakehouse, dropSampleNamespace, sampleState, SAMPLE_MARKER_PROPERTY, type SampleTarget } from './build-sample-lakehouse.ts';
import { writeBehindDataFiles } from './write-behind-io.ts';

const parquetFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.parquet')).sort();

describe('buildSampleLakehouse into a temp warehouse (scale 0.01)', () => {
  let warehouse: string;
  let catalog: IcebergCatalog;
  let fileIO: FileIO;
  let target: SampleTarget;
  let progress = '';
  const metadata = async (name: string): Promise<TableMetadata> =>
    loadTableMetadata(target.io, (await catalog.loadTableLocation({ namespace: ['sample'], name })).metadataLocation);

  beforeAll(async () => {
    warehouse = mkdtempSync(join(tmpdir(), 'lakegate-sample-'));
    fileIO = new FileIO({ pathMap: [] });
    catalog = await openSqlCatalog({ catalogName: 'lakegate', warehouse });
    target = {
      catalog,
      io: writableIcebergIO(icebergIOFromFileIO(fileIO), fileIO),
      warehouse,
      purge: async (location) => rmSync(location, { recursive: true, force: true }),
    };
    const result = await buildSampleLakehouse(target, { scale: 0.01, progress: { write: (s: string) => (progress += s) } });
    expect(result.rows).toEqual({ customers: 500, products: 50, orders: 3000, order_items: 7345 });
  }, 120_000);

  afterAll(async () => {
    await catalog?.close();
    await fileIO?.close();
    if (warehouse !== undefined) rmSync(warehouse, { recursive: true, force: true });
  });

  it('creates the four tables in namespace sample, marked as lakegate-built at its scale', async () => {
    expect((await catalog.listTables(['sample'])).map((t) => t.name)).toEqual(['customers', 'order_items', 'orders', 'products']);
    expect(await sampleState(catalog)).toBe('complete');
    expect((await catalog.loadNamespaceProperties(['sample']))[SAMPLE_MARKER_PROPERTY]).toBe('0.01');
  });

  it('one append snapshot per table with the deterministic row counts', async () => {
    for (const [name, rows] of [['customers', 500], ['products', 50], ['orders', 3000], ['order_items', 7345]] as const) {
      const md = await metadata(name);
      expect(md.snapshots).toHaveLength(1);
      expect(findSnapshot(md)?.summary['total-records']).toBe(String(rows));
      expect(md.formatVersion).toBe(2);
    }
  });

  it('orders is partitioned by day(ordered_at); keys, types and foreign keys are kept', async () => {
    const md = await metadata('orders');
    const schema = schemaById(md, md.currentSchemaId);
    const spec = md.partitionSpecs.find((s) => s.specId === md.defaultSpecId)!;
    const orderedAt = schema.fields.find((f) => f.name === 'ordered_at')!;
    expect(spec.fields.map((f) => [f.transform, f.sourceId])).toEqual([['day', orderedAt.id]]);
    expect(orderedAt.type).toEqual({ kind: 'primitive', name: 'timestamptz' });
    expect(schema.fields.find((f) => f.name === 'total')!.type).toMatchObject({ kind: 'primitive', name: 'decimal', precision: 12, scale: 2 });
    expect(schema.identifierFieldIds).toEqual([schema.fields[0]!.id]);
    expect(JSON.parse(md.properties['lakegate.foreign-keys']!)).toEqual([
      { name: 'orders_customer_id_fkey', columns: ['customer_id'], refSchema: 'sample', refTable: 'customers', refColumns: ['customer_id'] },
    ]);
    // one data file per day with orders: 2023-01-01 .. 2024-12-31
    const dayFolders = readdirSync(join(warehouse, 'sample', 'orders', 'data'));
    expect(dayFolders.length).toBeGreaterThan(700);
    expect(dayFolders).toContain('ordered_at_day=2024-11-29');
    const items = await metadata('order_items');
    expect(items.partitionSpecs.find((s) => s.specId === items.defaultSpecId)!.fields).toEqual([]);
  });

  it('reported progress on the stream it was given (plain lines: not a TTY)', () => {
    expect(progress).toContain('sample.customers');
    expect(progress).toContain('sample.orders: writing Parquet files, committing');
    expect(progress.trimEnd().split('\n').at(-1)).toMatch(/^100% 10,895\/10,895 rows .* done in/);
  });

  it('a rebuild (here at another scale) drops the old tables and purges their files', async () => {
    const before = parquetFiles(join(warehouse, 'sample'));
    const oldOrders = (await catalog.loadTableLocation({ namespace: ['sample'], name: 'orders' })).metadataLocation;
    const result = await buildSampleLakehouse(target, { scale: 0.001, progress: null });
    expect(result.rows).toMatchObject({ customers: 50, products: 5, orders: 300 });
    expect(findSnapshot(await metadata('orders'))?.summary['total-records']).toBe('300');
    expect((await catalog.loadNamespaceProperties(['sample']))[SAMPLE_MARKER_PROPERTY]).toBe('0.001');
    const after = parquetFiles(join(warehouse, 'sample'));
    expect(after.length).toBeGreaterThan(200);
    expect(after.filter((f) => before.includes(f))).toEqual([]); // new files only: the old ones were purged
    expect((await catalog.loadTableLocation({ namespace: ['sample'], name: 'orders' })).metadataLocation).not.toBe(oldOrders);
  }, 120_000);

  it('a sample namespace made by someone else is "foreign"; dropping it keeps its tables\' files', async () => {
    await catalog.createNamespace(['mine']);
    expect(await sampleState(catalog, 'mine')).toBe('foreign');
    expect(await sampleState(catalog, 'nothing')).toBe('absent');
    expect(await dropSampleNamespace(target, 'mine')).toBe(true);
    expect(await catalog.namespaceExists(['mine'])).toBe(false);
  });
});

describe('writeBehindDataFiles', () => {
  const fakeIO = (log: string[], failOn?: string): IcebergWriteIO => ({
    read: async () => new Uint8Array(),
    readRange: async () => new Uint8Array(),
    write: async (uri) => {
      await new Promise((r) => setTimeout(r, uri.endsWith('.parquet') ? 20 : 0));
      if (uri === failOn) throw new Error(`disk full: ${uri}`);
      log.push(uri);
    },
    writeIfAbsent: async (uri) => {
      log.push(uri);
      return true;
    },
  });

  it('data files are written concurrently, and every other write waits for them', async () => {
    const log: string[] = [];
    const io = writeBehindDataFiles(fakeIO(log), 4);
    const started = Date.now();
    for (let i = 0; i < 8; i++) await io.write(`d${i}.parquet`, new Uint8Array());
    expect(log).toHaveLength(4); // at most 4 in flight: the first 4 finished before the 5th..8th could start
    await io.write('m.avro', new Uint8Array());
    expect(log.slice(0, 8).sort()).toEqual(['d0.parquet', 'd1.parquet', 'd2.parquet', 'd3.parquet', 'd4.parquet', 'd5.parquet', 'd6.parquet', 'd7.parquet']);
    expect(log[8]).toBe('m.avro');
    expect(Date.now() - started).toBeLessThan(8 * 20);
  });

  it('a failed data file write fails the next manifest or metadata write', async () => {
    const log: string[] = [];
    const io = writeBehindDataFiles(fakeIO(log, 'd1.parquet'));
    await io.write('d0.parquet', new Uint8Array());
    await io.write('d1.parquet', new Uint8Array());
    await expect(io.writeIfAbsent('v1.metadata.json', new Uint8Array())).rejects.toThrow('disk full: d1.parquet');
    expect(log).toEqual(['d0.parquet']);
  });
});
