/**
 * psqlODBC (odbc-postgresql) through pyodbc with /usr/bin/python3, DSN-less: the connection string names
 * the driver file, so no odbcinst.ini is needed. See python/odbc_compat.py for the checks.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareCompat, PSQLODBC_DRIVER, pythonHas, runClient, skipReason, SYSTEM_PYTHON, type CompatEnv } from './compat-target.ts';

const dir = fileURLToPath(new URL('./python/', import.meta.url));
const missing = !existsSync(PSQLODBC_DRIVER) ? `${PSQLODBC_DRIVER} (odbc-postgresql)` : pythonHas(['pyodbc']);
const skip = skipReason('odbc', missing);

describe.skipIf(skip !== null)(`psqlODBC${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let ctx: CompatEnv;
  beforeAll(async () => {
    ctx = await prepareCompat('odbc');
  });
  afterAll(async () => {
    await ctx?.close();
  });
  it('odbc_compat.py (UseDeclareFetch=0 and 1)', async () => {
    const out = await runClient(SYSTEM_PYTHON, ['odbc_compat.py'], { ...ctx.env, PSQLODBC_DRIVER, PYTHONDONTWRITEBYTECODE: '1' }, 120_000, dir);
    expect(out).toContain('DONE');
  });
});

if (skip !== null) it.skip(`psqlODBC: ${skip}`, () => {});
