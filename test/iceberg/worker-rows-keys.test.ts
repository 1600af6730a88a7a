/**
 * test/sql/aggregate/worker_rows_keys.slt (answers from PostgreSQL 15) run with a worker pool, so its GROUP BYs that
 * partial states do not reduce really run on the main thread over rows the workers filtered and sent a batch at a
 * time (src/exec/partial/worker-rows.ts), numbered by the GroupTable with typed number keys (norm-key-column.ts).
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireSharedScanPool, sharedScanPool } from '../../src/iceberg/parallel/scan-pool.ts';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { repoRoot } from '../slt/slt-files.ts';
import { parseSlt } from '../slt/slt-parser.ts';
import { runSltFile } from '../slt/slt-runner.ts';

const SLT = 'test/sql/aggregate/worker_rows_keys.slt';

describe('GROUP BY keys of a serial aggregate over rows filtered in the workers', () => {
  let server: LakegateServer;
  let release: () => Promise<void>;
  const file = parseSlt(readFileSync(join(repoRoot, SLT), 'utf8'), SLT);

  beforeAll(async () => {
    // the test server runs without workers (helpers): this process's pool is ours, minRows 0 for small tables
    release = acquireSharedScanPool({ size: 2, minRows: 0 });
    server = await startLakegate();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await release?.();
  });

  it(`${SLT} passes with a worker pool`, async () => {
    const result = await runSltFile(file, { url: server.url, target: 'lakegate' });
    expect(result.failures).toEqual([]);
    expect(result.executed).toBe(16);
    expect(sharedScanPool()!.started).toBe(true);
    // its GROUP BYs run over rows the workers filtered: its table made again (the run drops its schema)
    const c = new pg.Client({ connectionString: server.url });
    await c.connect();
    try {
      await c.query('DROP SCHEMA IF EXISTS wrk_plan CASCADE; CREATE SCHEMA wrk_plan; SET search_path TO wrk_plan');
      const text = readFileSync(join(repoRoot, SLT), 'utf8');
      for (const sql of text.split('\n').filter((l) => /^(CREATE TABLE|INSERT INTO) wk /.test(l))) await c.query(sql);
      const plan = (await c.query("EXPLAIN ANALYZE SELECT k4, count(id) FROM wk WHERE note NOT LIKE '%special%requests%' GROUP BY k4")).rows.map((r: Record<string, unknown>) => Object.values(r)[0]).join('\n');
      expect(plan).toMatch(/Final Aggregate: main thread, serial over rows filtered in the workers/);
    } finally {
      await c.query('RESET search_path; DROP SCHEMA IF EXISTS wrk_plan CASCADE');
      await c.end();
    }
  }, 180_000);
});
