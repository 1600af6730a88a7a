/**
 * LimitExec: OFFSET then LIMIT; stops pulling its input as soon as the limit is reached. FETCH FIRST n ROWS
 * WITH TIES keeps going after the n-th row while the ORDER BY keys equal that row's (NULLs equal, as
 * nodeLimit's LIMIT_WINDOWEND_TIES compares not-distinct).
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/executor/nodeLimit.c
 */
import type { Batch } from '../../common/batch.ts';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { Limit } from '../../sql/index.ts';
import type { Env } from '../context.ts';
import { compileAll, compileExpr } from '../expr/compile-expr.ts';
import { compareKeys, type KeySpec } from '../expr/sort-compare.ts';
import { ONE_ROW } from '../batch-util.ts';
import type { ExecOperator } from '../operator.ts';
import { syncExprs } from './sync-exprs.ts';

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
    const ties = this.plan.withTies;
    const limit = await this.#value(this.plan.limit);
    const skip = (await this.#value(this.plan.offset)) ?? 0;
    if (ties !== undefined && this.plan.limit !== null && limit === null) {
      throw pgError(SqlState.invalid_row_count_in_limit_clause, 'row count cannot be null in FETCH FIRST ... WITH TIES clause');
    }
    checkCounts(limit, skip);
    const left = limit ?? Infinity;
    if (left === 0) return;
    if (ties !== undefined && limit !== null) {
      yield* this.#withTies(ties, limit, skip);
      return;
    }
    const window = new RowWindow(skip, left);
    for await (const b of this.input.execute()) {
      const kept = window.take(b);
      if (kept !== null) yield kept;
      if (window.full) return;
    }
  }

  /** the small-plan fast path (operator.ts): LIMIT / OFFSET that never wait over an input at hand (not WITH TIES) */
  executeSync(): Batch[] | undefined {
    const { limit: l, offset: o } = this.plan;
    if (this.plan.withTies !== undefined || (l !== null && !syncExprs(l)) || (o !== null && !syncExprs(o))) return undefined;
    const limit = this.#valueNow(l);
    const skip = this.#valueNow(o) ?? 0;
    checkCounts(limit, skip);
    const left = limit ?? Infinity;
    if (left === 0) return [];
    const input = this.input.executeSync?.();
    if (input === undefined) return undefined;
    const out: Batch[] = [];
    const window = new RowWindow(skip, left);
    for (const b of input) {
      const kept = window.take(b);
      if (kept !== null) out.push(kept);
      if (window.full) break;
    }
    return out;
  }

  /** #value of an expression that never waits (syncExprs: no subquery, so no prepare step) */
  #valueNow(e: Limit['limit']): number | null {
    if (e === null) return null;
    const v = compileExpr(e, this.env).fn([], 0);
    return v === null ? null : Number(v as bigint);
  }

  async *#withTies(ties: NonNullable<Limit['withTies']>, limit: number, offset: number): AsyncIterable<Batch> {
    const keys = compileAll(ties.map((k) => k.expr), this.env);
    const specs: KeySpec[] = ties.map((k) => ({ oid: k.expr.type.oid, descending: k.descending, nullsFirst: k.nullsFirst }));
    let skip = offset;
    let left = limit;
    let last: unknown[] | null = null; // the n-th row's keys, once it has been emitted
    for await (const b of this.input.execute()) {
      let start = 0;
      if (skip > 0) {
        start = Math.min(skip, b.length);
        skip -= start;
      }
      if (start >= b.length) continue;
      await keys.prepare(b);
      const keyAt = (i: number): unknown[] => keys.fns.map((fn) => fn(b.columns, i));
      let end = start;
      if (last === null) {
        const n = Math.min(b.length - start, left);
        left -= n;
        end = start + n;
        if (left === 0) last = keyAt(end - 1);
      }
      if (last !== null) {
        while (end < b.length && compareKeys(specs, keyAt(end), last) === 0) end++;
        if (end < b.length) {
          if (end > start) yield slice(b, start, end - start);
          return;
        }
      }
      if (end > start) yield slice(b, start, end - start);
    }
  }
}

function checkCounts(limit: number | null, skip: number): void {
  if (limit !== null && limit < 0) throw pgError(SqlState.invalid_row_count_in_limit_clause, 'LIMIT must not be negative');
  if (skip < 0) throw pgError(SqlState.invalid_row_count_in_result_offset_clause, 'OFFSET must not be negative');
}

function slice(b: Batch, start: number, n: number): Batch {
  return start === 0 && n === b.length ? b : { columns: b.columns.map((c) => c.slice(start, start + n)), length: n };
}

/** OFFSET then LIMIT over a stream of batches: the part of each batch that is kept */
class RowWindow {
  constructor(private skip: number, private left: number) {}

  get full(): boolean {
    return this.left <= 0;
  }

  take(b: Batch): Batch | null {
    let start = 0;
    if (this.skip > 0) {
      start = Math.min(this.skip, b.length);
      this.skip -= start;
    }
    const n = Math.min(b.length - start, this.left);
    if (n <= 0) return null;
    this.left -= n;
    return slice(b, start, n);
  }
}
