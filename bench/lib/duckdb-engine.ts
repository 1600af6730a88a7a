/**
 * DuckDB (@duckdb/node-api, threads 2) over the same rows as Parquet, laid out as a lakehouse would: DuckDB
 * itself turns each CSV into Parquet (zstd), lineitem and orders split into one file per year of their date
 * column and sorted by it inside (so min/max statistics prune row groups), the other tables one file each.
 * Each table is a view over read_parquet, so every query reads the files.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { progress, QueryTimeout, type Engine, type TextRow } from './engine.ts';
import { duckdbColumns, type TpchDataset } from './tpch-source.ts';

/** tables written as one Parquet file per year of this column */
const SPLIT_BY: Readonly<Record<string, string>> = { lineitem: 'l_shipdate', orders: 'o_orderdate' };

export class DuckDbEngine implements Engine {
  readonly name = 'duckdb' as const;
  private readonly dir = mkdtempSync(join(tmpdir(), 'lakegate-tpch-parquet-'));
  private instance: DuckDBInstance | null = null;
  private conn: DuckDBConnection | null = null;
  /** Parquet files written, per table */
  readonly files = new Map<string, number>();

  async load(data: TpchDataset): Promise<number> {
    this.instance = await DuckDBInstance.create(':memory:', { threads: '2' });
    const c = await this.instance.connect();
    this.conn = c;
    const t0 = performance.now();
    const q = (s: string): string => `'${s.replace(/'/g, "''")}'`;
    for (const f of data.tables.values()) {
      const table = { name: f.table };
      progress(`duckdb: ${table.name} CSV → Parquet`);
      const csv = `read_csv(${q(f.file)}, columns = ${duckdbColumns(f.table)}, delim = ${q(data.delimiter)}, header = false, quote = '"')`;
      const dir = join(this.dir, table.name);
      mkdirSync(dir);
      const splitCol = SPLIT_BY[table.name];
      if (splitCol === undefined) {
        await c.run(`COPY (SELECT * FROM ${csv}) TO ${q(join(dir, 'data.parquet'))} (FORMAT parquet, COMPRESSION zstd)`);
        this.files.set(table.name, 1);
      } else {
        await c.run(`CREATE TEMP TABLE staging AS SELECT * FROM ${csv}`);
        const years = await c.runAndReadAll(`SELECT DISTINCT year(${splitCol}) FROM staging ORDER BY 1`);
        const list = years.getRows().map((r) => Number(r[0]));
        for (const y of list) {
          await c.run(`COPY (SELECT * FROM staging WHERE year(${splitCol}) = ${y} ORDER BY ${splitCol})
            TO ${q(join(dir, `${y}.parquet`))} (FORMAT parquet, COMPRESSION zstd)`);
        }
        await c.run('DROP TABLE staging');
        this.files.set(table.name, list.length);
      }
      await c.run(`CREATE VIEW ${table.name} AS SELECT * FROM read_parquet(${q(join(dir, '*.parquet'))})`);
    }
    return (performance.now() - t0) / 1000;
  }

  async query(sql: string, timeoutMs: number): Promise<TextRow[]> {
    const c = this.conn;
    if (c === null) throw new Error('duckdb: not loaded');
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      c.interrupt();
    }, timeoutMs);
    try {
      const reader = await c.runAndReadAll(sql);
      return reader.getRows().map((row) => row.map((v) => (v === null ? null : typeof v === 'boolean' ? (v ? 't' : 'f') : String(v))));
    } catch (e) {
      if (timedOut) throw new QueryTimeout(timeoutMs);
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.conn?.closeSync();
    this.instance?.closeSync();
    this.conn = null;
    this.instance = null;
    rmSync(this.dir, { recursive: true, force: true });
  }
}
