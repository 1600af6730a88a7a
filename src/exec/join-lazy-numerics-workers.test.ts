/**
 * test/sql/join/numeric-through-joins.slt (answers from PostgreSQL 15) run with a worker pool, so its decimals cross
 * from the scan workers as self-materializing columns (pgtypes/numeric-column.ts selfMaterializingNumerics) and go
 * through every join type, outer joins' NULL rows, CASE, projections, sums and the wire as they are — every reader
 * that reads a row must still see PostgreSQL's value.
 */
import { describe, expect, it } from 'vitest';
import { useWorkerPoolSlt } from '../../test/helpers/worker-pool-slt.ts';

const SLT = 'test/sql/join/numeric-through-joins.slt';

describe('decimals from the scan workers through joins', () => {
  const slt = useWorkerPoolSlt(SLT);

  it(`${SLT} passes with a worker pool`, async () => {
    expect(await slt.run()).toBeGreaterThan(10);
  }, 180_000);
});
