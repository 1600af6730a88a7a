/**
 * swap-retry.ts against the embedded SQL catalog: a compare-and-swap lost to a complete commit retries at once
 * (its 40001 is marked), anything else — a later loss, another 40001, another error — backs off.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlCatalog, type IcebergCatalog } from '../../catalog/iceberg/index.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { FileIO } from '../../storage/index.ts';
import { icebergIOFromFileIO } from '../io.ts';
import { writableIcebergIO } from '../write/write-io.ts';
import { createIcebergTable } from './create-table.ts';
import { serializationFailure } from './snapshot-commit.ts';
import { catalogSwap, retryDelayMs } from './swap-retry.ts';

describe('retry delay after a lost catalog swap', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-swap-'));
  const fileIO = new FileIO();
  const io = writableIcebergIO(icebergIOFromFileIO(fileIO), fileIO);
  const id = { namespace: ['ns'], name: 't' };
  let catalog: IcebergCatalog;
  let location = '';

  beforeAll(async () => {
    catalog = await openSqlCatalog({ warehouse });
    await catalog.createNamespace(['ns']);
    location = await createIcebergTable(catalog, io, id, [{ name: 'id', type: { oid: Oid.int4, typmod: -1 }, nullable: true }], { warehouse });
  });
  afterAll(async () => {
    await catalog.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  it('a swap from a pointer that moved is 40001, and the first retry after it waits 0 ms', async () => {
    const lost = await catalogSwap(catalog, id, `${location}.stale`, `${location}.next`).then(() => null, (e: unknown) => e);
    expect(lost).toMatchObject({ code: '40001' });
    expect(retryDelayMs(0, lost)).toBe(0);
    // a second loss in a row backs off (writers in lockstep)
    expect(retryDelayMs(1, lost)).toBeGreaterThanOrEqual(10);
    expect((await catalog.loadTableLocation(id)).metadataLocation).toBe(location);
  });

  it('other 40001s (a metadata file name another writer took: it is still committing) back off from the first retry', () => {
    const d = retryDelayMs(0, serializationFailure());
    expect(d).toBeGreaterThanOrEqual(5);
    expect(d).toBeLessThanOrEqual(15);
    expect(retryDelayMs(0, new Error('x'))).toBeGreaterThan(0);
  });
});
