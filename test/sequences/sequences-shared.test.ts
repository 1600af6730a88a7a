/**
 * Sequences of Iceberg namespaces are kept in the SQL catalog's database: they survive a restart (nextval
 * continues), servers sharing one warehouse — in this process and in another process — never hand out the
 * same value, INSERT … SELECT and COPY into a serial table fill it, and psql's \d / \ds print what
 * PostgreSQL 15's psql prints for the same objects.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { startLakegateProcess } from '../helpers/lakegate-process.ts';
import { findPgBinDir, sharedPgCluster } from '../helpers/pg-cluster.ts';

async function client(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}

async function values(c: pg.Client, sql: string): Promise<string[]> {
  return (await c.query({ text: sql, rowMode: 'array' })).rows.map((r: unknown[]) => String(r[0]));
}


describe('sequences in the SQL catalog', () => {
  let a: LakegateServer;
  let b: LakegateServer;
  beforeAll(async () => {
    a = await startLakegate();
    b = await startLakegate({ config: { warehouse: a.warehouse } });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('continues after a restart of the server', async () => {
    const first = await startLakegate({ config: { warehouse: a.warehouse } });
    const c = await client(first.url);
    await c.query('CREATE SCHEMA seqp');
    await c.query('CREATE SEQUENCE seqp.s START 10');
    await c.query('CREATE TABLE seqp.t (id bigserial, v text)');
    expect(await values(c, "SELECT nextval('seqp.s')")).toEqual(['10']);
    await c.query(`INSERT INTO seqp.t(v) VALUES ('a'), ('b')`);
    await c.end();
    // a clean shutdown gives the values logged ahead back, so a fresh server continues without a gap
    await first.close();
    const again = await startLakegate({ config: { warehouse: a.warehouse } });
    try {
      const d = await client(again.url);
      expect(await values(d, "SELECT nextval('seqp.s')")).toEqual(['11']);
      expect(await values(d, `INSERT INTO seqp.t(v) VALUES ('c') RETURNING id`)).toEqual(['3']);
      expect(await values(d, 'SELECT id FROM seqp.t ORDER BY id')).toEqual(['1', '2', '3']);
      expect(await values(d, "SELECT column_default FROM information_schema.columns WHERE table_name = 't' AND column_name = 'id'")).toEqual(["nextval('seqp.t_id_seq'::regclass)"]);
      await d.end();
    } finally {
      await again.close().catch(() => undefined);
    }
  }, 60_000);

  it('never hands out a value twice across servers and processes', async () => {
    const c = await client(a.url);
    await c.query('CREATE SCHEMA seqc');
    await c.query('CREATE SEQUENCE seqc.s');
    await c.query('CREATE TABLE seqc.t (id serial, src text)');
    await c.end();
    const { child, url: childUrl } = await startLakegateProcess(a.warehouse);
    try {
      const urls = [a.url, b.url, childUrl];
      const clients = await Promise.all(urls.flatMap((u) => [client(u), client(u)]));
      // single nextvals from six sessions on three servers at once
      const got = await Promise.all(clients.map(async (k) => {
        const out: string[] = [];
        for (let i = 0; i < 25; i++) out.push(...(await values(k, "SELECT nextval('seqc.s')")));
        return out;
      }));
      const all = got.flat();
      expect(all).toHaveLength(150);
      expect(new Set(all).size).toBe(150);
      // INSERT … SELECT of many rows into a serial table from each server at once: blocks, never overlapping
      const [k0, , k2, , k4] = clients;
      await Promise.all([k0!, k2!, k4!].map((k, i) => k.query(`INSERT INTO seqc.t(src) SELECT 'k${i}' FROM generate_series(1, 2000)`)));
      const ids = await values(k0!, 'SELECT id FROM seqc.t');
      expect(ids).toHaveLength(6000);
      expect(new Set(ids).size).toBe(6000);
      await Promise.all(clients.map((k) => k.end()));
    } finally {
      child.kill('SIGTERM');
    }
  }, 120_000);

  it('fills a serial column a COPY leaves out', async () => {
    const c = await client(a.url);
    await c.query('CREATE SCHEMA seqcopy');
    await c.query('CREATE TABLE seqcopy.t (id serial, name text, qty int DEFAULT 7)');
    const rows = Array.from({ length: 500 }, (_, i) => `n${i}`).join('\n') + '\n';
    await pipeline(Readable.from([Buffer.from(rows)]), c.query(copyStreams.from('COPY seqcopy.t (name) FROM STDIN')));
    const r = await c.query('SELECT count(*)::int AS n, count(DISTINCT id)::int AS d, min(id) AS lo, max(id) AS hi, min(qty) AS q FROM seqcopy.t');
    expect(r.rows[0]).toEqual({ n: 500, d: 500, lo: 1, hi: 500, q: 7 });
    await c.end();
  }, 60_000);
});

const binDir = findPgBinDir();
const psql = binDir !== null && existsSync(join(binDir, 'psql')) ? join(binDir, 'psql') : null;

describe.skipIf(psql === null)('psql \\d and \\ds of sequences, serial and identity columns', () => {
  let lg: LakegateServer;
  let pgUrl: string;
  const ddl = [
    'CREATE SCHEMA seqpsql',
    'CREATE TABLE seqpsql.t (id serial PRIMARY KEY, name text)',
    'CREATE TABLE seqpsql.u (id bigint GENERATED ALWAYS AS IDENTITY, v int GENERATED BY DEFAULT AS IDENTITY (START WITH 5), w text)',
    'CREATE SEQUENCE seqpsql.s AS integer INCREMENT BY 3 MAXVALUE 100 CYCLE',
  ];
  beforeAll(async () => {
    lg = await startLakegate();
    const cluster = await sharedPgCluster();
    pgUrl = cluster.url;
    for (const url of [lg.url, pgUrl]) {
      const c = await client(url);
      await c.query('DROP SCHEMA IF EXISTS seqpsql CASCADE');
      for (const sql of ddl) await c.query(sql);
      await c.end();
    }
  }, 60_000);
  afterAll(async () => {
    const c = await client(pgUrl).catch(() => null);
    await c?.query('DROP SCHEMA IF EXISTS seqpsql CASCADE');
    await c?.end();
    await lg?.close();
  });

  // psql runs as a child process without blocking this process, which also serves lakegate
  const run = async (url: string, command: string): Promise<string> =>
    (await promisify(execFile)(psql!, ['-X', '-P', 'pager=off', '-d', url, '-c', command], { encoding: 'utf8' })).stdout.replace(/\b(postgres|lakegate)\b/g, '<owner>');

  for (const command of ['\\ds seqpsql.*', '\\d seqpsql.s', '\\d seqpsql.t_id_seq', '\\d seqpsql.u_id_seq', '\\d seqpsql.t', '\\d seqpsql.u']) {
    it(`${command} prints what PostgreSQL prints`, async () => {
      expect(await run(lg.url, command)).toBe(await run(pgUrl, command));
    }, 30_000);
  }
});
