/**
 * Reading an Iceberg table through the REST client, end to end: lakegate REST server → RestCatalog
 * (metadata location) → iceberg/'s IcebergTableSource over FileIO → rows, as the engine reads a table
 * of its SQL catalog.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { icebergIOFromFileIO, IcebergTableSource } from '../../iceberg/index.ts';
import { FileIO } from '../../storage/index.ts';
import { BUNNIES, FIXTURES, V5, V5_CURRENT_SNAPSHOT, startRestFixture, type RestFixture } from '../rest-server/testing/rest-fixture.ts';
import { openRestCatalog } from './index.ts';

describe('reading a table through the REST catalog client', () => {
  let fx: RestFixture;
  let io: FileIO;

  beforeAll(async () => {
    fx = await startRestFixture({ token: 't0ken' });
    io = new FileIO({ pathMap: [`${BUNNIES}=${FIXTURES}/icebird-spark-bunnies`] });
  });

  afterAll(async () => {
    await io?.close();
    await fx?.close();
  });

  it('scans the current snapshot of a table the REST catalog points to', async () => {
    const catalog = await openRestCatalog({ uri: fx.base, credential: 'reader:t0ken' });
    const [ns] = await catalog.listNamespaces();
    const [id] = await catalog.listTables(ns!);
    const { metadataLocation } = await catalog.loadTableLocation(id!);
    expect(metadataLocation).toBe(V5);
    const table = await IcebergTableSource.load(icebergIOFromFileIO(io), metadataLocation);
    expect(table.snapshot?.snapshotId).toBe(BigInt(V5_CURRENT_SNAPSHOT));
    let rows = 0;
    for await (const b of table.scan({ signal: new AbortController().signal })) rows += b.length;
    expect(rows).toBe(20);
  });
});
