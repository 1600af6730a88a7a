/**
 * Position deletes (v2 merge-on-read) under partial aggregates in the scan workers: the delete path takes a
 * pick of each chunk's rows (file-scan-task-reader.ts), so the decimal columns the aggregates read must keep
 * exact values — lazy decimal columns (numeric-column.ts) and their attached doubles must never outlive the
 * rows they describe. Same answers with the pool on and off, and as PostgreSQL, grouped and not, with NULLs
 * and negative decimals, over files with and without deletes; a v3 table's deletion vectors take the same path.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPartialAggregatePair, textRows, type PartialAggregatePair } from '../helpers/partial-aggregate-pair.ts';

const TABLE = '(id int8 NOT NULL, flag text, q numeric(15,2), p numeric(15,2), d date)';
/** four INSERTs (four data files); NULL and negative decimals */
const INSERTS = [0, 1, 2, 3].map((part) => `INSERT INTO pd.t SELECT i, CASE WHEN i % 4 = 0 THEN 'A' WHEN i % 4 = 1 THEN 'N' ELSE 'R' END,
  CASE WHEN i % 13 = 0 THEN NULL ELSE ((i * 37) % 5000 - 2500) * 1.01 END, (i % 900) * 3.07,
  date '2024-01-01' + (i % 300) FROM generate_series(${part * 4000 + 1}, ${(part + 1) * 4000}) i`);
/** position deletes in three of the four files (the last stays whole) */
const DELETES = [
  'DELETE FROM pd.t WHERE id % 5 = 0 AND id <= 8000',
  'DELETE FROM pd.t WHERE id BETWEEN 8001 AND 12000 AND id % 3 = 1',
  'DELETE FROM pd.t WHERE id BETWEEN 100 AND 300',
];

const QUERIES: readonly (readonly [string, string])[] = [
  ['ungrouped sum / avg', 'SELECT sum(q), avg(q), sum(p), avg(p), count(q), count(*) FROM pd.t'],
  ['grouped sum / avg', 'SELECT flag, sum(q), avg(q), sum(p * (1 - q / 10000)), avg(p), count(*) FROM pd.t GROUP BY flag ORDER BY flag'],
  ['Q1-like with a pushed filter', `SELECT flag, sum(q), sum(q * (1 + p / 100)), avg(q), avg(p), count(*) FROM pd.t
    WHERE d <= date '2024-09-01' GROUP BY flag ORDER BY flag`],
  ['filter on the decimal', 'SELECT flag, sum(p), avg(q) FROM pd.t WHERE q > 0 GROUP BY flag ORDER BY flag'],
];

describe('partial aggregates over position deletes', () => {
  let pair: PartialAggregatePair;
  let lg: pg.Client;
  let ref: pg.Client;

  beforeAll(async () => {
    pair = await startPartialAggregatePair('pd', TABLE, INSERTS);
    ({ lg, ref } = pair);
    // the same rows in a v3 table, whose deletes are deletion vectors (read as position deletes)
    await lg.query(`CREATE TABLE pd.t3 ${TABLE} WITH (format_version = 3)`);
    for (const sql of INSERTS) await lg.query(sql.replace('pd.t ', 'pd.t3 '));
    for (const sql of DELETES) {
      await ref.query(sql);
      await lg.query(sql);
      await lg.query(sql.replace('pd.t ', 'pd.t3 '));
    }
  }, 120_000);
  afterAll(async () => {
    await pair?.close();
  });

  it('wrote position delete files', async () => {
    const files = await textRows(lg, 'SELECT content, count(*) FROM pd.t$files GROUP BY content ORDER BY content');
    expect(files.find((r) => r[0] === '1')?.[1]).toBeDefined();
    await pair.setPartial(true);
    const plan = (await textRows(lg, `EXPLAIN ${QUERIES[1]![1]}`)).flat().join('\n');
    expect(plan).toMatch(/Partial Aggregate \(in workers\)/);
  });

  it.each(QUERIES)('%s: same answer with the pool on and off, and as PostgreSQL', async (_name, sql) => {
    const expected = await textRows(ref, sql);
    await pair.setPartial(true);
    expect(await textRows(lg, sql)).toEqual(expected);
    const v3 = sql.replace('FROM pd.t', 'FROM pd.t3');
    expect(await textRows(lg, v3)).toEqual(expected);
    await pair.setPartial(false);
    expect(await textRows(lg, sql)).toEqual(expected);
    expect(await textRows(lg, v3)).toEqual(expected);
  });
});
