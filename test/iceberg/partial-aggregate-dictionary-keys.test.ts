/**
 * String GROUP BY keys grouped by the scan's dictionary codes in the workers (exec/partial/dictionary-key-groups.ts,
 * iceberg/read/dictionary-strings.ts) against PostgreSQL and the serial plan: TPC-H Q1's two char(1) flags, three
 * keys, keys of several characters (and the empty string), a key with NULLs in one file (no codes there: the
 * group table), a key of many distinct values in one file (plain-encoded: the group table), and batches that use
 * only some of their chunk's dictionary entries (12,000-row files: two batches, the values clustered).
 */
import { describePartialAggregatesAgainstPg } from '../helpers/partial-aggregate-pair.ts';

const TABLE = '(id int8 NOT NULL, flag char(1), st char(1), mode text, pri varchar(15), qty numeric(15,2), price numeric(15,2))';
const ROWS = 12_000;
const FLAG = [
  // clustered: the first batch (8,192 rows) never uses 'R'
  `CASE WHEN i % ${ROWS} < 9000 THEN CASE i % 2 WHEN 0 THEN 'A' ELSE 'N' END ELSE 'R' END`,
  // NULLs: the chunk keeps no codes
  `CASE WHEN i % 13 = 0 THEN NULL WHEN i % 3 = 0 THEN 'A' WHEN i % 3 = 1 THEN 'N' ELSE 'R' END`,
  `CASE i % 3 WHEN 0 THEN 'A' WHEN 1 THEN 'N' ELSE 'R' END`,
];
const MODE = [
  `CASE i % 4 WHEN 0 THEN 'DELIVER IN PERSON' WHEN 1 THEN 'NONE' WHEN 2 THEN '' ELSE 'TAKE BACK RETURN' END`,
  `CASE i % 5 WHEN 0 THEN 'AIR' WHEN 1 THEN 'MAIL' WHEN 2 THEN 'SHIP' WHEN 3 THEN 'é€' ELSE 'NONE' END`,
  // a value per row: too many entries for a dictionary chunk, plain strings
  `'m' || i`,
];
const INSERTS = [0, 1, 2].map((part) => `INSERT INTO pdk.t SELECT i, ${FLAG[part]}, CASE WHEN i % 7 < 4 THEN 'F' ELSE 'O' END,
  ${MODE[part]}, CASE i % 3 WHEN 0 THEN '1-URGENT' WHEN 1 THEN '2-HIGH' ELSE '5-LOW' END, (i % 50) + 1, (i % 1000) * 1.25
  FROM generate_series(${part * ROWS + 1}, ${(part + 1) * ROWS}) i`);

const QUERIES: readonly (readonly [string, string])[] = [
  ['Q1 shape: two char(1) flags', `SELECT flag, st, sum(qty), sum(price * (1 - qty / 100)), avg(qty), avg(price), count(*)
    FROM pdk.t GROUP BY flag, st ORDER BY flag, st`],
  ['one key with NULLs in one file', 'SELECT flag, count(*), sum(qty) FROM pdk.t GROUP BY flag ORDER BY flag'],
  ['three keys', `SELECT st, pri, flag, count(*), sum(price) FROM pdk.t WHERE id <= ${2 * ROWS} GROUP BY st, pri, flag ORDER BY 1, 2, 3`],
  ['keys of several characters', `SELECT mode, pri, count(*), avg(qty) FROM pdk.t WHERE id <= ${2 * ROWS} GROUP BY mode, pri ORDER BY 1, 2`],
  ['a plain-encoded key among coded files', `SELECT count(*), sum(c), min(mode), max(mode), sum(s)
    FROM (SELECT mode, count(*) AS c, sum(qty) AS s FROM pdk.t GROUP BY mode) x`],
];

describePartialAggregatesAgainstPg('partial aggregates grouped by dictionary-coded string keys', 'pdk', TABLE, INSERTS, QUERIES);
