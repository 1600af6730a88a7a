/**
 * String GROUP BY keys read only as keys reach the scan workers' partial aggregates as lazy columns — the chunk's
 * dictionary codes and entries, no string per row (iceberg/read/dictionary-strings.ts, arrow-fast-columns.ts
 * codesOnlyField; exec/partial/dictionary-key-groups.ts keyOnlyColumns). Against PostgreSQL, with partial
 * aggregates on and off: next to keys also read by an aggregate, a WHERE or a computed key; keys of more combined
 * codes than the code memo takes (values made for the group table); a file whose key has NULLs (no codes), a
 * plain-encoded key; and with late materialization off, where a pushed filter is judged on JS rows and its row
 * picks must carry every column's values (no lazy keys, and no lazy decimals either: this failed before with
 * "internal error: a lazy numeric column was read before materializeNumerics").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPartialAggregatePair, textRows, type PartialAggregatePair } from '../helpers/partial-aggregate-pair.ts';

const TABLE = '(id int8 NOT NULL, flag char(1), st char(1), mode text, qty numeric(15,2), price numeric(15,2), k70 text, k71 text)';
const ROWS = 12_000;
const FLAG = [
  `CASE i % 3 WHEN 0 THEN 'A' WHEN 1 THEN 'N' ELSE 'R' END`,
  // NULLs: the chunk keeps no codes
  `CASE WHEN i % 13 = 0 THEN NULL WHEN i % 3 = 0 THEN 'A' ELSE 'R' END`,
];
const MODE = [`CASE i % 4 WHEN 0 THEN 'DELIVER IN PERSON' WHEN 1 THEN 'NONE' WHEN 2 THEN '' ELSE 'é€' END`, `'m' || i`];
const INSERTS = [0, 1].map((part) => `INSERT INTO plk.t SELECT i, ${FLAG[part]}, CASE WHEN i % 7 < 4 THEN 'F' ELSE 'O' END, ${MODE[part]},
  (i % 50) - 20, (i % 1000) * 1.25, 'a' || (i % 70), 'b' || (i % 71) FROM generate_series(${part * ROWS + 1}, ${(part + 1) * ROWS}) i`);

const QUERIES: readonly (readonly [string, string])[] = [
  ['Q1 shape', 'SELECT flag, st, sum(qty), sum(price * (1 - qty / 100)), avg(qty), avg(price), count(*) FROM plk.t GROUP BY flag, st ORDER BY 1, 2'],
  ['a lazy key next to a key an aggregate reads', 'SELECT flag, st, min(st), count(*), sum(qty) FROM plk.t GROUP BY flag, st ORDER BY 1, 2'],
  ['a lazy key next to a key in WHERE', `SELECT st, flag, count(*), sum(price * (1 - qty / 100)) FROM plk.t WHERE st = 'F' AND id > 100 GROUP BY st, flag ORDER BY 1, 2`],
  ['a lazy key next to a computed key', 'SELECT st, lower(mode), count(*), sum(qty) FROM plk.t WHERE id <= 12000 GROUP BY st, lower(mode) ORDER BY 1, 2'],
  ['lazy keys of more combined codes than the memo takes', `SELECT count(*), sum(c), min(k70 || k71), max(k70 || k71), sum(s)
    FROM (SELECT k70, k71, count(*) AS c, sum(qty) AS s FROM plk.t GROUP BY k70, k71) x`],
];
/** with late materialization off: pushed filters that drop rows of a batch are judged on JS rows */
const LATE_OFF: readonly (readonly [string, string])[] = [
  ['Q1 shape with a pushed filter that drops rows', 'SELECT flag, st, count(*), sum(qty), avg(price) FROM plk.t WHERE id % 4 <> 1 AND id > 50 GROUP BY flag, st ORDER BY 1, 2'],
  ['keys only, no filter', 'SELECT flag, st, mode, count(*) FROM plk.t WHERE id <= 12000 GROUP BY flag, st, mode ORDER BY 1, 2, 3'],
];

describe('partial aggregates over lazy dictionary-coded group keys', () => {
  let pair: PartialAggregatePair;

  beforeAll(async () => {
    pair = await startPartialAggregatePair('plk', TABLE, INSERTS);
  }, 300_000);
  afterAll(async () => {
    await pair?.close();
  });

  it('runs the partial aggregate in the workers', async () => {
    await pair.setPartial(true);
    const plan = (await textRows(pair.lg, `EXPLAIN ${QUERIES[0]![1]}`)).flat().join('\n');
    expect(plan).toMatch(/Partial Aggregate \(in workers\)/);
  });

  const check = (late: boolean) => ([name, sql]: readonly [string, string]): void => {
    it(`${name}${late ? '' : ' (late materialization off)'}: as PostgreSQL, with and without partial aggregates`, async () => {
      const want = await textRows(pair.ref, sql);
      await pair.lg.query(`SET lakegate.late_materialization = ${late ? 'on' : 'off'}`);
      await pair.setPartial(true);
      expect(await textRows(pair.lg, sql)).toEqual(want);
      await pair.setPartial(false);
      expect(await textRows(pair.lg, sql)).toEqual(want);
    });
  };
  QUERIES.forEach(check(true));
  LATE_OFF.forEach(check(false));
});
