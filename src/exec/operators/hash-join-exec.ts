/**
 * HashJoinExec: equi-joins. Builds a hash table on the right input (pipeline breaker), streams the left,
 * then checks the residual condition. NULL keys never match. Inner/left/right/full/semi/anti.
 */
import type { Batch } from '../../common/batch.ts';
import type { Expr, Join } from '../../sql/index.ts';
import { checkAbort, queryMemory, type Env } from '../context.ts';
import { compileAll, compileExpr } from '../expr/compile-expr.ts';
import { concatBatches, joinBlock, unmatchedRight } from '../join-core.ts';
import { joinKeyReader } from '../batch-util.ts';
import type { ExecOperator } from '../operator.ts';
import { explainKb, noteMemoryDetail } from '../memory/memory-explain.ts';
import type { MemoryReservation } from '../memory/memory-reservation.ts';
import { estimateBatchBytes, MAP_ENTRY_BYTES } from '../memory/size-estimate.ts';

export interface EquiKeys {
  /** over the left row */
  readonly left: readonly Expr[];
  /** over the right row (indexes rebased to the right input) */
  readonly right: readonly Expr[];
  /** what is left of the condition, over the combined row */
  readonly residual: Expr | null;
}

export class HashJoinExec implements ExecOperator {
  readonly name = 'HashJoinExec';
  constructor(
    private readonly plan: Join,
    private readonly keys: EquiKeys,
    private readonly left: ExecOperator,
    private readonly right: ExecOperator,
    private readonly env: Env,
  ) {}
  get children(): readonly ExecOperator[] { return [this.left, this.right]; }

  async *execute(): AsyncIterable<Batch> {
    // the build side and its hash table are held in the query's memory budget (53200 past it)
    const mem = queryMemory(this.env).reserve('Hash Join');
    try {
      yield* this.#run(mem);
    } finally {
      noteMemoryDetail(this.env, this.plan, `Memory Usage: ${explainKb(mem.peak)}`);
      mem.release();
    }
  }

  async *#run(mem: MemoryReservation): AsyncIterable<Batch> {
    const lw = this.plan.left.columns.length;
    const rw = this.plan.right.columns.length;
    const jt = this.plan.joinType;
    const oids = this.keys.left.map((e) => e.type.oid);
    const rk = compileAll(this.keys.right, this.env);
    const rbs: Batch[] = [];
    for await (const b of this.right.execute()) {
      checkAbort(this.env);
      mem.grow(estimateBatchBytes(b));
      rbs.push(b);
    }
    const rb = concatBatches(rbs, rw);
    await rk.prepare(rb);
    // chained hash table: head[key] = first right row, next[j] = the following row with the same key
    // (built backwards, so candidates come in ascending row order)
    const head = new Map<unknown, number>();
    const next = new Int32Array(rb.length).fill(-1);
    const rightKey = joinKeyReader(rk.fns, oids);
    for (let j = rb.length - 1; j >= 0; j--) {
      const k = rightKey(rb.columns, j);
      if (k === undefined) continue;
      const h = head.get(k);
      if (h !== undefined) next[j] = h;
      head.set(k, j);
    }
    // the chain array, and one Map entry per distinct key (keys of several columns are strings)
    mem.grow(rb.length * 4 + head.size * (MAP_ENTRY_BYTES + (oids.length > 1 ? 16 + 8 * oids.length : 0)));
    const lk = compileAll(this.keys.left, this.env);
    const leftKey = joinKeyReader(lk.fns, oids);
    const cond = this.keys.residual === null ? null : compileExpr(this.keys.residual, this.env);
    const matched = jt === 'right' || jt === 'full' ? new Uint8Array(rb.length) : null;
    for await (const lb of this.left.execute()) {
      checkAbort(this.env);
      await lk.prepare(lb);
      const cands = {
        first: (i: number): number => {
          const k = leftKey(lb.columns, i);
          return k === undefined ? -1 : head.get(k) ?? -1;
        },
        next,
      };
      for (const b of await joinBlock(jt, lb, rb, lw, rw, cands, cond, matched)) yield b;
    }
    if (matched) { const u = unmatchedRight(rb, matched, lw, rw); if (u) yield u; }
  }
}
