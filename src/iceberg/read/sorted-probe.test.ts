/**
 * Sorted probes (sorted-probe.ts): binary search on sorted int / bigint / date Arrow chunks, null when a chunk
 * is unsorted or has NULLs; and end to end with a scan worker pool: a point lookup over files of big sorted row
 * groups stays on this thread, is answered by the sorted probe from the second execution on (no hash index
 * built), and equals the late-materialization answer (`lakegate.point_index = off`) for hits, misses,
 * duplicates, IN lists and other conjuncts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vectorFromArray, Int32, Int64, DateDay } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleQueryRows } from '../../engine/testing/result-rows.ts';
import { createQueryEngine, type QueryEngine } from '../../engine/index.ts';
import type { EngineSession } from '../../engine/engine-session.ts';
import { acquireSharedScanPool } from '../parallel/scan-pool.ts';
import { pointIndexStats } from './point-index.ts';
import { probeSorted, sortedProbeStats } from './sorted-probe.ts';

const LONG = { kind: 'primitive', name: 'long' } as const;
const INT = { kind: 'primitive', name: 'int' } as const;
const DATE = { kind: 'primitive', name: 'date' } as const;

describe('probeSorted', () => {
  it('finds every row of each value in sorted chunks, offsets counted across chunks', () => {
    const a = vectorFromArray([1n, 3n, 3n, 5n], new Int64()).data[0]!;
    const b = vectorFromArray([5n, 8n, 13n], new Int64()).data[0]!;
    expect(probeSorted([a, b], LONG, [3n])).toEqual([1, 2]);
    expect(probeSorted([a, b], LONG, [5n])).toEqual([3, 4]);
    expect(probeSorted([a, b], LONG, [13n, 1n, 13n])).toEqual([0, 6]);
    expect(probeSorted([a, b], LONG, [4n, 99n, -1n, null])).toEqual([]);
    const ints = vectorFromArray([-5, 0, 7, 7, 9], new Int32()).data[0]!;
    expect(probeSorted([ints], INT, [7])).toEqual([2, 3]);
    // a long column stored as int32 (promoted): bigint keys compare as numbers
    expect(probeSorted([ints], LONG, [9n, -5n])).toEqual([0, 4]);
    const days = vectorFromArray([new Date(Date.UTC(2024, 0, 1)), new Date(Date.UTC(2024, 0, 3))], new DateDay()).data[0]!;
    expect(probeSorted([days], DATE, [19725])).toEqual([1]);
  });

  it('declines unsorted chunks, chunks with NULLs and other types', () => {
    expect(probeSorted([vectorFromArray([3n, 1n], new Int64()).data[0]!], LONG, [1n])).toBeNull();
    expect(probeSorted([vectorFromArray([1, null, 3], new Int32()).data[0]!], INT, [3])).toBeNull();
    expect(probeSorted([vectorFromArray([1, 2], new Int32()).data[0]!], { kind: 'primitive', name: 'string' }, ['1'])).toBeNull();
  });
});

let engine: QueryEngine;
let session: EngineSession;
let warehouse: string;
let release: () => Promise<void>;
const run = (sql: string): Promise<unknown[][]> => simpleQueryRows(session, sql);

beforeAll(async () => {
  // a pool in this process (minRows 0): the lookup must choose this thread over it
  release = acquireSharedScanPool({ size: 2, minRows: 0 });
  warehouse = mkdtempSync(join(tmpdir(), 'lg-sorted-probe-'));
  engine = await createQueryEngine({ databases: ['lake'], warehouse });
  session = (await engine.connect({ user: 'alice', database: 'lake', parameters: {}, backendPid: 85, remoteAddress: '127.0.0.1', remotePort: 5000, localAddress: '127.0.0.1', localPort: 5433, ssl: false })) as EngineSession;
  await run('CREATE SCHEMA sp');
  await run('CREATE TABLE sp.orders (k bigint NOT NULL, day date, v text)');
  // three files of 6,000 rows written in key order (one row group each), every key twice in the second file
  await run(`INSERT INTO sp.orders SELECT g * 4, DATE '2024-01-01' + g % 30, 'a' || g FROM generate_series(1, 6000) g`);
  await run(`INSERT INTO sp.orders SELECT 24000 + (g / 2) * 4, DATE '2024-02-01' + g % 30, 'b' || g FROM generate_series(2, 6001) g`);
  await run(`INSERT INTO sp.orders SELECT 40000 + g * 4, DATE '2024-03-01' + g % 30, 'c' || g FROM generate_series(1, 6000) g`);
}, 120_000);
afterAll(async () => {
  await session?.close();
  await engine?.close();
  await release?.();
  rmSync(warehouse, { recursive: true, force: true });
});

describe('point lookups by sorted probe', () => {
  it('answers from this thread by binary search, as the late-materialization path does', async () => {
    // an IN list stays on this thread only over key columns cached here (iceberg-table-source.ts pointLookupHere):
    // one-value lookups read each file here first
    for (const k of [4, 30000, 64000]) await run(`SELECT k FROM sp.orders WHERE k = ${k}`);
    for (const sql of [
      'SELECT * FROM sp.orders WHERE k = 12000',
      'SELECT * FROM sp.orders WHERE k = 24004',
      'SELECT v FROM sp.orders WHERE k = 12001',
      'SELECT k, v FROM sp.orders WHERE k IN (4, 30000, 64000, 7) ORDER BY v',
      "SELECT k, v FROM sp.orders WHERE k = 30000 AND v > 'b5000'",
      'SELECT count(*) FROM sp.orders WHERE k = 40004',
    ]) {
      await run('SET lakegate.point_index = off');
      const off = await run(sql);
      await run('RESET lakegate.point_index');
      const probes = sortedProbeStats.probes, builds = pointIndexStats.builds;
      await run(sql); // fills this thread's cache with the key columns
      // (a repeated value may be answered from the rows the source kept for it: point-lookup-answer.ts)
      const on = await run(sql);
      expect(on, sql).toEqual(off);
      expect(sortedProbeStats.probes, sql).toBeGreaterThan(probes);
      expect(pointIndexStats.builds, sql).toBe(builds);
    }
    expect(await run('SELECT k, day, v FROM sp.orders WHERE k = 24004')).toEqual([[24004n, '2024-02-03', 'b2'], [24004n, '2024-02-04', 'b3']].map((r) => [r[0], expect.anything(), r[2]]));
  });
});
