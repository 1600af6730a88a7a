/**
 * Physical planner: LogicalPlan → tree of ExecOperators (one factory per plan kind, exhaustive).
 * executePlan first runs the optimizer (optimizer/optimizer.ts: constant folding, WHERE below FROM-subquery
 * projections, inner-join reordering, filter / limit / projection pushdown into scans).
 * Choices made here: hash join when the condition has equi keys (else nested loop; LATERAL always nested
 * loop) — it builds the right input unless choose_build_side marked the Join `buildSide: 'left'` — and a Sort
 * under a constant LIMIT stops after limit+offset rows.
 */
import type { Batch } from '../common/batch.ts';
import type { LogicalPlan, PlanKind } from '../sql/index.ts';
import type { Env, ExecContext } from './context.ts';
import type { ExecOperator } from './operator.ts';
import { extractEquiKeys } from './equi-keys.ts';
import type { Instrumentation } from './instrumentation.ts';
import { optimizePlan } from './optimizer/optimizer.ts';
import { collectingPins, pinKey, type ParamPin } from './optimizer/param-identity.ts';
import { TableScanExec } from './operators/table-scan-exec.ts';
import { ValuesExec } from './operators/values-exec.ts';
import { FilterExec } from './operators/filter-exec.ts';
import { ProjectionExec } from './operators/projection-exec.ts';
import { ProjectSetExec } from './operators/project-set-exec.ts';
import { HashAggregateExec } from './operators/hash-aggregate-exec.ts';
import { PartialAggregateExec } from './partial/partial-aggregate-exec.ts';
import { HashJoinExec } from './operators/hash-join-exec.ts';
import { NestedLoopJoinExec } from './operators/nested-loop-join-exec.ts';
import { SortExec } from './operators/sort-exec.ts';
import { LimitExec } from './operators/limit-exec.ts';
import { SetOpExec } from './operators/set-op-exec.ts';
import { DistinctExec } from './operators/distinct-exec.ts';
import { WindowExec } from './operators/window-exec.ts';
import { RecursiveCteExec, WorkTableScanExec } from './operators/recursive-cte-exec.ts';
import { FunctionScanExec } from './operators/function-scan-exec.ts';
import { InsertExec } from './operators/insert-exec.ts';
import { OverwriteExec } from './operators/overwrite-exec.ts';
import { ModifyRowsExec } from './operators/modify-rows-exec.ts';
import { SharedSubplanExec } from './operators/shared-subplan-exec.ts';
import { sharedSubplanKey } from './optimizer/share-repeated-subplans.ts';

type Factory<K extends PlanKind> = (p: Extract<LogicalPlan, { kind: K }>, env: Env) => ExecOperator;

function constInt(e: LogicalPlan extends never ? never : import('../sql/index.ts').Expr | null): number | null {
  if (e === null) return 0;
  if (e.kind === 'Literal' && e.value !== null) return Number(e.value as bigint);
  if (e.kind === 'Cast' && e.arg.kind === 'Literal' && typeof e.arg.value === 'number') return e.arg.value;
  return null;
}

const FACTORIES = {
  TableScan: (p, env) => new TableScanExec(p, env),
  Values: (p, env) => new ValuesExec(p, env),
  Filter: (p, env) => new FilterExec(p, createOperator(p.input, env), env),
  Projection: (p, env) => new ProjectionExec(p, createOperator(p.input, env), env),
  ProjectSet: (p, env) => new ProjectSetExec(p, createOperator(p.input, env), env),
  Aggregate: (p, env) => (p.workerPartial ? new PartialAggregateExec(p, createOperator(p.input, env), env) : new HashAggregateExec(p, createOperator(p.input, env), env)),
  Join: (p, env) => {
    const left = createOperator(p.left, env);
    if (p.lateral) return new NestedLoopJoinExec(p, left, null, env);
    const keys = extractEquiKeys(p.condition, p.left.columns.length);
    const right = createOperator(p.right, env);
    return keys === null ? new NestedLoopJoinExec(p, left, right, env) : new HashJoinExec(p, keys, left, right, env);
  },
  Sort: (p, env) => new SortExec(p, createOperator(p.input, env), env),
  Limit: (p, env) => {
    const input = p.input;
    // top-N sort keeps exactly limit + offset rows: not for WITH TIES, which may need more
    if (input.kind === 'Sort' && p.limit !== null && p.withTies === undefined) {
      const l = constInt(p.limit);
      const o = constInt(p.offset);
      if (l !== null && o !== null) return new LimitExec(p, instrumented(input, new SortExec(input, createOperator(input.input, env), env, l + o), env), env);
    }
    return new LimitExec(p, createOperator(input, env), env);
  },
  SetOp: (p, env) => new SetOpExec(p, createOperator(p.left, env), createOperator(p.right, env), env),
  Distinct: (p, env) => new DistinctExec(p, createOperator(p.input, env), env),
  Window: (p, env) => new WindowExec(p, createOperator(p.input, env), env),
  RecursiveCte: (p, env) => new RecursiveCteExec(p, env),
  WorkTableScan: (p, env) => new WorkTableScanExec(p, env),
  FunctionScan: (p, env) => new FunctionScanExec(p, env),
  Insert: (p, env) => new InsertExec(p, createOperator(p.input, env), env),
  Overwrite: (p, env) => new OverwriteExec(p, createOperator(p.input, env), env),
  ModifyRows: (p, env) => new ModifyRowsExec(p, createOperator(p.input, env), env),
} satisfies { [K in PlanKind]: Factory<K> };

