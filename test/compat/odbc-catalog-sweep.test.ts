/**
 * psqlODBC's catalog functions through pyodbc against lakegate and against PostgreSQL 15 holding the same schema
 * (sweep/sweep-pair.ts), with UseDeclareFetch 0 and 1: python/odbc_catalog_sweep.py prints one section per call, and
 * each must equal PostgreSQL's unless KNOWN pins the difference. SWEEP_PRINT=1 prints the differences.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { PSQLODBC_DRIVER, pythonHas, runClient, SYSTEM_PYTHON } from './compat-target.ts';
import { expectSectionsAgree, startSweepPair, type KnownDifference, type SweepPair } from './sweep/sweep-pair.ts';

const dir = fileURLToPath(new URL('./python/', import.meta.url));
const missing = !existsSync(PSQLODBC_DRIVER) ? `${PSQLODBC_DRIVER} (odbc-postgresql)` : pythonHas(['pyodbc']);

const KNOWN: Readonly<Record<string, KnownDifference>> = {
  // psqlODBC lists the table types from `select 'r' as relkind union select 'v' union …` without ORDER BY:
  // PostgreSQL's hashed UNION gives m, v, r, p, f; lakegate's another order
  'tables(types)': { why: "a UNION's row order without ORDER BY (psqlODBC's table-type list)", orderOnly: true },
};

function sections(out: string, database: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  let current: string[] = [];
  map.set('info', current);
  for (const raw of out.split('\n')) {
    const line = raw.replaceAll(`'${database}'`, "'DB'");
    // the server's version string: PostgreSQL's Debian build against lakegate's
    if (line.startsWith('info SQL_DBMS_VER ')) continue;
    if (line.startsWith('## ')) map.set(line.slice(3), current = []);
    else if (line !== '' && line !== 'DONE') current.push(line);
  }
  return map;
}

describe.skipIf(process.env.PG_COMPAT === '1' || missing !== null)('psqlODBC catalog sweep, lakegate vs PostgreSQL', () => {
  let pair: SweepPair;
  beforeAll(async () => {
    pair = await startSweepPair('sweep_odbc');
  }, 120_000);
  afterAll(async () => {
    await pair?.close();
  });

  const sweep = (host: string, port: number, udf: string): Promise<string> =>
    runClient(SYSTEM_PYTHON, ['odbc_catalog_sweep.py', host, String(port), pair.database, udf, PSQLODBC_DRIVER], { ...process.env, PYTHONDONTWRITEBYTECODE: '1' }, 120_000, dir);

  for (const udf of ['0', '1']) {
    it(`UseDeclareFetch=${udf}: every catalog function answers as PostgreSQL does, or as pinned`, async () => {
      const pgOut = await sweep(pair.postgres.host, pair.postgres.port, udf);
      const lgOut = await sweep(pair.lakegate.host, pair.lakegate.port, udf);
      expectSectionsAgree(pgOut, lgOut, (out) => sections(out, pair.database), KNOWN);
    }, 240_000);
  }
});

if (missing !== null) it.skip(`psqlODBC catalog sweep: ${missing}`, () => {});
