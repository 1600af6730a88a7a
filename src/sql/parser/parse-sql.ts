/**
 * Parser wrapper: PostgreSQL's own grammar (libpg-query, WASM) → one ParsedStatement per statement.
 * Before parsing, non-PG time-travel syntax `FOR SYSTEM_TIME AS OF x` / `FOR SYSTEM_VERSION AS OF x` after a
 * table name is blanked out (positions stay valid) and recorded on that RangeVar as `lakegateAsOf`.
 * Locations in the AST are converted from UTF-8 byte offsets to character offsets, as PostgreSQL reports them.
 */
import pgQuery from 'libpg-query';
import { syntaxError } from '../../common/errors.ts';
import { rewriteWithArrayOptions } from './with-array-options.ts';

export interface ParsedStatement {
  /** the libpg-query RawStmt.stmt node, e.g. {SelectStmt: …} */
  readonly ast: unknown;
  readonly text: string;
  /** 0-based character offset of the statement in the submitted string */
  readonly location: number;
}

let loaded: Promise<void> | null = null;

export async function initParser(): Promise<void> {
  loaded ??= pgQuery.loadModule();
  await loaded;
}

interface AsOfClause { readonly start: number; readonly asOf: string }

export function parseSql(sql: string): ParsedStatement[] {
  const clauses: AsOfClause[] = [];
  const rewritten = rewriteWithArrayOptions(blankTimeTravel(sql, clauses));
  let result: { stmts?: { stmt: unknown; stmt_location?: number; stmt_len?: number }[] };
  try {
    // libpg-query refuses text that JS's trim() empties; the grammar decides what is whitespace (a no-break
    // space is not: a syntax error), and a statement list without statements is an empty query
    result = pgQuery.parseSync(rewritten.trim() === '' ? `${rewritten};` : rewritten) as typeof result;
  } catch (e) {
    const details = (e as { sqlDetails?: { message: string; cursorPosition: number } }).sqlDetails;
    const message = details?.message ?? (e instanceof Error ? e.message : String(e));
    const pos = details?.cursorPosition;
    // libpg-query reports the error cursor in characters already (AST locations are bytes)
    throw syntaxError(message, pos === undefined || pos < 0 ? undefined : pos + 1);
  }
  const conv = byteToChar(sql);
  const out: ParsedStatement[] = [];
  for (const s of result.stmts ?? []) {
    fixLocations(s.stmt, conv, sql !== rewritten || hasNonAscii(sql));
    const startByte = s.stmt_location ?? 0;
    const start = conv(startByte);
    const end = s.stmt_len ? conv(startByte + s.stmt_len) : sql.length;
    if (clauses.length > 0) attachAsOf(s.stmt, clauses);
    out.push({ ast: s.stmt, text: sql.slice(start, end).trim(), location: start });
  }
  return out;
}

function hasNonAscii(s: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /[^\x00-\x7f]/.test(s);
}

function byteToChar(sql: string): (b: number) => number {
  if (!hasNonAscii(sql)) return (b) => b;
  const map: number[] = [];
  let ci = 0;
  for (const ch of sql) {
    const n = Buffer.byteLength(ch);
    for (let k = 0; k < n; k++) map.push(ci);
    ci += ch.length;
  }
  return (b) => (b >= map.length ? ci : map[b]!);
}

function fixLocations(node: unknown, conv: (b: number) => number, needed: boolean): void {
  if (!needed || node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) { for (const n of node) fixLocations(n, conv, needed); return; }
  const o = node as Record<string, unknown>;
  for (const [k, v] of Object.entries(o)) {
    if (k === 'location' && typeof v === 'number' && v >= 0) o[k] = conv(v);
    else if (typeof v === 'object') fixLocations(v, conv, needed);
  }
}

const TIME_TRAVEL = /^FOR\s+SYSTEM_(?:TIME|VERSION)\s+AS\s+OF\s+/i;

/** Blanks `FOR SYSTEM_TIME|SYSTEM_VERSION AS OF <literal>` outside strings and comments. */
function blankTimeTravel(sql: string, out: AsOfClause[]): string {
  if (!/SYSTEM_(TIME|VERSION)/i.test(sql)) return sql;
  const chars = sql.split('');
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"') { i = skipQuoted(sql, i, c); continue; }
    if (c === '-' && sql[i + 1] === '-') { while (i < sql.length && sql[i] !== '\n') i++; continue; }
    if (c === '/' && sql[i + 1] === '*') { const e = sql.indexOf('*/', i + 2); i = e < 0 ? sql.length : e + 2; continue; }
    if ((c === 'f' || c === 'F') && (i === 0 || /\s/.test(sql[i - 1]!))) {
      const m = TIME_TRAVEL.exec(sql.slice(i));
      if (m) {
        let j = i + m[0].length;
        const vStart = j;
        const kw = /^(TIMESTAMP|TIMESTAMPTZ|DATE)\s+/i.exec(sql.slice(j));
        if (kw) j += kw[0].length;
        if (sql[j] === "'") j = skipQuoted(sql, j, "'");
        else while (j < sql.length && /[\w.:+-]/.test(sql[j]!)) j++;
        out.push({ start: i, asOf: sql.slice(vStart, j) });
        for (let k = i; k < j; k++) if (chars[k] !== '\n') chars[k] = ' ';
        i = j;
        continue;
      }
    }
    i++;
  }
  return chars.join('');
}

function skipQuoted(sql: string, i: number, q: string): number {
  let j = i + 1;
  while (j < sql.length) {
    if (sql[j] === q) { if (sql[j + 1] === q) { j += 2; continue; } return j + 1; }
    j++;
  }
  return j;
}

/** Records each clause on the RangeVar that ends closest before it. */
function attachAsOf(stmt: unknown, clauses: AsOfClause[]): void {
  const vars: Record<string, unknown>[] = [];
  const walk = (n: unknown): void => {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) { n.forEach(walk); return; }
    const o = n as Record<string, unknown>;
    if (o.RangeVar) vars.push(o.RangeVar as Record<string, unknown>);
    Object.values(o).forEach(walk);
  };
  walk(stmt);
  for (const c of clauses) {
    let best: Record<string, unknown> | undefined;
    for (const v of vars) {
      const loc = v.location as number;
      if (loc < c.start && (best === undefined || loc > (best.location as number))) best = v;
    }
    if (best) best.lakegateAsOf = c.asOf;
  }
}
