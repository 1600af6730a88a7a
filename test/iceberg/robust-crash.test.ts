/**
 * Crashes and concurrent processes, end to end through SQL against real `lakegate serve` child processes
 * (issue #3 item 11):
 * - a server killed (SIGKILL) after writing a commit's files but before the catalog swap leaves the table at
 *   its previous snapshot: a fresh server on the same warehouse reads every earlier row, the commit's files
 *   stay behind as orphans, and the next INSERT works;
 * - killed right after the swap, the new snapshot is fully visible to the fresh server;
 * - two server processes on one warehouse (one SQLite catalog: this test process and a child) each running
 *   INSERTs in parallel lose no commit: the final count is the sum and every snapshot is an ancestor of the
 *   current one (the catalog-level race is in src/catalog/iceberg/sql-catalog-processes.test.ts).
 * The kill points come from the test-only LAKEGATE_FAULT hook (src/iceberg/commit/commit-faults.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const passthrough = { getTypeParser: () => (v: string) => v };

interface Child {
  readonly proc: ChildProcess;
  url: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: string;
}

/** `node bin/lakegate.mjs serve` on the warehouse, port 0; resolves once it prints where it listens */
function spawnServer(warehouse: string, fault?: string): Promise<Child> {
  // TCP only: a killed server would leave its socket + lock files in /tmp
  const env: NodeJS.ProcessEnv = { ...process.env, LAKEGATE_SAMPLE: 'false', LAKEGATE_UNIX_SOCKET_DIRECTORIES: '' };
  if (fault === undefined) delete env['LAKEGATE_FAULT'];
  else env['LAKEGATE_FAULT'] = fault;
  const proc = spawn(process.execPath, [join(ROOT, 'bin/lakegate.mjs'), 'serve', '--warehouse', warehouse, '--host', '127.0.0.1', '--port', '0', '--no-sample'], {
    cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    let out = '';
    const child: Child = { proc, url: '', exited, stderr: '' };
    proc.stderr!.on('data', (d: Buffer) => { child.stderr += d.toString(); });
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /lakegate listening on ([^\s:]+):(\d+)/.exec(out);
      if (m && child.url === '') {
        child.url = `postgres://postgres@127.0.0.1:${m[2]}/lakegate`;
        resolve(child);
      }
    });
    void exited.then(({ code, signal }) => reject(new Error(`lakegate exited (${code ?? signal}) before listening: ${child.stderr}`)));
  });
}

