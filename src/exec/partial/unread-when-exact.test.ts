/**
 * Filter columns a scan worker's partial aggregate does not convert on exactly judged batches (run-fragment.ts
 * fills FileScanTaskReadOptions.unreadWhenExact, late-materialization.ts leaves them NULL): every shape in which
 * such a column is read after all — an aggregate, its FILTER, a group key, a conjunct the scan does not judge —
 * must still see its values, and every answer equal the serial one and PostgreSQL's.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPartialAggregatePair, textRows, type PartialAggregatePair } from '../../../test/helpers/partial-aggregate-pair.ts';

const TABLE = '(id int8 NOT NULL, flag text, d date, q numeric(12,2), p numeric(12,2))';
const INSERTS = [0, 1, 2, 3].map((part) => `INSERT INTO ue.t SELECT i, CASE i % 3 WHEN 0 THEN 'A' WHEN 1 THEN 'N' ELSE 'R' END,
  CASE WHEN i % 23 = 0 THEN NULL ELSE date '1995-01-01' + (i % 900) END, (i % 50) + 1, (i % 997) * 1.5
  FROM generate_series(${part * 5000 + 1}, ${(part + 1) * 5000}) i`);

const QUERIES: readonly (readonly [string, string])[] = [
  ['read only by the pushed conjunct (Q1 shape)', `SELECT flag, sum(q), avg(p), count(*) FROM ue.t WHERE d <= date '1997-01-01' GROUP BY flag ORDER BY flag`],
  ['also an aggregate argument', `SELECT flag, max(d), count(d), sum(q) FROM ue.t WHERE d <= date '1996-06-01' GROUP BY flag ORDER BY flag`],
  ['also a group key', `SELECT d, sum(q), count(*) FROM ue.t WHERE d <= date '1995-01-20' GROUP BY d ORDER BY d`],
  ['also in an aggregate FILTER', `SELECT flag, count(*) FILTER (WHERE d > date '1996-01-01'), sum(p) FROM ue.t WHERE d <= date '1997-01-01' GROUP BY flag ORDER BY flag`],
  ['also in a conjunct the scan does not judge', `SELECT flag, sum(q) FROM ue.t WHERE d <= date '1997-01-01' AND d - 3 > date '1995-06-01' GROUP BY flag ORDER BY flag`],
  ['two pushed columns, one aggregated', `SELECT flag, sum(p), count(*) FROM ue.t WHERE d >= date '1995-03-01' AND q < 20 GROUP BY flag ORDER BY flag`],
];

describe('filter columns unread on exact batches in the scan workers', () => {
  let pair: PartialAggregatePair;
  let lg: pg.Client;
  let ref: pg.Client;

  beforeAll(async () => {
    pair = await startPartialAggregatePair('ue', TABLE, INSERTS);
    ({ lg, ref } = pair);
  }, 120_000);
  afterAll(async () => {
    await pair?.close();
  });

  it.each(QUERIES)('%s: same answer in the workers, serially, and as PostgreSQL', async (_name, sql) => {
    await pair.setPartial(true);
    expect((await textRows(lg, `EXPLAIN ${sql}`)).flat().join('\n')).toMatch(/Partial Aggregate \(in workers\)/);
    const on = await textRows(lg, sql);
    await pair.setPartial(false);
    expect(on).toEqual(await textRows(lg, sql));
    expect(on).toEqual(await textRows(ref, sql));
  });
});
