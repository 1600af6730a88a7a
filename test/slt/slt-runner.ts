/**
 * Runs one parsed .slt file over a `pg` Client (simple Query protocol, values as PostgreSQL's text).
 * Every record runs even after a failure, so one run lists every mismatch; `halt` stops the file.
 * In complete mode the expected blocks of query records are rewritten from the actual output.
 */
import { basename } from 'node:path';
import pg from 'pg';
import { formatRows, hashValues, resultMatches } from './slt-format.ts';
import type { ExpectedError, SltFile, SltRecord } from './slt-parser.ts';

export interface RunOptions {
  /** connection URL of the target */
  readonly url: string;
  /** 'pg' or 'lakegate': what skipif/onlyif compare with */
  readonly target: string;
  readonly complete?: boolean;
  /** per-statement client-side timeout */
  readonly timeoutMs?: number;
}

export interface RunResult {
  readonly failures: readonly string[];
  readonly executed: number;
  readonly skipped: number;
  /** the completed file text (complete mode), or null */
  readonly completed: string | null;
}

/** Values stay exactly as PostgreSQL's text output (no Date, number or array parsing). */
const rawTypes = { getTypeParser: () => (v: string) => v } as unknown as pg.CustomTypesConfig;

export function schemaFor(path: string): string {
  return `slt_${basename(path, '.slt').toLowerCase().replace(/[^a-z0-9_]/g, '_')}`;
}

function applies(rec: SltRecord, target: string): boolean {
  if (rec.skipif.includes(target)) return false;
  return rec.onlyif.length === 0 || rec.onlyif.includes(target);
}

function errorMismatch(exp: ExpectedError, err: unknown): string | null {
  const e = err as { code?: string; message?: string; position?: string };
  if (exp.pgcode && e.code !== exp.pgcode) return `expected SQLSTATE ${exp.pgcode}, got ${e.code ?? '(none)'}: ${e.message}`;
  if (exp.position !== null && Number(e.position) !== exp.position) return `expected error position ${exp.position}, got ${e.position ?? '(none)'}: ${e.message}`;
  if (exp.message && !new RegExp(exp.message).test(e.message ?? '')) return `error message ${JSON.stringify(e.message)} does not match /${exp.message}/`;
  return null;
}

function describeError(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return `${e.code ?? 'no SQLSTATE'}: ${e.message ?? String(err)}`;
}

type QueryOutcome = { ok: true; result: pg.QueryArrayResult } | { ok: false; error: unknown };

async function run(client: pg.Client, sql: string): Promise<QueryOutcome> {
  try {
    const res = (await client.query({ text: sql, rowMode: 'array' })) as pg.QueryArrayResult | pg.QueryArrayResult[];
    const last = Array.isArray(res) ? res[res.length - 1] : res;
    if (!last) throw new Error('no result');
    return { ok: true, result: last };
  } catch (error) {
    return { ok: false, error };
  }
}

