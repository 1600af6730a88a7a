/**
 * Two OS processes committing to one SQLite catalog file at the same time: SQLite's own locking (WAL,
 * BEGIN IMMEDIATE, busy_timeout) must keep the compare-and-swap exact, so no commit is lost: the chain
 * of previous_metadata_location links has one entry per successful commit.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlCatalog } from './open-sql-catalog.ts';

const worker = fileURLToPath(new URL('./test/commit-worker.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'lg-sqlcat-proc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface WorkerResult {
  links: [string, string][];
  conflicts: number;
}

/** Starts test/commit-worker.ts; `ready` resolves once it has opened the catalog. */
function startWorker(file: string, commits: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', worker, file, 'lakegate', String(commits)], {
    stdio: ['pipe', 'pipe', 'inherit'],
    timeout: 60_000,
  });
  let out = '';
  let onReady: () => void = () => {};
  const ready = new Promise<void>((r) => (onReady = r));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    if (out.startsWith('ready\n')) onReady();
  });
  const result = new Promise<WorkerResult>((resolve, reject) =>
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out.slice('ready\n'.length)) as WorkerResult) : reject(new Error(`worker exited with ${code}`)),
    ),
  );
  return { ready, result, go: () => child.stdin.end('go\n') };
}

describe('SqlCatalog on SQLite across processes', () => {
  it('loses no commit when two processes race on one file', async () => {
    const file = join(dir, 'lakegate_catalog.db');
    const catalog = await openSqlCatalog({ uri: file });
    await catalog.createNamespace(['race']);
    await catalog.createTable({ namespace: ['race'], name: 't' }, '/wh/race/t/metadata/00000-x.metadata.json');
    const perProcess = 100;
    const children = [1, 2].map(() => startWorker(file, perProcess));
    await Promise.all(children.map((c) => c.ready));
    for (const c of children) c.go();
    const results = await Promise.all(children.map((c) => c.result));
    const links = results.flatMap((r) => r.links);
    expect(links).toHaveLength(2 * perProcess);
    // the processes really interleaved: at least one lost a race and retried
    expect(results.reduce((n, r) => n + r.conflicts, 0)).toBeGreaterThan(0);
    // compare-and-swap: no two successful commits share a base, and they form one unbroken chain
    const byBase = new Map(links);
    expect(byBase.size).toBe(links.length);
    let at = '/wh/race/t/metadata/00000-x.metadata.json';
    for (let i = 0; i < links.length; i++) at = byBase.get(at) ?? 'broken chain';
    expect(await catalog.loadTableLocation({ namespace: ['race'], name: 't' })).toMatchObject({ metadataLocation: at });
    await catalog.close();
  }, 60_000);
});
