/**
 * The bench's view of bench/tpch/ (the generator, DDL and 22 queries live there): the CSV files of one scale
 * factor, the queries by id, and the two dashboard-style queries the bench adds.
 */
import { TPCH_COLUMNS, TPCH_TABLES, tpchQueries as tpch22, writeTpchCsvFiles, type TpchTable } from '../tpch/index.ts';

export interface TpchTableFile {
  readonly table: TpchTable;
  readonly file: string;
  readonly rows: number;
}

export interface TpchDataset {
  readonly sf: number;
  readonly dir: string;
  /** one CSV per table (no header, comma separated, double-quoted where needed), in load order */
  readonly tables: ReadonlyMap<TpchTable, TpchTableFile>;
  readonly delimiter: string;
}

export interface BenchQuery {
  /** q1 … q22, range, point */
  readonly id: string;
  readonly sql: string;
}

/** writes <dir>/<table>.csv for the eight tables; progress at most every 5 s */
export async function generateTpch(sf: number, dir: string, onProgress: (msg: string) => void): Promise<TpchDataset> {
  let last = 0;
  const files = await writeTpchCsvFiles(dir, sf, {
    onProgress: (p) => {
      if (!p.done && Date.now() - last < 5000) return;
      last = Date.now();
      onProgress(`generating ${p.table}: ${p.rows} / ${p.expectedRows} rows, ${(p.bytes / 1e6).toFixed(0)} MB${p.done ? ' (done)' : ''}`);
    },
  });
  return { sf, dir, tables: new Map(files.map((f) => [f.table, f])), delimiter: ',' };
}

export const TABLES: readonly TpchTable[] = TPCH_TABLES;

export function tpchQueries(): BenchQuery[] {
  return tpch22().map(([n, sql]) => ({ id: `q${n}`, sql }));
}

/**
 * Beyond the 22: what a dashboard does most. `range` reads one week of lineitem (pruning should leave the files of
 * one month); `point` fetches one order by key (the middle key, so min/max bounds matter).
 */
export function extraQueries(pointKey: number): BenchQuery[] {
  return [
    {
      id: 'range',
      sql: `SELECT l_shipmode, count(*) AS n, sum(l_extendedprice * (1 - l_discount)) AS revenue
FROM lineitem WHERE l_shipdate >= DATE '1995-03-01' AND l_shipdate < DATE '1995-03-08'
GROUP BY l_shipmode ORDER BY l_shipmode`,
    },
    { id: 'point', sql: `SELECT * FROM orders WHERE o_orderkey = ${pointKey}` },
  ];
}

/** DuckDB's read_csv `columns` struct from the TPC-H DDL; char(n)/varchar(n) become VARCHAR (no blank-padded type in DuckDB) */
export function duckdbColumns(table: TpchTable): string {
  const cols = TPCH_COLUMNS[table].split(/,(?![^(]*\))/).map((c) => {
    const [name = '', ...rest] = c.trim().split(/\s+/);
    const type = rest.join(' ').replace(/\s+not null$/i, '');
    return `'${name}': '${/^(char|varchar)/i.test(type) ? 'VARCHAR' : type.toUpperCase()}'`;
  });
  return `{${cols.join(', ')}}`;
}
