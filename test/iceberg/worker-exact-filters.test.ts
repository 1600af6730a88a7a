/**
 * WHERE conjuncts skipped in the scan workers for batches the scan judged exactly (src/exec/partial/
 * pushed-conjuncts.ts): test/sql/aggregate/worker_exact_filters.slt (answers PostgreSQL confirms) run with a
 * worker pool, so its aggregates really run as worker fragments over late materialization's marked batches.
 */
import { describe, expect, it } from 'vitest';
import { useWorkerPoolSlt } from '../helpers/worker-pool-slt.ts';

const SLT = 'test/sql/aggregate/worker_exact_filters.slt';

describe('WHERE conjuncts the scan judged exactly, skipped in the workers', () => {
  const slt = useWorkerPoolSlt(SLT);

  it(`${SLT} passes with a worker pool`, async () => {
    expect(await slt.run()).toBeGreaterThan(30);
  }, 180_000);
});