export async function runSltFile(file: SltFile, opts: RunOptions): Promise<RunResult> {
  const failures: string[] = [];
  const completions = new Map<SltRecord, string[]>();
  const columnCounts = new Map<SltRecord, number>();
  const client = new pg.Client({ connectionString: opts.url, types: rawTypes, query_timeout: opts.timeoutMs ?? 60_000 });
  client.on('error', () => {}); // a dropped connection surfaces as the next query's failure
  await client.connect();
  const schema = schemaFor(file.path);
  const setup = await run(client, `DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
  if (!setup.ok) failures.push(`${file.path}: could not create the file's schema ${schema}: ${describeError(setup.error)}`);

  let executed = 0;
  let skipped = 0;
  let hashThreshold = 0;
  try {
    for (const rec of file.records) {
      if (!applies(rec, opts.target)) {
        skipped++;
        continue;
      }
      const where = `${file.path}:${rec.line}`;
      if (rec.kind === 'halt') break;
      if (rec.kind === 'hash-threshold') {
        hashThreshold = rec.threshold;
        continue;
      }
      executed++;
      const out = await run(client, rec.sql);
      if (rec.kind === 'statement' || rec.kind === 'query-error') {
        const expectErr = rec.kind === 'query-error' ? rec.error : 'error' in rec.expect ? rec.expect.error : null;
        if (expectErr) {
          if (out.ok) failures.push(`${where}: expected an error, statement succeeded\n${rec.sql}`);
          else {
            const why = errorMismatch(expectErr, out.error);
            if (why) failures.push(`${where}: ${why}\n${rec.sql}`);
          }
        } else if (!out.ok) failures.push(`${where}: statement failed: ${describeError(out.error)}\n${rec.sql}`);
        else if (rec.kind === 'statement' && 'count' in rec.expect && out.result.rowCount !== rec.expect.count) {
          failures.push(`${where}: expected count ${rec.expect.count}, got ${out.result.rowCount}\n${rec.sql}`);
        }
        continue;
      }
      // query
      if (!out.ok) {
        failures.push(`${where}: query failed: ${describeError(out.error)}\n${rec.sql}`);
        continue;
      }
      const fields = out.result.fields ?? [];
      const types = rec.types.length === fields.length || !opts.complete ? rec.types : 'T'.repeat(fields.length);
      if (fields.length !== rec.types.length && !opts.complete) {
        failures.push(`${where}: query has ${fields.length} columns, types "${rec.types}" say ${rec.types.length}\n${rec.sql}`);
        continue;
      }
      let actual = formatRows(out.result.rows, types, rec.sort);
      const valueCount = out.result.rows.length * fields.length;
      if (hashThreshold > 0 && valueCount > hashThreshold) actual = [hashValues(actual)];
      if (rec.colnames) actual = [fields.map((f) => f.name || '(empty)').join('\t'), ...actual];
      if (opts.complete) {
        columnCounts.set(rec, fields.length);
        if (fields.length !== rec.types.length) {
          completions.set(rec, actual);
          continue;
        }
        // keep hand-written blocks (`<REGEX>:`, one value per line) that still match
        if (!rec.hasSeparator || !resultMatches(rec.expected, actual, rec.sort === 'valuesort')) completions.set(rec, actual);
        continue;
      }
      if (!resultMatches(rec.expected, actual, rec.sort === 'valuesort')) {
        failures.push(`${where}: result mismatch\n${rec.sql}\n--- expected\n${rec.expected.join('\n')}\n--- actual\n${actual.join('\n')}`);
      }
    }
  } finally {
    await run(client, 'ROLLBACK');
    await run(client, `RESET search_path; DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end().catch(() => {});
  }
  return { failures, executed, skipped, completed: opts.complete ? complete(file, completions, columnCounts) : null };
}

/** Rewrites the expected blocks (from the last record up, so line indexes stay valid). */
function complete(file: SltFile, completions: Map<SltRecord, string[]>, columnCounts: Map<SltRecord, number>): string {
  const lines = [...file.lines];
  const queries = file.records.filter((r) => r.kind === 'query' && completions.has(r)).reverse();
  for (const rec of queries) {
    if (rec.kind !== 'query') continue;
    const actual = completions.get(rec) ?? [];
    const columns = columnCounts.get(rec);
    if (columns !== undefined && columns !== rec.types.length) {
      // the column count changed: rewrite the type letters as T (edit them by hand if needed)
      const header = rec.line - 1;
      lines[header] = (lines[header] ?? '').replace(/^(\s*query\s+)\S+/, `$1${'T'.repeat(columns)}`);
    }
    if (rec.hasSeparator) lines.splice(rec.expectedRange[0], rec.expectedRange[1] - rec.expectedRange[0], ...actual);
    else lines.splice(rec.sqlEnd + 1, 0, '----', ...actual);
  }
  return lines.join('\n');
}
