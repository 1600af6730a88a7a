/**
 * Replays the catalog SQL that clients we cannot run here send (Npgsql, dbt-postgres) against lakegate and
 * against a throwaway PostgreSQL holding the same objects, and compares the answers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../../helpers/lakegate-server.ts';
import { sharedPgCluster } from '../../helpers/pg-cluster.ts';

const SETUP = [
  'DROP SCHEMA IF EXISTS replay_s CASCADE',
  'CREATE SCHEMA replay_s',
  'CREATE TABLE replay_s.orders (id integer PRIMARY KEY, amount numeric(12,2), note varchar(40), created date, flag boolean, at timestamptz)',
  'CREATE TABLE replay_s.customers (id bigint NOT NULL, name text)',
  'CREATE VIEW replay_s.big_orders AS SELECT id, amount FROM replay_s.orders WHERE amount > 100',
];

const passthrough = { getTypeParser: () => (v: string) => v };

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, types: passthrough as never });
  await client.connect();
  return client;
}

/** statements of a replay file (split on `;` at line ends; the files hold no `;` inside literals) */
function statements(file: string, database: string): string[] {
  const text = readFileSync(join(import.meta.dirname, file), 'utf8').replaceAll('{{database}}', database);
  return text
    .split(/;\s*\n/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter((s) => s.length > 0);
}

async function rowsOf(client: pg.Client, sql: string): Promise<string[][]> {
  const res = await client.query({ text: sql, rowMode: 'array' });
  return (res.rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));
}

// this file compares lakegate with PostgreSQL itself; under PG_COMPAT=1 other files share the cluster concurrently
describe.skipIf(process.env.PG_COMPAT === '1')('replayed client catalog SQL', () => {
  let lakegate: LakegateServer;
  let lg: pg.Client;
  let ref: pg.Client;

  beforeAll(async () => {
    lakegate = await startLakegate();
    lg = await connect(lakegate.url);
    ref = await connect((await sharedPgCluster()).url);
    for (const sql of SETUP) {
      await ref.query(sql);
      await lg.query(sql);
    }
  });

  afterAll(async () => {
    await ref?.query('DROP SCHEMA IF EXISTS replay_s CASCADE').catch(() => undefined);
    await lg?.end();
    await ref?.end();
    await lakegate?.close();
  });

  it('Npgsql type loading: every type lakegate lists is PostgreSQL\'s, with the same oid, typtype and element', async () => {
    const [version, types, composites, enums] = statements('npgsql-load-types.sql', 'x');
    expect((await rowsOf(lg, version!))[0]![0]).toMatch(/^PostgreSQL 15\.\d+/);
    const ours = await rowsOf(lg, types!);
    const theirs = new Set((await rowsOf(ref, types!)).map((r) => r.join('|')));
    expect(ours.length).toBeGreaterThan(40);
    const missing = ours.filter((r) => !theirs.has(r.join('|')));
    expect(missing).toEqual([]);
    for (const name of ['int4', 'text', 'numeric', 'timestamptz', '_int4', 'uuid', 'jsonb']) {
      expect(ours.some((r) => r[2] === name)).toBe(true);
    }
    expect(await rowsOf(lg, composites!)).toEqual(await rowsOf(ref, composites!));
    expect(await rowsOf(lg, enums!)).toEqual(await rowsOf(ref, enums!));
  });

  it('dbt-postgres introspection macros answer as PostgreSQL does', async () => {
    const ourDb = (await rowsOf(lg, 'select current_database()'))[0]![0]!;
    const refDb = (await rowsOf(ref, 'select current_database()'))[0]![0]!;
    const ours = statements('dbt-postgres.sql', ourDb);
    const refs = statements('dbt-postgres.sql', refDb);
    for (let i = 0; i < ours.length; i++) {
      const a = (await rowsOf(lg, ours[i]!)).map((r) => r.map((v) => (v === ourDb ? '<db>' : v)));
      const b = (await rowsOf(ref, refs[i]!)).map((r) => r.map((v) => (v === refDb ? '<db>' : v)));
      if (i === 0) {
        // list_schemas: lakegate has no pg_toast_temp_* schemas, PostgreSQL's are an implementation detail
        const keep = (rows: string[][]) => rows.map((r) => r[0]).filter((n) => !n!.startsWith('pg_toast') && !n!.startsWith('pg_temp')).sort();
        expect(keep(a), ours[i]).toEqual(keep(b));
      } else {
        // the shared cluster may hold other test files' schemas: compare what concerns ours
        const mine = (rows: string[][]) => rows.filter((r) => !r.some((v) => v.startsWith('compat_') || v.startsWith('slt_')));
        expect(mine(a), ours[i]).toEqual(mine(b));
      }
    }
  });
});
