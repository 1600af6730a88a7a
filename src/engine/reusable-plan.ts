/**
 * ReusablePlan: the operator tree of one cached bound plan, kept by its session and run again by each
 * execution with that execution's parameters, signal and timestamps — so ProjectionExec and FilterExec
 * compile their expressions once per session and plan instead of once per statement (closure building was
 * most of a `SELECT 1`'s engine time), and the optimizer is not consulted per statement either.
 *
 * How: the tree is built over one ExecContext object owned by this plan; compiled expressions read their
 * parameters and timestamps through it at evaluation time, and run() overwrites its fields before each
 * execution. Only plans of operators that keep no state between executions qualify (reusable()): scans,
 * filters, projections, VALUES and LIMIT, with expressions that hold no subquery (a subquery runner caches
 * its result), no aggregate or window function. One execution at a time: while a run is open (a suspended
 * portal), run() answers null and the caller executes the plan afresh.
 */
import type { Batch } from '../common/batch.ts';
import type { LogicalPlan } from '../sql/index.ts';
import { createOperator, optimizedFor, type ExecContext, type ExecOperator } from '../exec/index.ts';
import type { Env } from '../exec/context.ts';

/** an ExecContext whose per-execution fields run() sets */
type MutableContext = { -readonly [K in keyof ExecContext]: ExecContext[K] };

/** the ExecContext fields take() copies: a field added to ExecContext fails to compile here until take() copies it */
type CopiedField = 'session' | 'catalog' | 'transactionTimestamp' | 'statementTimestamp' | 'signal' | 'params' | 'scan' | 'memory';
const everyFieldCopied: [Exclude<keyof ExecContext, CopiedField>] extends [never] ? true : never = true;
void everyFieldCopied;

const PLAN_KINDS: ReadonlySet<string> = new Set(['Projection', 'Filter', 'TableScan', 'Values', 'Limit']);
/** expression kinds whose compiled closures keep nothing between evaluations (no Subquery, Aggregate, WindowFunc, SetCall) */
const EXPR_KINDS: ReadonlySet<string> = new Set([
  'ColumnRef', 'Literal', 'Param', 'Call', 'Op', 'Cast', 'Case', 'Coalesce', 'MinMax', 'NullIf', 'BoolOp', 'NullTest',
  'BooleanTest', 'DistinctFrom', 'ScalarArrayOp', 'Array', 'Subscript', 'Row', 'FieldSelect',
]);

function reusableExpr(e: unknown, depth: number): boolean {
  if (depth > 100) return false;
  if (Array.isArray(e)) return e.every((x) => reusableExpr(x, depth + 1));
  if (e === null || typeof e !== 'object') return true;
  const o = e as Record<string, unknown>;
  if (typeof o.kind === 'string' && !EXPR_KINDS.has(o.kind)) return false;
  for (const key in o) {
    if (key === 'def' || key === 'fn' || key === 'type') continue; // implementations and types, not expressions
    const v = o[key];
    if (v !== null && typeof v === 'object' && !reusableExpr(v, depth + 1)) return false;
  }
  return true;
}

/** may this optimized plan's operator tree run more than once? */
export function reusable(plan: LogicalPlan): boolean {
  if (!PLAN_KINDS.has(plan.kind)) return false;
  switch (plan.kind) {
    case 'TableScan': return true; // pushed filters and limits are resolved per execution (TableScanExec)
    case 'Values': return reusableExpr(plan.rows, 0);
    case 'Projection': return reusableExpr(plan.exprs, 0) && reusable(plan.input);
    case 'Filter': return reusableExpr(plan.predicate, 0) && reusable(plan.input);
    case 'Limit': return plan.withTies === undefined && reusableExpr([plan.limit, plan.offset], 0) && reusable(plan.input);
    default: return false;
  }
}

export class ReusablePlan {
  private running = false;

  private constructor(
    private readonly ctx: MutableContext,
    private readonly root: ExecOperator,
    /** the session settings version the plan was optimized under (settings steer the optimizer) */
    readonly settingsVersion: number,
  ) {}

  /** the operator tree of `plan` optimized as executePlan would, or null when it may not be reused */
  static build(plan: LogicalPlan, ctx: ExecContext, settingsVersion: number): ReusablePlan | null {
    // through the planner's memo: a plan that is not reusable then runs without a second optimization
    const optimized = optimizedFor(plan, ctx);
    if (!reusable(optimized)) return null;
    const own: MutableContext = { ...ctx };
    const env: Env = { ctx: own, outer: [], workTables: new Map(), run: (p, e) => createOperator(p, e).execute() };
    return new ReusablePlan(own, createOperator(optimized, env), settingsVersion);
  }

  /** runs the tree with `ctx`'s parameters, signal and timestamps; null while a previous run is still open */
  run(ctx: ExecContext): AsyncIterable<Batch> | null {
    if (this.running) return null;
    this.running = true;
    this.take(ctx);
    return this.stream();
  }

  /**
   * The whole result at once when the tree can produce it without waiting (exec/operator.ts executeSync: VALUES,
   * a point lookup on cached data, projections / filters / limits over them); undefined when it cannot, or while
   * a previous run is still open — the caller then uses run().
   */
  runNow(ctx: ExecContext): Batch[] | undefined {
    if (this.running || this.root.executeSync === undefined) return undefined;
    this.take(ctx);
    return this.root.executeSync();
  }

  /** the execution's fields into the tree's context: one store each (Object.assign walks the keys per call) */
  private take(ctx: ExecContext): void {
    const own = this.ctx;
    own.session = ctx.session;
    own.catalog = ctx.catalog;
    own.transactionTimestamp = ctx.transactionTimestamp;
    own.statementTimestamp = ctx.statementTimestamp;
    own.signal = ctx.signal;
    own.params = ctx.params;
    own.scan = ctx.scan;
    // as Object.assign: an absent memory pool leaves the one before
    if (ctx.memory !== undefined) own.memory = ctx.memory;
  }

  private async *stream(): AsyncIterable<Batch> {
    try {
      yield* this.root.execute();
    } finally {
      this.running = false;
    }
  }
}
