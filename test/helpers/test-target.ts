/**
 * The server a test run talks to: lakegate (default) or, with PG_COMPAT=1, the throwaway PostgreSQL,
 * so that the same .slt files and client scripts check that lakegate answers as PostgreSQL does.
 */
import { startLakegate } from './lakegate-server.ts';
import { sharedPgCluster } from './pg-cluster.ts';

export type TargetName = 'pg' | 'lakegate';

export interface TestTarget {
  readonly name: TargetName;
  /** connection URL of the target's default database */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** bin dir of the local PostgreSQL client binaries (psql, pgbench), if any */
  readonly pgBinDir: string | null;
  close(): Promise<void>;
}

export function targetName(): TargetName {
  return process.env.PG_COMPAT === '1' ? 'pg' : 'lakegate';
}

export async function startTarget(name: TargetName = targetName()): Promise<TestTarget> {
  if (name === 'pg') {
    const pg = await sharedPgCluster();
    // the shared cluster outlives each test file: stopped by the process hooks or globalSetup
    return { name, url: pg.url, host: pg.host, port: pg.port, pgBinDir: pg.binDir, close: async () => {} };
  }
  const lg = await startLakegate();
  const { findPgBinDir } = await import('./pg-cluster.ts');
  return { name, url: lg.url, host: lg.host, port: lg.port, pgBinDir: findPgBinDir(), close: () => lg.close() };
}
