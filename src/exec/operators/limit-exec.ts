/** LimitExec: OFFSET then LIMIT; stops pulling its input as soon as the limit is reached. */
import type { Batch } from '../../common/batch.ts';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { Limit } from '../../sql/index.ts';
import type { Env } from '../context.ts';
import { compileExpr } from '../expr/compile-expr.ts';
import { ONE_ROW } from '../batch-util.ts';
import type { ExecOperator } from '../operator.ts';

export class LimitExec implements ExecOperator {
  readonly name = 'LimitExec';
  constructor(private readonly plan: Limit, private readonly input: ExecOperator, private readonly env: Env) {}
  get children(): readonly ExecOperator[] { return [this.input]; }

  async #value(e: Limit['limit']): Promise<number | null> {
    if (e === null) return null;
    const c = compileExpr(e, this.env);
    if (c.prepare) await c.prepare(ONE_ROW);
    const v = c.fn([], 0);
    return v === null ? null : Number(v as bigint);
  }

  async *execute(): AsyncIterable<Batch> {
    const limit = await this.#value(this.plan.limit);
    let skip = (await this.#value(this.plan.offset)) ?? 0;
    if (limit !== null && limit < 0) throw pgError(SqlState.invalid_row_count_in_limit_clause, 'LIMIT must not be negative');
    if (skip < 0) throw pgError(SqlState.invalid_row_count_in_result_offset_clause, 'OFFSET must not be negative');
    let left = limit ?? Infinity;
    if (left === 0) return;
    for await (const b of this.input.execute()) {
      let start = 0;
      if (skip > 0) {
        start = Math.min(skip, b.length);
        skip -= start;
      }
      const n = Math.min(b.length - start, left);
      if (n <= 0) continue;
      left -= n;
      yield start === 0 && n === b.length ? b : { columns: b.columns.map((c) => c.slice(start, start + n)), length: n };
      if (left <= 0) return;
    }
  }
}
