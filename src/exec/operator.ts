/** ExecOperator: the uniform interface of physical operators (pull-based streams of batches). */
import type { Batch } from '../common/batch.ts';
import type { Filter } from '../sql/index.ts';

export interface ExecOperator {
  readonly name: string;
  readonly children: readonly ExecOperator[];
  execute(): AsyncIterable<Batch>;
  /**
   * Optional fast path for small plans (VALUES, a point lookup on cached data, and the projections, filters and
   * limits above them): every batch of one execution, computed without waiting — no async generator and no
   * promise per batch. Answers undefined when it cannot (an input that must wait, a subquery, a volatile
   * function, EXPLAIN ANALYZE), deciding that before any side effect; the caller then runs execute().
   */
  executeSync?(): Batch[] | undefined;
  /**
   * Optional: a Filter right above offers itself (its predicate reads this operator's output columns) before it
   * pulls. An operator that can tell some rows fail the predicate before making them may leave those out (a hash
   * aggregate's HAVING judged on its typed group states); the Filter still applies it to whatever comes up.
   */
  offerFilter?(filter: Filter): void;
}
