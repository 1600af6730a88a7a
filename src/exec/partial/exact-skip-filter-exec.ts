/**
 * A scan worker's Filter over the scan's rows that leaves out, for batches the scan marked exact
 * (iceberg/parallel/exact-rows.ts), the conjuncts the scan already decided (pushed-conjuncts.ts): those batches
 * run only the rest of the predicate (or pass through when nothing is left), every other batch the whole
 * predicate. Both are the executor's own FilterExec, fed one batch at a time, so evaluation, vectorization and
 * errors are exactly FilterExec's. Rows kept from an exact batch stay marked (a subset of exact rows is exact).
 */
import type { Batch } from '../../common/batch.ts';
import type { Expr, Filter } from '../../sql/index.ts';
import { isExact, markExact } from '../../iceberg/parallel/exact-rows.ts';
import type { Env } from '../context.ts';
import type { ExecOperator } from '../operator.ts';
import { FilterExec } from '../operators/filter-exec.ts';

/**
 * The Filter plan node a worker's FilterExec runs: its input is the task's batches, never a TableScan, so
 * FilterExec's own skipping of scan-judged conjuncts (operators/scan-judged-filter.ts, which looks at the
 * plan's input) stays off — in a worker the marks are this file's to honour.
 */
export function workerFilterPlan(predicate: Expr): Filter {
  return { kind: 'Filter', predicate, input: WORKER_BATCHES } as unknown as Filter;
}

const WORKER_BATCHES = { kind: 'WorkerBatches' } as const;

export class ExactSkipFilterExec implements ExecOperator {
  readonly name = 'ExactSkipFilterExec';
  private current: Batch | null = null;
  private readonly full: FilterExec;
  private readonly rest: FilterExec | null;

  /** `predicate` for unmarked batches, `rest` (null: none) for marked ones */
  constructor(predicate: Expr, rest: Expr | null, private readonly input: ExecOperator, env: Env) {
    const one: ExecOperator = { name: 'CurrentBatch', children: [], execute: () => this.currentBatch() };
    const filter = (p: Expr): FilterExec => new FilterExec(workerFilterPlan(p), one, env);
    this.full = filter(predicate);
    this.rest = rest === null ? null : filter(rest);
  }

  get children(): readonly ExecOperator[] { return [this.input]; }

  private async *currentBatch(): AsyncIterable<Batch> {
    const b = this.current;
    this.current = null;
    if (b !== null) yield b;
  }

  async *execute(): AsyncIterable<Batch> {
    for await (const b of this.input.execute()) {
      const exact = isExact(b);
      if (exact && this.rest === null) {
        yield b;
        continue;
      }
      this.current = b;
      for await (const out of (exact ? this.rest! : this.full).execute()) yield exact ? markExact(out) : out;
    }
  }
}
