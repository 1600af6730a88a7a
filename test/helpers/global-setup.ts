/**
 * vitest globalSetup: one throwaway PostgreSQL for the whole run when a run needs it (PG_COMPAT=1 or
 * LAKEGATE_TEST_PG=1), shared with every worker through LAKEGATE_SHARED_PG_URL. Runs that only target
 * lakegate start nothing here.
 */
import { startPgCluster, type PgCluster } from './pg-cluster.ts';

let cluster: PgCluster | null = null;

export async function setup(): Promise<void> {
  const wanted = process.env.PG_COMPAT === '1' || process.env.LAKEGATE_TEST_PG === '1';
  if (!wanted || process.env.PG_TEST_URL) return;
  cluster = await startPgCluster();
  process.env.LAKEGATE_SHARED_PG_URL = cluster.url;
}

export async function teardown(): Promise<void> {
  await cluster?.stop();
  cluster = null;
}
