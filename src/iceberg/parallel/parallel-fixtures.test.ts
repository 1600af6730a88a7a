/**
 * The shared Iceberg fixture tables read on the worker pool (position deletes, equality deletes, v1 inline
 * manifests, schema evolution, jsonb maps, decimals) give exactly the rows and order of the main-thread
 * reader. Uses LocalPrefixIO's description (the other IO kind a worker rebuilds).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { rowsOfBatch } from '../../common/batch.ts';
import { fixtureIO, openTable } from '../test/fixture-helpers.ts';
import { findLatestMetadataFile } from '../spec/metadata-file.ts';
import { indexById, type NestedField } from '../spec/schema.ts';
import { ScanPool } from './scan-pool.ts';
import { readTasksInParallel } from './parallel-scan.ts';
import { rowKey as key } from './testing/collect-rows.ts';

const TABLES: readonly (string | (() => Promise<string>))[] = [
  's3a://hyperparam-iceberg/spark/bunnies/metadata/v5.metadata.json',
  's3a://hyperparam-iceberg/spark/bunnies/metadata/v4.metadata.json',
  'lineitem_iceberg/metadata/v2.metadata.json',
  () => findLatestMetadataFile(fixtureIO, 'data/persistent/equality_deletes/warehouse/mydb/mytable'),
  () => findLatestMetadataFile(fixtureIO, 'data/persistent/iceberg_v1_deprecated/default/legacy_v1'),
  () => findLatestMetadataFile(fixtureIO, 'file://data/persistent/map_stats/default.db/map_stats'),
];

describe('fixture tables on the scan worker pool', () => {
  const pool = new ScanPool({ size: 2, minRows: 0 });
  afterAll(() => pool.close());

  it.each(TABLES.map((t, i) => [i, t] as const))('table %i: same rows as the main thread', async (_i, spec) => {
    const uri = typeof spec === 'string' ? spec : await spec();
    const t = await openTable(uri);
    const plan = await t.planFiles();
    const byId = new Map<number, NestedField>();
    for (const s of t.metadata.schemas) for (const [id, f] of indexById(s)) byId.set(id, f);
    for (const [id, f] of indexById(t.schema)) byId.set(id, f);
    const rows: unknown[][] = [];
    const parallel = { pool, io: fixtureIO.describe() };
    for await (const b of readTasksInParallel(parallel, plan.tasks, t.schema.fields, { signal: new AbortController().signal, fieldById: (id) => byId.get(id) })) rows.push(...rowsOfBatch(b));
    const main: unknown[][] = [];
    for await (const b of t.scan({ signal: new AbortController().signal, limit: Number.MAX_SAFE_INTEGER })) main.push(...rowsOfBatch(b));
    expect(main.length).toBeGreaterThan(0);
    expect(rows.map(key)).toEqual(main.map(key));
  });
});
