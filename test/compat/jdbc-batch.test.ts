/**
 * pgJDBC executeBatch with autocommit is all or nothing: the driver sends Parse/Bind/Execute per row and one
 * Sync, and the extended-protocol pipeline is one implicit transaction (PostgreSQL's rule; lakegate commits
 * it at Sync, rolls it back after an error). Compiles jdbc/JdbcBatch.java against Debian's pgJDBC jar, as
 * jdbc.test.ts does; `PG_COMPAT=1` runs it against PostgreSQL, which prints the same.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandExists, PG_JDBC_JAR, runClient, skipReason } from './compat-target.ts';
import { startTarget, targetName, type TestTarget } from '../helpers/test-target.ts';

const missing = !commandExists('javac') || !commandExists('java') ? 'javac/java (a JDK)' : !existsSync(PG_JDBC_JAR) ? `${PG_JDBC_JAR} (libpostgresql-jdbc-java)` : null;
const skip = skipReason('jdbc', missing);
const source = fileURLToPath(new URL('./jdbc/JdbcBatch.java', import.meta.url));

describe.skipIf(skip !== null)(`pgJDBC executeBatch${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let target: TestTarget;
  let classes: string;
  let client: pg.Client;
  beforeAll(async () => {
    classes = mkdtempSync(join(tmpdir(), 'lg-jdbc-batch-'));
    await runClient('javac', ['-d', classes, '-cp', PG_JDBC_JAR, source], process.env, 120_000);
    target = await startTarget();
    client = new pg.Client({ connectionString: target.url });
    await client.connect();
    await client.query('DROP SCHEMA IF EXISTS jb CASCADE');
    await client.query('CREATE SCHEMA jb');
    await client.query('CREATE TABLE jb.t (id int4 PRIMARY KEY, v text NOT NULL)');
  }, 180_000);
  afterAll(async () => {
    await client?.query('DROP SCHEMA IF EXISTS jb CASCADE').catch(() => undefined);
    await client?.end();
    await target?.close();
    if (classes) rmSync(classes, { recursive: true, force: true });
  });

  it('a failing row undoes its batch; a valid batch commits every row', async () => {
    const u = new URL(target.url);
    const env = { ...process.env, PGHOST: u.hostname, PGPORT: u.port, PGDATABASE: u.pathname.slice(1) || 'postgres' };
    const snapshotsBefore = targetName() === 'pg' ? 0 : Number((await client.query('SELECT count(*) AS n FROM jb."t$snapshots"')).rows[0].n);
    const out = await runClient('java', ['-Xshare:auto', '-XX:TieredStopAtLevel=1', '-cp', `${classes}:${PG_JDBC_JAR}`, 'JdbcBatch'], env, 120_000);
    const lines = out.trim().split('\n');
    expect(lines[0]).toMatch(/^notnull 23502 \[.*\] count=0$/);
    expect(lines[1]).toMatch(/^dupkey 23505 \[.*\] count=0$/);
    expect(lines[2]).toBe('valid ok [1, 1, 1] count=3');
    expect(lines.slice(3, 7)).toEqual([0, 1, 2, 3].map((i) => `named${i} ok [1, 1] count=${5 + 2 * i}`));
    expect(lines[7]).toMatch(/^named4 23502 \[.*\] count=11$/);
    expect(lines[8]).toBe('DONE');
    // each row's INSERT is a staged snapshot; the batch published them with one pointer move at its Sync
    if (targetName() !== 'pg') expect(Number((await client.query('SELECT count(*) AS n FROM jb."t$snapshots"')).rows[0].n)).toBe(snapshotsBefore + 3 + 4 * 2);
  }, 180_000);
});

if (skip !== null) it.skip(`pgJDBC executeBatch: ${skip}`, () => {});