async function connect(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url, types: passthrough as never });
  c.on('error', () => undefined); // the server may die under it
  await c.connect();
  return c;
}
const rows = async (c: pg.Client, sql: string): Promise<string[][]> =>
  ((await c.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

describe('crashes around the catalog swap, and two processes committing at once', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-crash-'));
  const children: Child[] = [];
  let before: Child, after: Child, r2: Child;
  let s0: LakegateServer | undefined;
  let fresh: LakegateServer | undefined;
  const snapshotsBefore: Record<string, string[][]> = {};
  const filesBefore: Record<string, number> = {};
  const tableFiles = (t: string): string[] => filesUnder(warehouse).filter((f) => f.includes(`/lake/${t}/`));

  beforeAll(async () => {
    // the tables and their first snapshots come from an in-process server
    s0 = await startLakegate({ config: { warehouse } });
    const c = await connect(s0.url);
    await c.query('CREATE SCHEMA lake');
    for (const t of ['before_t', 'after_t']) {
      await c.query(`CREATE TABLE lake.${t} (id int4, label text) WITH (partitioning = ARRAY['bucket(4, id)'])`);
      await c.query(`INSERT INTO lake.${t} VALUES (1, 'a'), (2, 'b')`);
      await c.query(`INSERT INTO lake.${t} VALUES (3, 'c')`);
      snapshotsBefore[t] = await rows(c, `SELECT snapshot_id, parent_id FROM lake."${t}$snapshots" ORDER BY committed_at, snapshot_id`);
      filesBefore[t] = tableFiles(t).length;
    }
    await c.query('CREATE TABLE lake.race (w text, n int4)');
    await c.end();
    // s0 stays up: it is the first of the two racing processes
    [before, after, r2] = await Promise.all([
      spawnServer(warehouse, 'exit-before-catalog-commit'),
      spawnServer(warehouse, 'exit-after-catalog-commit'),
      spawnServer(warehouse),
    ]);
    children.push(before, after, r2);
  }, 120_000);

  afterAll(async () => {
    for (const ch of children) if (ch.proc.exitCode === null && ch.proc.signalCode === null) ch.proc.kill('SIGTERM');
    await Promise.all(children.map((ch) => ch.exited));
    await fresh?.close();
    await s0?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  it('two server processes each running INSERTs in parallel lose no commit', async () => {
    const N = 8;
    const run = async (url: string, who: string): Promise<void> => {
      const c = await connect(url);
      try {
        for (let i = 0; i < N; i++) await c.query(`INSERT INTO lake.race VALUES ('${who}', ${i}), ('${who}', ${i + 100})`);
      } finally {
        await c.end();
      }
    };
    await Promise.all([run(s0!.url, 'one'), run(r2.url, 'two')]);
    await new Promise((r) => setTimeout(r, 300)); // each server re-reads the catalog at most every 200 ms
    const c = await connect(r2.url);
    try {
      expect(await rows(c, 'SELECT w, count(*), sum(n) FROM lake.race GROUP BY w ORDER BY w')).toEqual([['one', '16', '856'], ['two', '16', '856']]);
      // a linear chain: 2N snapshots, each an ancestor of the current one, total-records = 4N
      expect(await rows(c, `SELECT count(*), count(*) FILTER (WHERE is_current_ancestor) FROM lake."race$history"`)).toEqual([[String(2 * N), String(2 * N)]]);
      expect(await rows(c, `SELECT count(DISTINCT parent_id), count(*) FILTER (WHERE parent_id IS NULL) FROM lake."race$snapshots"`)).toEqual([[String(2 * N - 1), '1']]);
      expect(await rows(c, `SELECT summary->>'total-records' FROM lake."race$snapshots" ORDER BY committed_at DESC, snapshot_id LIMIT 1`)).toEqual([[String(4 * N)]]);
    } finally {
      await c.end();
    }
  }, 60_000);

  it('a process killed after writing the files but before the catalog swap leaves the previous snapshot', async () => {
    const c = await connect(before.url);
    await expect(c.query(`INSERT INTO lake.before_t VALUES (4, 'd'), (5, 'e')`)).rejects.toThrow();
    expect(await before.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(before.stderr).toContain('LAKEGATE_FAULT=exit-before-catalog-commit');
    // the commit's data file, manifest, manifest list and metadata file were written: orphans now
    expect(tableFiles('before_t').length).toBeGreaterThanOrEqual(filesBefore['before_t']! + 4);
  }, 30_000);

  it('a process killed right after the catalog swap leaves the new snapshot fully committed', async () => {
    const c = await connect(after.url);
    await expect(c.query(`INSERT INTO lake.after_t VALUES (4, 'd'), (5, 'e')`)).rejects.toThrow();
    expect(await after.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(after.stderr).toContain('LAKEGATE_FAULT=exit-after-catalog-commit');
  }, 30_000);

  it('a fresh server on the same warehouse sees exactly the committed states', async () => {
    fresh = await startLakegate({ config: { warehouse } });
    const c = await connect(fresh.url);
    try {
      // before the swap: the previous snapshot, every earlier row, no trace of the lost commit
      expect(await rows(c, 'SELECT id, label FROM lake.before_t ORDER BY id')).toEqual([['1', 'a'], ['2', 'b'], ['3', 'c']]);
      expect(await rows(c, `SELECT snapshot_id, parent_id FROM lake."before_t$snapshots" ORDER BY committed_at, snapshot_id`)).toEqual(snapshotsBefore['before_t']);
      // and the table takes the next commit (the orphan metadata file does not block the next version)
      await c.query(`INSERT INTO lake.before_t VALUES (6, 'f')`);
      expect(await rows(c, 'SELECT count(*), sum(id) FROM lake.before_t')).toEqual([['4', '12']]);
      // after the swap: one more snapshot whose rows are all there
      expect(await rows(c, 'SELECT id, label FROM lake.after_t ORDER BY id')).toEqual([['1', 'a'], ['2', 'b'], ['3', 'c'], ['4', 'd'], ['5', 'e']]);
      const snaps = await rows(c, `SELECT snapshot_id, parent_id FROM lake."after_t$snapshots" ORDER BY committed_at, snapshot_id`);
      expect(snaps.slice(0, 2)).toEqual(snapshotsBefore['after_t']);
      expect(snaps).toHaveLength(3);
      expect(snaps[2]![1]).toBe(snapshotsBefore['after_t']![1]![0]);
      expect(await rows(c, `SELECT count(*) FROM lake.after_t FOR SYSTEM_VERSION AS OF ${snapshotsBefore['after_t']![1]![0]}`)).toEqual([['3']]);
    } finally {
      await c.end();
    }
  }, 60_000);
});
