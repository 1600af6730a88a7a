/**
 * Python clients, run with Debian's /usr/bin/python3 (where python3-psycopg2 & co. install; a pyenv
 * python3 may come first on PATH): psycopg2, psycopg 3, asyncpg, SQLAlchemy 1.4 reflection, pandas.
 * Each script prints `ok <step>` per check and `DONE` at the end; any failure exits non-zero.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareCompat, pythonHas, runClient, skipReason, SYSTEM_PYTHON, type ClientId, type CompatEnv } from './compat-target.ts';

const dir = fileURLToPath(new URL('./python/', import.meta.url));

const CLIENTS: ReadonlyArray<{ id: ClientId; script: string; modules: string[] }> = [
  { id: 'psycopg2', script: 'psycopg2_compat.py', modules: ['psycopg2'] },
  { id: 'psycopg3', script: 'psycopg3_compat.py', modules: ['psycopg'] },
  { id: 'asyncpg', script: 'asyncpg_compat.py', modules: ['asyncpg'] },
  { id: 'sqlalchemy', script: 'sqlalchemy_compat.py', modules: ['sqlalchemy', 'psycopg2'] },
  { id: 'pandas', script: 'pandas_compat.py', modules: ['pandas', 'sqlalchemy', 'psycopg2'] },
];

for (const client of CLIENTS) {
  const skip = skipReason(client.id, pythonHas(client.modules));
  if (skip !== null) {
    it.skip(`${client.id}: ${skip}`, () => {});
    continue;
  }
  describe(client.id, () => {
    let ctx: CompatEnv;
    beforeAll(async () => {
      ctx = await prepareCompat(client.id);
    });
    afterAll(async () => {
      await ctx?.close();
    });
    it(client.script, async () => {
      const out = await runClient(SYSTEM_PYTHON, [client.script], { ...ctx.env, PYTHONDONTWRITEBYTECODE: '1' }, 120_000, dir);
      expect(out).toContain('DONE');
    });
  });
}
