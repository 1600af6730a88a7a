/**
 * test/sql/aggregate/worker_rows_keys.slt (answers from PostgreSQL 15) run with a worker pool, so its GROUP BYs that
 * partial states do not reduce really run on the main thread over rows the workers filtered and sent a batch at a
 * time (src/exec/partial/worker-rows.ts), numbered by the GroupTable with typed number keys (norm-key-column.ts).
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useWorkerPoolSlt } from '../helpers/worker-pool-slt.ts';

const SLT = 'test/sql/aggregate/worker_rows_keys.slt';

describe('GROUP BY keys of a serial aggregate over rows filtered in the workers', () => {
  const slt = useWorkerPoolSlt(SLT);

  it(`${SLT} passes with a worker pool`, async () => {
    expect(await slt.run()).toBe(16);
    // its GROUP BYs run over rows the workers filtered: its table made again (the run drops its schema)
    const c = new pg.Client({ connectionString: slt.server().url });
    await c.connect();
    try {
      await c.query('DROP SCHEMA IF EXISTS wrk_plan CASCADE; CREATE SCHEMA wrk_plan; SET search_path TO wrk_plan');
      for (const r of slt.file.records) if (r.kind === 'statement' && /^(CREATE TABLE|INSERT INTO) wk /.test(r.sql)) await c.query(r.sql);
      const plan = (await c.query("EXPLAIN ANALYZE SELECT k4, count(id) FROM wk WHERE note NOT LIKE '%special%requests%' GROUP BY k4")).rows.map((r: Record<string, unknown>) => Object.values(r)[0]).join('\n');
      expect(plan).toMatch(/Final Aggregate: main thread, serial over rows filtered in the workers/);
    } finally {
      await c.query('RESET search_path; DROP SCHEMA IF EXISTS wrk_plan CASCADE');
      await c.end();
    }
  }, 180_000);
});
