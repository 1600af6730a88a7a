/**
 * Sums of numeric products over dictionary-coded decimal columns in the scan workers (exec/expr/
 * coded-product-sums.ts: per (group, code) cells instead of per-row arithmetic) against PostgreSQL and the
 * serial plan: TPC-H Q1's shape and other factor shapes (k − x, x − k, x + k with a constant of another scale,
 * constants, a column twice, two columns without dictionary), over files that take each path — negative
 * values, cell sums past 2^52 (the batch goes back to the vector kernels), cell products past 2^53 (bigint),
 * NULLs in a factor column (no dictionary attachment: the vector kernels), a pushed filter that picks rows.
 */
import { describePartialAggregatesAgainstPg } from '../helpers/partial-aggregate-pair.ts';

const TABLE = '(id int8 NOT NULL, flag char(1), st char(1), qty numeric(15,2), price numeric(15,2), disc numeric(15,2), tax numeric(15,2), d date)';
/** one INSERT per file, 6,000 rows each (one batch): price and disc differ per file */
const PRICE = [
  '((i * 7919) % 100000) * 1.37 - 30000', // negatives, small: exact doubles throughout
  '9999999999999.99 - (i % 1000)', // cell sums past 2^52: the vector kernels take the batch
  '1000000000.00 + i * 13.17', // cell products past 2^53: bigint terms, group sums past 2^52
  '(i % 1000) * 2.5',
];
const DISC = ['(i % 11) * 0.01', '(i % 11) * 0.01', '(i % 11 - 5) * 0.01', 'CASE WHEN i % 11 = 0 THEN NULL ELSE (i % 11) * 0.01 END'];
const INSERTS = [0, 1, 2, 3].map((part) => `INSERT INTO pc.t SELECT i,
  CASE i % 3 WHEN 0 THEN 'A' WHEN 1 THEN 'N' ELSE 'R' END, CASE WHEN i % 7 < 4 THEN 'F' ELSE 'O' END,
  (i % 50) + 1, ${PRICE[part]}, ${DISC[part]}, (i % 9) * 0.01, date '2024-01-01' + (i % 300)
  FROM generate_series(${part * 6000 + 1}, ${(part + 1) * 6000}) i`);

const QUERIES: readonly (readonly [string, string])[] = [
  ['Q1', `SELECT flag, st, sum(qty), sum(price), sum(price * (1 - disc)), sum(price * (1 - disc) * (1 + tax)), avg(qty),
    avg(price), avg(disc), count(*) FROM pc.t GROUP BY flag, st ORDER BY flag, st`],
  ['Q1 with a pushed filter that picks rows', `SELECT flag, st, sum(qty), sum(price * (1 - disc) * (1 + tax)), avg(disc), count(*)
    FROM pc.t WHERE d <= date '2024-09-01' GROUP BY flag, st ORDER BY flag, st`],
  ['other factor shapes', `SELECT flag, sum(price * (disc - 1)), sum((disc + 0.5) * price), sum(2.5 * price * (1 - disc)),
    sum(disc * disc * tax), avg(tax * (1 + disc)), sum(qty * disc), avg(qty - 1), sum(price * price), sum(qty * price)
    FROM pc.t GROUP BY flag ORDER BY flag`],
  ['ungrouped', 'SELECT sum(price * (1 - disc) * (1 + tax)), avg(disc), sum(qty * tax), avg(price * (1 + tax)), count(*) FROM pc.t'],
  ['one file at a time', `SELECT id / 6000, sum(price * (1 - disc) * (1 + tax)), avg(price * (1 - disc)), sum(disc), count(*)
    FROM pc.t GROUP BY id / 6000 ORDER BY 1`],
];

describePartialAggregatesAgainstPg('partial aggregates of products over dictionary-coded decimals', 'pc', TABLE, INSERTS, QUERIES);
