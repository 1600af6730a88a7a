/**
 * WHERE conjuncts skipped in the scan workers for batches the scan judged exactly (src/exec/partial/
 * pushed-conjuncts.ts): test/sql/aggregate/worker_exact_filters.slt (answers PostgreSQL confirms) run with a
 * worker pool, so its aggregates really run as worker fragments over late materialization's marked batches.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireSharedScanPool, sharedScanPool } from '../../src/iceberg/parallel/scan-pool.ts';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { repoRoot } from '../slt/slt-files.ts';
import { parseSlt } from '../slt/slt-parser.ts';
import { runSltFile } from '../slt/slt-runner.ts';

const SLT = 'test/sql/aggregate/worker_exact_filters.slt';

describe('WHERE conjuncts the scan judged exactly, skipped in the workers', () => {
  let server: LakegateServer;
  let release: () => Promise<void>;
  const file = parseSlt(readFileSync(join(repoRoot, SLT), 'utf8'), SLT);

  beforeAll(async () => {
    // the test server runs without workers (helpers): this process's pool is ours, minRows 0 for small tables
    release = acquireSharedScanPool({ size: 2, minRows: 0 });
    server = await startLakegate();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await release?.();
  });

  it(`${SLT} passes with a worker pool`, async () => {
    const result = await runSltFile(file, { url: server.url, target: 'lakegate' });
    expect(result.failures).toEqual([]);
    expect(result.executed).toBeGreaterThan(30);
    expect(sharedScanPool()!.started).toBe(true);
  }, 180_000);
});
