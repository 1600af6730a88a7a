/**
 * `lakegate serve --processes 2`, spawned as a real command and driven with the pg driver: sessions of both
 * processes in pg_stat_activity, CancelRequest and pg_cancel/terminate_backend across processes,
 * read-your-writes across connections, OIDs that agree, memory tables refused, server-wide
 * max_connections, txid_current() unique across processes and restarts, a killed server process restarted,
 * and SIGTERM stopping every process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PID_RANGE_SIZE } from './cluster-protocol.ts';

const BIN = join(import.meta.dirname, '../../../bin/lakegate.mjs');
const MAX_CONNECTIONS = 8;

interface Served {
  readonly child: ChildProcess;
  readonly port: number;
  output(): string;
}

async function serve(warehouse: string): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', '--processes', '2', '--port', '0', '--warehouse', warehouse, '--no-sample', '--workers', '0'], {
    env: { ...process.env, LAKEGATE_AUTH: 'trust', LAKEGATE_MAX_CONNECTIONS: String(MAX_CONNECTIONS) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line in 55 s:\n${out}`)), 55_000);
    child.stdout!.on('data', () => {
      const m = /listening on [^:]+:(\d+) \(2 processes\)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
  });
  return { child, port, output: () => out };
}

/** the error a query ends with (attached at once: no unhandled rejection while the test waits) */
const failureOf = (p: Promise<unknown>): Promise<unknown> => p.then(() => null, (e: unknown) => e);

/** a CancelRequest between statements is ignored (as in PostgreSQL): wait until the other process reports the query running */
async function waitActive(observer: pg.Client, pid: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const r = await observer.query(`select state from pg_stat_activity where pid = ${pid}`);
    if (r.rows[0]?.state === 'active') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`backend ${pid} never became active`);
}

const processOf = (pid: number): number => Math.floor(pid / PID_RANGE_SIZE);

/**
 * OS pids of the primary's server processes. Only children running lakegate count: tsx's loader keeps an
 * esbuild service child in the primary whenever it had to transform a file (a cold cache, as on a clean CI clone).
 */
function childPids(primary: number): number[] {
  let pids: number[];
  try {
    pids = execFileSync('pgrep', ['-P', String(primary)]).toString().trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return pids.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('lakegate.mjs');
    } catch {
      return false; // exited meanwhile
    }
  });
}

/** a raw CancelRequest on a new connection (it lands on either process) */
/** over TCP, or over the Unix socket at `port`'s path when `socketDir` is given */
function sendCancel(port: number, pid: number, key: number, socketDir?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onConnect = (): void => {
      const b = Buffer.alloc(16);
      b.writeInt32BE(16, 0);
      b.writeInt32BE(80877102, 4);
      b.writeInt32BE(pid, 8);
      b.writeInt32BE(key, 12);
      s.end(b);
    };
    const s = socketDir === undefined ? connect(port, '127.0.0.1', onConnect) : connect(join(socketDir, `.s.PGSQL.${port}`), onConnect);
    s.on('close', () => resolve());
    s.on('error', reject);
  });
}

