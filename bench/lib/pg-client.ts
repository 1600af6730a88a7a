/**
 * pg over the simple Query protocol with every value left as PostgreSQL's text output (no type parsers), the
 * way the slt runner compares: used for PostgreSQL and for lakegate.
 */
import { createReadStream, statSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { progress, type TextRow } from './engine.ts';

const textTypes = { getTypeParser: () => (v: string) => v } as unknown as pg.CustomTypesConfig;

export async function connectText(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, types: textTypes });
  client.on('error', () => { /* a killed server surfaces as a failed query */ });
  await client.connect();
  return client;
}

/** Runs one statement; the last result's rows as text arrays (multi-statement text gives several results). */
export async function textRows(client: pg.Client, sql: string): Promise<TextRow[]> {
  const res = await client.query({ text: sql, rowMode: 'array' });
  const last = Array.isArray(res) ? (res[res.length - 1] as pg.QueryResult) : res;
  return (last.rows as (string | null)[][]) ?? [];
}

/** COPY <table> FROM STDIN (FORMAT csv) with progress every few seconds for big files. */
export async function copyCsv(client: pg.Client, table: string, file: string, delimiter: string, label: string): Promise<void> {
  const size = statSync(file).size;
  const delim = delimiter === ',' ? '' : `, DELIMITER '${delimiter}'`;
  const stream = client.query(copyFrom(`COPY ${table} FROM STDIN (FORMAT csv${delim})`));
  const input = createReadStream(file, { highWaterMark: 256 * 1024 });
  let sent = 0;
  input.on('data', (b) => { sent += b.length; });
  const timer = setInterval(() => progress(`${label}: COPY ${table} ${(sent / 1e6).toFixed(0)} / ${(size / 1e6).toFixed(0)} MB`), 10_000);
  try {
    await pipeline(input, stream);
  } finally {
    clearInterval(timer);
  }
}

/** SQLSTATE of a pg error, if any */
export function sqlState(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : undefined;
}
