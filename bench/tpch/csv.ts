/**
 * TPC-H tables as CSV text for `COPY <table> FROM STDIN (FORMAT csv)`, streamed in chunks so a caller can
 * load SF1 (6M lineitem rows) into PostgreSQL and lakegate without holding a table in memory.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { TPCH_TABLES, tpchRowCount, tpchRows, type TpchTable } from './generator.ts';

export interface TpchProgress {
  readonly table: TpchTable;
  /** rows produced so far */
  readonly rows: number;
  /** expected rows (exact except lineitem, whose count is known only at the end) */
  readonly expectedRows: number;
  readonly bytes: number;
  readonly done: boolean;
}

export interface TpchCsvOptions {
  /** chunk size in characters (default 256 KiB) */
  readonly chunkSize?: number;
  /** called after every chunk and once at the end (done: true) */
  readonly onProgress?: (p: TpchProgress) => void;
}

/** CSV field quoting: only when needed (commas, quotes, newlines, leading/trailing blanks) */
export function csvField(v: string): string {
  if (v === '' || /[",\n\r]|^\s|\s$/.test(v)) return `"${v.replace(/"/g, '""')}"`;
  return v;
}

/** per table, the columns holding free text (addresses, comments: commas, leading blanks) */
const FREE_TEXT: Readonly<Record<TpchTable, readonly boolean[]>> = {
  region: [false, false, true],
  nation: [false, false, false, true],
  supplier: [false, false, true, false, false, false, true],
  customer: [false, false, true, false, false, false, false, true],
  part: [false, false, false, false, false, false, false, false, true],
  partsupp: [false, false, false, false, true],
  orders: [false, false, false, false, false, false, false, false, true],
  lineitem: [false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, true],
};

/** one table's CSV text in chunks of about chunkSize characters (no header) */
export async function* tpchCsv(table: TpchTable, sf: number, options: TpchCsvOptions = {}): AsyncGenerator<string> {
  const chunkSize = options.chunkSize ?? 256 * 1024;
  const expectedRows = tpchRowCount(table, sf);
  let rows = 0;
  let bytes = 0;
  let chunk = '';
  const free = FREE_TEXT[table];
  for (const row of tpchRows(table, sf)) {
    // keys, numbers, dates and the fixed vocabularies never need quotes; free text always gets them
    let line = '';
    for (let i = 0; i < row.length; i++) {
      const v = row[i]!;
      const f = free[i] === true ? (v.includes('"') ? `"${v.replace(/"/g, '""')}"` : `"${v}"`) : v;
      line += i === 0 ? f : `,${f}`;
    }
    chunk += `${line}\n`;
    rows++;
    if (chunk.length >= chunkSize) {
      bytes += chunk.length;
      yield chunk;
      chunk = '';
      options.onProgress?.({ table, rows, expectedRows, bytes, done: false });
    }
  }
  if (chunk !== '') {
    bytes += chunk.length;
    yield chunk;
  }
  options.onProgress?.({ table, rows, expectedRows: rows, bytes, done: true });
}

/** a byte stream of one table's CSV, ready to pipe into pg-copy-streams' `COPY … FROM STDIN (FORMAT csv)` */
export function tpchCsvStream(table: TpchTable, sf: number, options: TpchCsvOptions = {}): Readable {
  return Readable.from((async function* () {
    for await (const chunk of tpchCsv(table, sf, options)) yield Buffer.from(chunk, 'utf8');
  })(), { objectMode: false });
}

export interface TpchCsvFile {
  readonly table: TpchTable;
  readonly file: string;
  readonly rows: number;
  readonly bytes: number;
}

/** writes `<dir>/<table>.csv` for the given tables (all eight by default) */
export async function writeTpchCsvFiles(dir: string, sf: number, options: TpchCsvOptions & { readonly tables?: readonly TpchTable[] } = {}): Promise<TpchCsvFile[]> {
  const out: TpchCsvFile[] = [];
  for (const table of options.tables ?? TPCH_TABLES) {
    const file = join(dir, `${table}.csv`);
    const ws = createWriteStream(file);
    let rows = 0;
    let bytes = 0;
    for await (const chunk of tpchCsv(table, sf, {
      ...options,
      onProgress: (p) => {
        rows = p.rows;
        bytes = p.bytes;
        options.onProgress?.(p);
      },
    })) {
      if (!ws.write(chunk)) await once(ws, 'drain');
    }
    ws.end();
    await once(ws, 'finish');
    out.push({ table, file, rows, bytes });
  }
  return out;
}
