/**
 * test/sql/select/int8_keys_at_2p53.slt (answers from PostgreSQL 15) run with a worker pool: its join of probe8 on
 * keys8 builds on keys8, a bare scan of two files told that its int8 key is read only as a key (join-key-only.ts
 * markKeyOnlyScan) — one file's keys come from the workers as exact doubles, the other's (2^53 ± 1, the int64
 * extremes) as bigints, so the build turns the key-only batches back into bigints; and with only exact keys (two
 * files) the build stays key-only from the scan. Every answer must stay PostgreSQL's.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useWorkerPoolSlt } from '../../test/helpers/worker-pool-slt.ts';

const SLT = 'test/sql/select/int8_keys_at_2p53.slt';

describe('int8 join keys at ±2^53 built from a key-only scan', () => {
  const slt = useWorkerPoolSlt(SLT);

  it(`${SLT} passes with a worker pool`, async () => {
    expect(await slt.run()).toBeGreaterThan(20);
    // the join's build scan: key-only from the workers when all its keys are exact, turned back when not
    const c = new pg.Client({ connectionString: slt.server().url });
    await c.connect();
    const plan = async (sql: string): Promise<string> => (await c.query(`EXPLAIN ANALYZE ${sql}`)).rows.map((r: Record<string, unknown>) => Object.values(r)[0]).join('\n');
    try {
      await c.query('DROP SCHEMA IF EXISTS k2p53_plan CASCADE; CREATE SCHEMA k2p53_plan; SET search_path TO k2p53_plan');
      for (const r of slt.file.records) if (r.kind === 'statement' && /^(CREATE TABLE|INSERT INTO) (probe8|keys8) /.test(r.sql)) await c.query(r.sql);
      const join = 'SELECT tag, count(*) FROM probe8 JOIN keys8 ON b = k GROUP BY tag ORDER BY tag';
      expect(await plan(join)).not.toMatch(/Build Key: exact doubles/);
      // only exact keys, in two files (so the scan goes to the workers): g * 12 - 6000 for g in 0 … 600
      await c.query('DELETE FROM keys8 WHERE tag <> 3');
      await c.query('INSERT INTO keys8 SELECT g * 12 - 6000, 3 FROM generate_series(401, 600) g');
      expect(await plan(join)).toMatch(/Build Key: exact doubles from the scan/);
      const count = async (sql: string): Promise<string[][]> => ((await c.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map(String));
      // the same rows counted without a join
      const [[want]] = await count('SELECT count(*) FROM probe8 WHERE b % 12 = 0 AND b BETWEEN -6000 AND 1200') as [[string]];
      expect(Number(want)).toBeGreaterThan(1000);
      expect(await count(join)).toEqual([['3', want]]);
    } finally {
      await c.query('RESET search_path; DROP SCHEMA IF EXISTS k2p53_plan CASCADE');
      await c.end();
    }
  }, 180_000);
});