describe('lakegate serve --processes 2', () => {
  let warehouse: string;
  let served: Served;
  const open: pg.Client[] = [];
  const client = async (): Promise<pg.Client & { pid: number }> => {
    const c = new pg.Client({ host: '127.0.0.1', port: served.port, user: 'postgres', database: 'lakegate' });
    c.on('error', () => {});
    await c.connect();
    open.push(c);
    const pid = Number((await c.query('select pg_backend_pid() as p')).rows[0].p);
    return Object.assign(c, { pid });
  };
  /** one client on each process (a new connection goes to the process with the fewest open ones) */
  const onePerProcess = async (): Promise<[pg.Client & { pid: number }, pg.Client & { pid: number }]> => {
    const byProcess = new Map<number, pg.Client & { pid: number }>();
    for (let i = 0; i < 6 && byProcess.size < 2; i++) {
      const c = await client();
      if (!byProcess.has(processOf(c.pid))) byProcess.set(processOf(c.pid), c);
    }
    expect([...byProcess.keys()].sort()).toEqual([1, 2]);
    return [byProcess.get(1)!, byProcess.get(2)!];
  };
  const endAll = async (): Promise<void> => {
    for (const c of open.splice(0)) await c.end().catch(() => {});
  };

  beforeAll(async () => {
    warehouse = mkdtempSync(join(tmpdir(), 'lakegate-mp-'));
    served = await serve(warehouse);
  }, 60_000);
  afterAll(async () => {
    await endAll();
    if (served !== undefined && served.child.exitCode === null) served.child.kill('SIGKILL');
    rmSync(warehouse, { recursive: true, force: true });
  });

  it('shows the sessions of both processes in pg_stat_activity', async () => {
    const [a, b] = await onePerProcess();
    for (const c of [a, b]) {
      const pids = (await c.query('select pid from pg_stat_activity')).rows.map((r) => Number(r.pid));
      expect(pids).toEqual(expect.arrayContaining([a.pid, b.pid]));
      expect(pids.length).toBe(open.length);
    }
    const row = (await a.query(`select state, query from pg_stat_activity where pid = ${b.pid}`)).rows;
    expect(row).toEqual([{ state: 'idle', query: 'select pid from pg_stat_activity' }]);
    await endAll();
  }, 30_000);

  it('cancels a query from a CancelRequest on any connection and with pg_cancel_backend from the other process', async () => {
    const [a, b] = await onePerProcess();
    // consecutive new connections alternate between the processes: each target gets one cancel from each
    for (const target of [a, a, b, b]) {
      const running = failureOf(target.query('select pg_sleep(20)'));
      await waitActive(target === a ? b : a, target.pid);
      const { processID, secretKey } = target as unknown as { processID: number; secretKey: number };
      expect(processID).toBe(target.pid);
      await sendCancel(served.port, processID, secretKey);
      expect(await running).toMatchObject({ code: '57014', message: 'canceling statement due to user request' });
    }
    const running = failureOf(b.query('select pg_sleep(20)'));
    await waitActive(a, b.pid);
    expect((await a.query(`select pg_cancel_backend(${b.pid}) as ok`)).rows).toEqual([{ ok: true }]);
    expect(await running).toMatchObject({ code: '57014' });
    expect((await a.query('select pg_cancel_backend(12345) as ok')).rows).toEqual([{ ok: false }]);
    // terminate: the other process ends that session with 57P01
    const gone = new Promise<string>((resolve) => b.once('error', (e: Error & { code?: string }) => resolve(e.code ?? e.message)));
    expect((await a.query(`select pg_terminate_backend(${b.pid}) as ok`)).rows).toEqual([{ ok: true }]);
    expect(await gone).toBe('57P01');
    await endAll();
  }, 60_000);

  it('accepts over its Unix socket in /tmp (the default): both processes, no addresses, CancelRequest over the socket', async () => {
    const overSocket = async (): Promise<pg.Client & { pid: number }> => {
      const c = new pg.Client({ host: '/tmp', port: served.port, user: 'postgres', database: 'lakegate' });
      c.on('error', () => {});
      await c.connect();
      open.push(c);
      return Object.assign(c, { pid: Number((await c.query('select pg_backend_pid() as p')).rows[0].p) });
    };
    const clients = [await overSocket(), await overSocket(), await overSocket()];
    expect(new Set(clients.map((c) => processOf(c.pid)))).toEqual(new Set([1, 2]));
    const [a, b] = clients as [pg.Client & { pid: number }, pg.Client & { pid: number }];
    // PostgreSQL over its socket: NULL addresses, client_port -1 — seen from either process
    expect((await a.query(`select client_addr, client_port from pg_stat_activity where pid = ${b.pid}`)).rows).toEqual([{ client_addr: null, client_port: -1 }]);
    expect((await b.query('select inet_client_addr() as c, inet_server_port() as p')).rows).toEqual([{ c: null, p: null }]);
    const running = failureOf(b.query('select pg_sleep(20)'));
    await waitActive(a, b.pid);
    const { processID, secretKey } = b as unknown as { processID: number; secretKey: number };
    await sendCancel(served.port, processID, secretKey, '/tmp');
    expect(await running).toMatchObject({ code: '57014' });
    await endAll();
  }, 60_000);

  it('reads its writes across connections on different processes, with the same OIDs on both', async () => {
    const [a, b] = await onePerProcess();
    await a.query('create schema mp');
    await b.query('create table mp.t (id int primary key, v text)');
    for (let i = 1; i <= 6; i++) {
      const [w, r] = i % 2 === 0 ? [a, b] : [b, a];
      await w.query(`insert into mp.t values (${i}, 'x${i}')`);
      expect((await r.query('select count(*)::int as n, max(id) as m from mp.t')).rows).toEqual([{ n: i, m: i }]);
    }
    const oids = await Promise.all([a, b].map(async (c) => (await c.query(`select c.oid::int8 as rel, c.reltype::int8 as typ, c.relnamespace::int8 as nsp from pg_class c where relname = 't' and relnamespace = 'mp'::regnamespace`)).rows));
    expect(oids[1]).toEqual(oids[0]);
    const fields = await Promise.all([a, b].map(async (c) => (await c.query('select id from mp.t limit 1')).fields[0]!.tableID));
    expect(fields).toEqual([Number(oids[0]![0].rel), Number(oids[0]![0].rel)]);
    // a view in an Iceberg namespace lives in the catalog, so every process has it
    await a.query('create view mp.big as select id, v from mp.t where id > 3');
    expect((await b.query('select count(*)::int as n from mp.big')).rows).toEqual([{ n: 3 }]);
    await b.query('drop view mp.big');
    await expect(a.query('select * from mp.big')).rejects.toMatchObject({ code: '42P01' });
    await endAll();
  }, 60_000);

  it('refuses tables and views held in one process memory (0A000), allows temp tables', async () => {
    const c = await client();
    await expect(c.query('create table public.m (a int)')).rejects.toMatchObject({ code: '0A000', message: 'cannot create table "m" in schema "public" when processes > 1' });
    await expect(c.query('create view public.v as select 1 as one')).rejects.toMatchObject({ code: '0A000' });
    await c.query('create temp table tt (a int)');
    await c.query('insert into tt values (1)');
    expect((await c.query('select count(*)::int as n from tt')).rows).toEqual([{ n: 1 }]);
    await endAll();
  }, 30_000);

  it('counts max_connections over both processes', async () => {
    for (let i = 0; i < MAX_CONNECTIONS; i++) await client();
    const extra = new pg.Client({ host: '127.0.0.1', port: served.port, user: 'postgres', database: 'lakegate' });
    await expect(extra.connect()).rejects.toMatchObject({ code: '53300' });
    await endAll();
    await new Promise((r) => setTimeout(r, 200));
    await client();
    await endAll();
  }, 30_000);

  it('hands each new connection to the process with the fewest open ones', async () => {
    // a burst, as pgbench opens its clients: an even split (node:cluster's round-robin gave 6/2 at times)
    const burst = await Promise.all(Array.from({ length: 6 }, () => client()));
    const on = (p: number): Array<pg.Client & { pid: number }> => burst.filter((c) => processOf(c.pid) === p);
    expect([on(1).length, on(2).length]).toEqual([3, 3]);
    // process 1 loses its three: the next two go there, not one to each
    for (const c of on(1)) await c.end();
    await new Promise((r) => setTimeout(r, 1000));
    const next = [await client(), await client()];
    expect(next.map((c) => processOf(c.pid))).toEqual([1, 1]);
    await endAll();
    await new Promise((r) => setTimeout(r, 200));
  }, 30_000);

  /** txid_current() values seen so far, over both processes and the restart below */
  const xids = new Set<string>();
  const takeXids = async (c: pg.Client, n: number): Promise<void> => {
    for (let i = 0; i < n; i++) {
      // in a block: one id for the whole transaction; autocommit: a new one per statement
      await c.query('begin');
      const inBlock = (await c.query('select txid_current()::text as x')).rows[0].x as string;
      expect((await c.query('select txid_current()::text as x')).rows[0].x).toBe(inBlock);
      await c.query('commit');
      const single = (await c.query('select txid_current()::text as x')).rows[0].x as string;
      for (const x of [inBlock, single]) {
        expect(xids.has(x), `txid ${x} repeated`).toBe(false);
        xids.add(x);
      }
    }
  };

  it('never repeats txid_current() across processes', async () => {
    const [a, b] = await onePerProcess();
    await takeXids(a, 5);
    await takeXids(b, 5);
    await takeXids(a, 2);
    expect(xids.size).toBe(24);
    await endAll();
  }, 30_000);

  it('restarts a server process that dies, and stops every process on SIGTERM', async () => {
    const primary = served.child.pid!;
    // a process replaced or shutting down after an earlier test can still be listed for a moment
    let before = childPids(primary);
    for (let i = 0; i < 150 && before.length !== 2; i++) { await new Promise((r) => setTimeout(r, 100)); before = childPids(primary); }
    expect(before.length).toBe(2);
    process.kill(before[0]!, 'SIGKILL');
    // a restart loads the engine again: seconds, more on a busy machine
    for (let i = 0; i < 600 && !/server process \d restarted/.test(served.output()); i++) await new Promise((r) => setTimeout(r, 100));
    expect(served.output()).toMatch(/server process (\d) \(pid \d+\) exited \(SIGKILL\); restarting it[\s\S]*server process \1 restarted/);
    let after = childPids(primary);
    for (let i = 0; i < 150 && after.length !== 2; i++) { await new Promise((r) => setTimeout(r, 100)); after = childPids(primary); }
    expect(after.length).toBe(2);
    expect(after).not.toContain(before[0]);
    // the replacement process takes its transaction ids from a new block: none of the dead one's comes back
    const [a, b] = await onePerProcess();
    await takeXids(a, 3);
    await takeXids(b, 3);
    await endAll();
    const exited = new Promise<number | null>((resolve) => served.child.once('exit', (code) => resolve(code)));
    served.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of after) expect(() => process.kill(pid, 0)).toThrow();
    // the primary removed its socket and lock
    expect(existsSync(`/tmp/.s.PGSQL.${served.port}`)).toBe(false);
    expect(existsSync(`/tmp/.s.PGSQL.${served.port}.lock`)).toBe(false);
  }, 120_000);
});