function instrumented(plan: LogicalPlan, op: ExecOperator, env: Env): ExecOperator {
  return env.instrument === undefined ? op : env.instrument.wrap(plan, op);
}

export function createOperator(plan: LogicalPlan, env: Env): ExecOperator {
  // a subtree share_repeated_subplans found more than once: one run serves every occurrence
  const shared = sharedSubplanKey(plan);
  if (shared !== undefined) return new SharedSubplanExec(shared, () => createOwnOperator(plan, env), env);
  return createOwnOperator(plan, env);
}

function createOwnOperator(plan: LogicalPlan, env: Env): ExecOperator {
  return instrumented(plan, (FACTORIES[plan.kind] as Factory<typeof plan.kind>)(plan as never, env), env);
}

function run(plan: LogicalPlan, env: Env): AsyncIterable<Batch> {
  return createOperator(plan, env).execute();
}

/** Runs a plan the optimizer already rewrote (EXPLAIN ANALYZE passes an Instrumentation). */
export function executeOptimized(plan: LogicalPlan, ctx: ExecContext, instrument?: Instrumentation): AsyncIterable<Batch> {
  const env: Env = { ctx, outer: [], workTables: new Map(), run, ...(instrument === undefined ? {} : { instrument }) };
  return run(plan, env);
}

/**
 * Optimizes and runs a bound plan. An Insert plan yields one batch with one int8 column (the row count)
 * unless it has RETURNING, in which case it yields the returned rows.
 */
export function executePlan(plan: LogicalPlan, ctx: ExecContext): AsyncIterable<Batch> {
  return executeOptimized(optimizedFor(plan, ctx), ctx);
}

/**
 * Bound plans are immutable and re-executed (prepared statements, the session plan caches), so the
 * optimized plan is kept per bound plan and per the settings the rules read: the switched-off rules, and the
 * settings constant folding of date/time literals depends on. `$n` values never enter the optimized plan
 * (scans resolve them per execution), so one optimization serves every execution — except for the `$n` a rule
 * compared with a constant or another `$n` (optimizer/param-identity.ts): those are pinned, and plans are kept
 * per their values too.
 */
interface OptimizedPlans {
  /** the `$n` any optimization of this bound plan compared: part of every key */
  pins: readonly ParamPin[];
  readonly byKey: Map<string, LogicalPlan>;
}
const OPTIMIZED = new WeakMap<LogicalPlan, OptimizedPlans>();
const FOLDING_SETTINGS = ['lakegate.disabled_optimizer_rules', 'TimeZone', 'DateStyle', 'IntervalStyle'];

export function optimizedFor(plan: LogicalPlan, ctx: ExecContext): LogicalPlan {
  const settingsKey = FOLDING_SETTINGS.map((name) => ctx.session.getSetting(name, true) ?? '').join('\u0000');
  let kept = OPTIMIZED.get(plan);
  if (kept === undefined) OPTIMIZED.set(plan, (kept = { pins: [], byKey: new Map() }));
  let optimized = kept.byKey.get(memoKey(settingsKey, ctx.params, kept.pins));
  if (optimized === undefined) {
    const { result, pins } = collectingPins(() => optimizePlan(plan, ctx).plan);
    optimized = result;
    const fresh = pins.filter((p) => !kept.pins.some((q) => q.index === p.index && q.oid === p.oid));
    // a `$n` no plan kept so far was made for: those plans were keyed without its value
    if (fresh.length > 0) {
      kept.pins = [...kept.pins, ...fresh];
      kept.byKey.clear();
    }
    if (kept.byKey.size >= 8) kept.byKey.clear();
    kept.byKey.set(memoKey(settingsKey, ctx.params, kept.pins), optimized);
  }
  return optimized;
}

function memoKey(settingsKey: string, params: readonly unknown[], pins: readonly ParamPin[]): string {
  return pins.length === 0 ? settingsKey : `${settingsKey}\u0000${pinKey(params, pins)}`;
}

