/**
 * Execution context: what operators need at run time. ExecContext comes from the engine (session, params,
 * scan context); Env adds the per-(sub)plan state: the rows of enclosing query levels for correlated
 * references, and the working tables of recursive CTEs.
 */
import type { ScanContext } from '../catalog/table-source.ts';
import type { EvalContext } from '../functions/registry-types.ts';
import { queryCanceled } from '../common/errors.ts';
import type { Batch } from '../common/batch.ts';
import type { LogicalPlan } from '../sql/index.ts';
import type { Instrumentation } from './instrumentation.ts';
import { MemoryPool } from './memory/memory-pool.ts';
import { QUERY_MEMORY_LIMIT_SETTING, queryMemoryLimitBytes } from './memory/query-memory-limit.ts';

export interface ExecContext extends EvalContext {
  /** `$n` values (index n-1), already decoded to the parameter types the binder reported */
  readonly params: readonly unknown[];
  readonly scan: ScanContext;
  /** the query's memory budget; absent = made on first use from lakegate.query_memory_limit (queryMemory) */
  readonly memory?: MemoryPool;
}

export type Row = readonly unknown[];

export interface Env {
  readonly ctx: ExecContext;
  /** outer[0] is the current row of the nearest enclosing level (levelsUp = 1) */
  readonly outer: readonly Row[];
  /** RecursiveCte id → current working table rows */
  readonly workTables: Map<number, Row[]>;
  /** runs a (sub)plan: set by the planner so expressions can execute subqueries without an import cycle */
  readonly run: (plan: LogicalPlan, env: Env) => AsyncIterable<Batch>;
  /** EXPLAIN ANALYZE: counts rows, batches and time per plan node */
  readonly instrument?: Instrumentation;
}

export const BATCH_SIZE = 4096;

export function checkAbort(env: Env): void {
  if (env.ctx.signal.aborted) throw queryCanceled();
}

export function withOuter(env: Env, row: Row): Env {
  return { ...env, outer: [row, ...env.outer] };
}

const POOLS = new WeakMap<ExecContext, MemoryPool>();

/** the query's MemoryPool: ctx.memory, else one per ExecContext (one per statement) from the session's setting */
export function queryMemory(env: Env): MemoryPool {
  const ctx = env.ctx;
  if (ctx.memory !== undefined) return ctx.memory;
  let pool = POOLS.get(ctx);
  if (pool === undefined) {
    pool = new MemoryPool(queryMemoryLimitBytes(ctx.session.getSetting(QUERY_MEMORY_LIMIT_SETTING, true)));
    POOLS.set(ctx, pool);
  }
  return pool;
}
