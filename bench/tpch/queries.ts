/**
 * The 22 TPC-H queries (spec 2.4) in PostgreSQL's dialect with the spec's validation parameters, one file
 * each under queries/. Changes from the standard text: `interval 'n' day` → `interval 'n days'`, Q15's view
 * as a CTE, and a unique key appended to ORDER BY where ties could make the row order (or a LIMIT's cut)
 * differ between engines (Q3, Q10, Q11, Q18).
 */
import { readFileSync } from 'node:fs';

export const TPCH_QUERY_NUMBERS: readonly number[] = Array.from({ length: 22 }, (_, i) => i + 1);

/** the text of query n (1..22), without the leading comment and the trailing semicolon */
export function tpchQuery(n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > 22) throw new Error(`no TPC-H query ${n}`);
  const file = new URL(`./queries/q${String(n).padStart(2, '0')}.sql`, import.meta.url);
  return readFileSync(file, 'utf8').replace(/^--.*\n/gm, '').trim().replace(/;$/, '');
}

/** all 22 as [number, text] */
export function tpchQueries(): [number, string][] {
  return TPCH_QUERY_NUMBERS.map((n) => [n, tpchQuery(n)]);
}
