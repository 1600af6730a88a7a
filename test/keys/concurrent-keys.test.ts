/**
 * Two sessions adding one key at the same time through real `pg` clients: exactly one succeeds, the other
 * fails with 23505 (its commit re-validates the keys against the winner's files) — autocommit INSERT and COPY,
 * and transaction blocks (the later COMMIT is 23505: its staged keys are looked up in the winner's files). Deleted
 * rows give their key back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { connectText } from '../helpers/text-client.ts';

describe('concurrent writers of one key', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-keys-race-'));
  let server: LakegateServer;
  let a: pg.Client;
  let b: pg.Client;
  const count = async (sql: string): Promise<number> => Number(((await a.query({ text: sql, rowMode: 'array' })).rows as unknown[][])[0]![0]);
  const copyIn = async (c: pg.Client, sql: string, data: string): Promise<void> => {
    const stream = c.query(copyFrom(sql));
    await new Promise<void>((resolve, reject) => {
      stream.on('finish', resolve);
      stream.on('error', reject);
      stream.end(data);
    });
  };

  beforeAll(async () => {
    server = await startLakegate({ config: { warehouse } });
    a = await connectText(server.url);
    b = await connectText(server.url);
    await a.query('CREATE SCHEMA r');
    await a.query('CREATE TABLE r.t (id int8 PRIMARY KEY, who text)');
    await a.query(`INSERT INTO r.t SELECT g, 'seed' FROM generate_series(1, 1000) g`);
  });

  afterAll(async () => {
    await a?.end();
    await b?.end();
    await server?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  it('autocommit INSERTs of one key: one wins, the other is 23505', async () => {
    for (let k = 2000; k < 2008; k++) {
      const results = await Promise.allSettled([
        a.query(`INSERT INTO r.t VALUES (${k}, 'a')`),
        b.query(`INSERT INTO r.t VALUES (${k}, 'b')`),
      ]);
      const failed = results.filter((r) => r.status === 'rejected');
      expect(failed).toHaveLength(1);
      expect((failed[0] as PromiseRejectedResult).reason).toMatchObject({ code: '23505', detail: `Key (id)=(${k}) already exists.` });
      expect(await count(`SELECT count(*) FROM r.t WHERE id = ${k}`)).toBe(1);
    }
  });

  it('concurrent COPYs sharing one key among many: one wins', async () => {
    const rowsOf = (from: number, who: string): string => Array.from({ length: 5000 }, (_, i) => `${from + i}\t${who}\n`).join('');
    const results = await Promise.allSettled([
      copyIn(a, 'COPY r.t FROM STDIN', rowsOf(10000, 'a')),
      copyIn(b, 'COPY r.t FROM STDIN', rowsOf(14999, 'b')),
    ]);
    const failed = results.filter((r) => r.status === 'rejected');
    expect(failed).toHaveLength(1);
    expect((failed[0] as PromiseRejectedResult).reason).toMatchObject({ code: '23505', detail: 'Key (id)=(14999) already exists.' });
    expect(await count('SELECT count(*) FROM r.t WHERE id >= 10000')).toBe(5000);
  });

  it('two transaction blocks adding one key: the later COMMIT is 23505', async () => {
    await a.query('BEGIN');
    await b.query('BEGIN');
    await a.query(`INSERT INTO r.t VALUES (30000, 'a')`);
    await b.query(`INSERT INTO r.t VALUES (30000, 'b')`);
    await a.query('COMMIT');
    await expect(b.query('COMMIT')).rejects.toMatchObject({ code: '23505', detail: 'Key (id)=(30000) already exists.' });
    expect(await count('SELECT count(*) FROM r.t WHERE id = 30000')).toBe(1);
  });

  it('a deleted row gives its key back (delete files are honoured)', async () => {
    await expect(a.query(`INSERT INTO r.t VALUES (5, 'again')`)).rejects.toMatchObject({ code: '23505' });
    await a.query('DELETE FROM r.t WHERE id = 5');
    await a.query(`INSERT INTO r.t VALUES (5, 'again')`);
    expect(await count(`SELECT count(*) FROM r.t WHERE id = 5 AND who = 'again'`)).toBe(1);
  });
});
