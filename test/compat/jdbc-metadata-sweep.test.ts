/**
 * pgJDBC 42.5 DatabaseMetaData and ResultSetMetaData against lakegate and against PostgreSQL 15 holding the same
 * schema (sweep/sweep-pair.ts): jdbc/MetaSweep.java prints one section per call, and each section must equal
 * PostgreSQL's unless KNOWN pins the difference (exact lines where they are few). SWEEP_PRINT=1 prints the differences.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { commandExists, PG_JDBC_JAR, runClient } from './compat-target.ts';
import { expectSectionsAgree, startSweepPair, type KnownDifference, type SweepPair } from './sweep/sweep-pair.ts';

const missing = !commandExists('javac') || !commandExists('java') || !existsSync(PG_JDBC_JAR);
const source = fileURLToPath(new URL('./jdbc/MetaSweep.java', import.meta.url));

const MISSING_BUILTINS = 'lakegate lists only the built-in functions it implements (no ranges, multiranges, timetz date_part, sort support)';

const KNOWN: Readonly<Record<string, KnownDifference>> = {
  'getFunctions(pg_catalog,lower)': { why: `${MISSING_BUILTINS}: lower(anyrange), lower(anymultirange)` },
  'getFunctions(pg_catalog,date_%)': { why: MISSING_BUILTINS },
  'getFunctionColumns(pg_catalog,date_part)': { why: `${MISSING_BUILTINS}: date_part(text, timetz)` },
};

/**
 * sections keyed by their "## " title (the capability lines before the first one are "capabilities"). The version
 * string and minor version are the installed PostgreSQL's (lakegate names itself there): left out, the major compared.
 */
function sections(out: string, database: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  let current: string[] = [];
  map.set('capabilities', current);
  for (const raw of out.split('\n')) {
    const line = raw.replaceAll(database, 'DB');
    if (/^cap getDatabase(ProductVersion|MinorVersion) = /.test(line)) continue;
    if (line.startsWith('## ')) {
      // the RSMD sections are named by their query: keep its first 50 characters
      const title = line.startsWith('## RSMD ') ? line.slice(3, 53).trimEnd() : line.slice(3);
      map.set(title, current = []);
    } else if (line !== '' && line !== 'DONE') current.push(line);
  }
  return map;
}

describe.skipIf(process.env.PG_COMPAT === '1' || missing)('pgJDBC DatabaseMetaData sweep, lakegate vs PostgreSQL', () => {
  let pair: SweepPair;
  let classes: string;
  beforeAll(async () => {
    classes = mkdtempSync(join(tmpdir(), 'lg-jdbc-sweep-'));
    await runClient('javac', ['-d', classes, '-cp', PG_JDBC_JAR, source], process.env, 120_000);
    pair = await startSweepPair('sweep_jdbc');
  }, 180_000);
  afterAll(async () => {
    await pair?.close();
    if (classes) rmSync(classes, { recursive: true, force: true });
  });

  const sweep = (host: string, port: number): Promise<string> =>
    runClient('java', ['-Xshare:auto', '-XX:TieredStopAtLevel=1', '-cp', `${classes}:${PG_JDBC_JAR}`, 'MetaSweep', host, String(port), pair.database], process.env, 120_000);

  it('every DatabaseMetaData call and ResultSetMetaData answers as PostgreSQL does, or as pinned', async () => {
    const pgOut = await sweep(pair.postgres.host, pair.postgres.port);
    const lgOut = await sweep(pair.lakegate.host, pair.lakegate.port);
    expectSectionsAgree(pgOut, lgOut, (out) => sections(out, pair.database), KNOWN);
  }, 240_000);
});

if (missing) it.skip('pgJDBC DatabaseMetaData sweep: javac/java or /usr/share/java/postgresql.jar missing', () => {});
