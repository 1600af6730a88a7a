/**
 * A commit made by another lakegate process on the same warehouse is seen by the next statement here, also by a
 * prepared point lookup whose catalog change check found nothing new a moment before (SqliteDialect.quietChangeToken
 * answers such checks without reading the WAL-index header while its watch on the -wal file heard no write:
 * the other process's frame writes must wake it, wal-write-watch.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';

/** `lakegate serve` as its own process on `warehouse` (port 0: the port it reports) */
async function spawnServer(warehouse: string): Promise<{ child: ChildProcess; url: string }> {
  const bin = new URL('../../bin/lakegate.mjs', import.meta.url).pathname;
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--warehouse', warehouse, '--no-sample'], {
    env: { ...process.env, LAKEGATE_AUTH: 'trust' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const listening = /listening on \S*:(\d+)/.exec(out);
      if (listening !== null) resolve(Number(listening[1]));
    });
    child.once('exit', (code) => reject(new Error(`lakegate exited with ${code}: ${out}`)));
  });
  return { child, url: `postgres://postgres@127.0.0.1:${port}/lakegate` };
}

describe('a commit of another server process on the same warehouse', () => {
  let here: LakegateServer | undefined;
  let other: ChildProcess | undefined;
  const clients: pg.Client[] = [];
  afterAll(async () => {
    for (const c of clients) await c.end().catch(() => undefined);
    if (other !== undefined && other.exitCode === null) {
      const exited = new Promise((r) => other!.once('exit', r));
      other.kill('SIGTERM');
      await exited;
    }
    await here?.close();
  });

  it('is seen by the next prepared lookup here, after quiet periods', async () => {
    here = await startLakegate();
    const local = new pg.Client({ connectionString: here.url });
    await local.connect();
    clients.push(local);
    await local.query('create schema ext');
    await local.query('create table ext.kv (id int primary key, v text)');
    await local.query(`insert into ext.kv values (1, 'one')`);

    const spawned = await spawnServer(here.warehouse);
    other = spawned.child;
    const remote = new pg.Client({ connectionString: spawned.url });
    await remote.connect();
    clients.push(remote);

    const lookup = (id: number): Promise<pg.QueryResult> => local.query({ name: 'kv_lookup', text: 'select v from ext.kv where id = $1', values: [id] });
    expect((await lookup(1)).rows).toEqual([{ v: 'one' }]);
    for (let round = 2; round <= 4; round++) {
      expect((await lookup(round)).rowCount).toBe(0);
      // a quiet spell: the watch has settled, and the change checks here answer without a header read
      await sleep(2_500);
      for (let i = 0; i < 20; i++) expect((await lookup(round)).rowCount).toBe(0);
      await remote.query(`insert into ext.kv values (${round}, 'v${round}')`);
      expect((await lookup(round)).rows).toEqual([{ v: `v${round}` }]);
    }
    expect((await local.query('select count(*)::int as n from ext.kv')).rows).toEqual([{ n: 4 }]);
  }, 120_000);
});
