import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlCatalog, type IcebergCatalog } from '../catalog/iceberg/index.ts';
import type { QueryEngine } from '../engine/index.ts';
import { SAMPLE_MARKER_PROPERTY, sampleState } from '../sample/index.ts';
import { FileIO } from '../storage/index.ts';
import { parseConfig } from './config.ts';
import { ensureSampleLakehouse } from './startup-sample.ts';

/** just the parts of the engine the startup hook uses */
function fakeEngine(catalog: IcebergCatalog | undefined, fileIO: FileIO): QueryEngine {
  return {
    connect: () => Promise.reject(new Error('not used')),
    close: async () => undefined,
    registerMemoryTable: async () => undefined,
    icebergCatalog: () => catalog,
    fileIO: () => fileIO,
    icebergCatalogChanged: async () => undefined,
  } as QueryEngine;
}

describe('ensureSampleLakehouse decisions (no build)', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const f of cleanup.splice(0)) await f();
  });

  async function setup(): Promise<{ catalog: IcebergCatalog; engine: QueryEngine; warehouse: string }> {
    const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-startup-sample-'));
    const catalog = await openSqlCatalog({ catalogName: 'lakegate', warehouse });
    const fileIO = new FileIO({ pathMap: [] });
    cleanup.push(async () => {
      await catalog.close();
      await fileIO.close();
      rmSync(warehouse, { recursive: true, force: true });
    });
    return { catalog, engine: fakeEngine(catalog, fileIO), warehouse };
  }

  it('a complete sample is reused', async () => {
    const { catalog, engine, warehouse } = await setup();
    await catalog.createNamespace(['sample'], { [SAMPLE_MARKER_PROPERTY]: '1' });
    const log: string[] = [];
    expect(await ensureSampleLakehouse(engine, parseConfig({ warehouse }), (l) => log.push(l), null)).toBe('present');
    expect(log).toEqual([]);
  });

  it('a "sample" schema lakegate did not make is left alone, with a note', async () => {
    const { catalog, engine, warehouse } = await setup();
    await catalog.createNamespace(['sample']);
    const log: string[] = [];
    expect(await ensureSampleLakehouse(engine, parseConfig({ warehouse }), (l) => log.push(l), null)).toBe('skipped');
    expect(log).toEqual(['schema "sample" exists and was not made by lakegate: sample dataset not created']);
    expect(await catalog.namespaceExists(['sample'])).toBe(true);
  });

  it('an interrupted build is recognised (and would be rebuilt)', async () => {
    const { catalog } = await setup();
    await catalog.createNamespace(['sample'], { [SAMPLE_MARKER_PROPERTY]: 'building' });
    expect(await sampleState(catalog)).toBe('incomplete');
  });

  it('without an Iceberg catalog there is nothing to do', async () => {
    const fileIO = new FileIO({ pathMap: [] });
    cleanup.push(async () => fileIO.close());
    expect(await ensureSampleLakehouse(fakeEngine(undefined, fileIO), parseConfig({}), () => undefined, null)).toBe('skipped');
  });
});
