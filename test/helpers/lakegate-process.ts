/**
 * `lakegate serve` as a separate OS process on a warehouse (another process sharing the catalog, or one to
 * kill at a chosen moment), resolved once it listens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './pg-cluster.ts';

export interface LakegateProcess {
  readonly child: ChildProcess;
  readonly url: string;
}

/** on a free port (concurrent test runs never collide) */
export async function startLakegateProcess(warehouse: string): Promise<LakegateProcess> {
  const port = await freePort();
  const child = await spawnServe(warehouse, port);
  return { child, url: `postgres://postgres@127.0.0.1:${port}/lakegate` };
}

function spawnServe(warehouse: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['bin/lakegate.mjs', 'serve', '--port', String(port), '--warehouse', warehouse, '--no-sample'], {
    cwd: join(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LAKEGATE_AUTH: 'trust', LAKEGATE_UNIX_SOCKET_DIRECTORIES: '' }, // killed with SIGKILL: no socket files left in /tmp
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer): void => {
      out += d.toString();
      if (out.includes('listening')) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`lakegate exited with ${code}: ${out}`)));
  });
}
