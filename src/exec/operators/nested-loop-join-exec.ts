/**
 * NestedLoopJoinExec: any join condition. The right side is materialized once (pipeline breaker), or,
 * for LATERAL, re-executed for each left row with that row as the outer level.
 */
import type { Batch } from '../../common/batch.ts';
import type { Join, LogicalPlan } from '../../sql/index.ts';
import { checkAbort, queryMemory, withOuter, type Env } from '../context.ts';
import { concatBatches, joinBlock, unmatchedRight } from '../join-core.ts';
import { JoinResidual } from '../join-residual.ts';
import { rowAt } from '../batch-util.ts';
import type { ExecOperator } from '../operator.ts';
import type { MemoryReservation } from '../memory/memory-reservation.ts';
import { estimateBatchBytes } from '../memory/size-estimate.ts';

export class NestedLoopJoinExec implements ExecOperator {
  readonly name = 'NestedLoopJoinExec';
  constructor(
    private readonly plan: Join,
    private readonly left: ExecOperator,
    private readonly right: ExecOperator | null,
    private readonly env: Env,
  ) {}
  get children(): readonly ExecOperator[] { return this.right ? [this.left, this.right] : [this.left]; }

  async *execute(): AsyncIterable<Batch> {
    // the materialized right side is held in the query's memory budget (53200 past it)
    const mem = queryMemory(this.env).reserve('Nested Loop');
    try {
      yield* this.#run(mem);
    } finally {
      mem.release();
    }
  }

  async *#run(mem: MemoryReservation): AsyncIterable<Batch> {
    const lw = this.plan.left.columns.length;
    const rw = this.plan.right.columns.length;
    const jt = this.plan.joinType;
    const cond = JoinResidual.of(this.plan.condition, this.env);
    if (this.plan.lateral) {
      for await (const lb of this.left.execute()) {
        for (let i = 0; i < lb.length; i++) {
          checkAbort(this.env);
          const row = rowAt(lb, i);
          const renv = withOuter(this.env, row);
          const rbs: Batch[] = [];
          mem.release();
          for await (const b of renv.run(this.plan.right as LogicalPlan, renv)) { mem.grow(estimateBatchBytes(b)); rbs.push(b); }
          const rb = concatBatches(rbs, rw);
          const single: Batch = { columns: row.map((v) => [v]), length: 1 };
          const all = Array.from({ length: rb.length }, (_, j) => j);
          for (const b of await joinBlock(jt, single, rb, lw, rw, () => all, cond, null)) yield b;
        }
      }
      return;
    }
    const rbs: Batch[] = [];
    for await (const b of this.right!.execute()) {
      checkAbort(this.env);
      mem.grow(estimateBatchBytes(b));
      rbs.push(b);
    }
    const rb = concatBatches(rbs, rw);
    const all = Array.from({ length: rb.length }, (_, j) => j);
    const matched = jt === 'right' || jt === 'full' ? new Uint8Array(rb.length) : null;
    for await (const lb of this.left.execute()) {
      checkAbort(this.env);
      for (const b of await joinBlock(jt, lb, rb, lw, rw, () => all, cond, matched)) yield b;
    }
    if (matched) { const u = unmatchedRight(rb, matched, lw, rw); if (u) yield u; }
  }
}
