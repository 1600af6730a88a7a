/**
 * An .slt file run against a lakegate server in this process with a 2-thread scan pool of its own (minRows 0, so
 * the files' small tables really reach the workers): the test servers otherwise run without workers, and a
 * worker-path .slt that quietly ran on the main thread would prove nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { acquireSharedScanPool, sharedScanPool } from '../../src/iceberg/parallel/scan-pool.ts';
import { startLakegate, type LakegateServer } from './lakegate-server.ts';
import { repoRoot } from '../slt/slt-files.ts';
import { parseSlt, type SltFile } from '../slt/slt-parser.ts';
import { runSltFile } from '../slt/slt-runner.ts';

export interface WorkerPoolSlt {
  readonly file: SltFile;
  /** the server (after beforeAll) */
  server(): LakegateServer;
  /** runs the whole file; fails on any failure or when the pool never started; returns the records executed */
  run(): Promise<number>;
}

/** registers the hooks of a describe block: pool + server before, server then pool closed after */
export function useWorkerPoolSlt(slt: string): WorkerPoolSlt {
  let server: LakegateServer | undefined;
  let release: (() => Promise<void>) | undefined;
  const file = parseSlt(readFileSync(join(repoRoot, slt), 'utf8'), slt);
  beforeAll(async () => {
    release = acquireSharedScanPool({ size: 2, minRows: 0 });
    server = await startLakegate();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await release?.();
  });
  const current = (): LakegateServer => {
    if (server === undefined) throw new Error(`${slt}: the server is not started yet`);
    return server;
  };
  return {
    file,
    server: current,
    async run() {
      const result = await runSltFile(file, { url: current().url, target: 'lakegate' });
      expect(result.failures).toEqual([]);
      expect(sharedScanPool()!.started).toBe(true);
      return result.executed;
    },
  };
}
