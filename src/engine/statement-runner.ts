/**
 * StatementRunner: runs one parsed statement of a session — the statement's lifecycle (failed-block check,
 * start, end, failure), utility statements through statements/route-utility.ts, and queries through
 * bind → plan → execute with the session's plan cache (keys: plan-keys.ts), literal-normalised shapes
 * (literal-params.ts) and reusable operator trees (reusable-plan.ts). A cached SELECT plan over a fresh
 * Iceberg mirror whose tree runs to its end at once answers without a promise (StatementResult.ready).
 */
import type { GatewayError } from '../common/errors.ts';
import { toGatewayError } from '../common/errors.ts';
import type { Batch } from '../common/batch.ts';
import type { StatementResult } from '../wire/handler.ts';
import { parseSql, type BoundQuery, type ParsedStatement } from '../sql/index.ts';
import { executePlan, type ExecContext } from '../exec/index.ts';
import { textIn } from '../common/pgtypes/text-io.ts';
import { nodeBody, nodeKind } from './ast.ts';
import { routeUtility } from './statements/route-utility.ts';
import { LruCache } from './lru-cache.ts';
import { isCatalogFree } from './catalog-free-plan.ts';
import { ReusablePlan } from './reusable-plan.ts';
import { PlanKeys } from './plan-keys.ts';
import { resultColumnsOf, toResultColumns } from './result-columns.ts';
import { rerunOnConflict } from './autocommit-retry.ts';
import type { EngineSession, EnginePrepared } from './engine-session.ts';

export class StatementRunner {
  /** bound plans by plan key (plan-keys.ts); bound plans are immutable, so statements share them */
  readonly plans = new LruCache<string, BoundQuery>(256);
  readonly keys: PlanKeys;
  /** operator trees of this session's SELECT plans, by bound plan and settings version (reusable-plan.ts) */
  private readonly reusablePlans = new WeakMap<BoundQuery, { readonly settingsVersion: number; readonly plan: ReusablePlan | null }>();

  constructor(private readonly session: EngineSession) {
    this.keys = new PlanKeys(session);
  }

  /**
   * Runs one parsed statement: without a promise when nothing must be awaited (a cached SELECT plan over a
   * fresh mirror whose operator tree runs to its end at once, reusable-plan.ts runNow); anything else answers
   * a promise. Errors end the statement and fail the transaction either way.
   */
  run(stmt: ParsedStatement, params: readonly unknown[], prepared: EnginePrepared | null): StatementResult | Promise<StatementResult> {
    const session = this.session;
    session.checkNotFailed(stmt.ast);
    session.beginStatement(stmt.text);
    // the Parse of this pipeline refreshed the Iceberg mirror already: one check per client round trip
    const fresh = session.takeMirrorFresh() && prepared !== null;
    try {
      const server = session.server;
      const gathering = server.peers === null ? undefined : server.beforeStatement(stmt.text);
      const result = gathering === undefined ? this.runStatement(stmt, params, prepared, fresh) : gathering.then(() => this.runStatement(stmt, params, prepared, fresh));
      return result instanceof Promise ? result.catch((e: unknown) => { throw this.statementFailed(e); }) : result;
    } catch (e) {
      throw this.statementFailed(e);
    }
  }

  /** a failed statement: it ends, the transaction block (if any) fails, the error is a GatewayError */
  private statementFailed(e: unknown): GatewayError {
    this.session.endStatement();
    this.session.failTransaction();
    return toGatewayError(e);
  }

  private runStatement(stmt: ParsedStatement, params: readonly unknown[], prepared: EnginePrepared | null, fresh: boolean): StatementResult | Promise<StatementResult> {
    const shape = shapeOf(stmt.ast);
    if (shape.runsAsQuery) return this.runQuery(stmt, shape.kind, params, prepared, fresh);
    return this.runUtility(stmt, params, fresh);
  }

  private async runUtility(stmt: ParsedStatement, params: readonly unknown[], fresh: boolean): Promise<StatementResult> {
    const session = this.session;
    if (!fresh) await session.iceberg?.refresh();
    const result = await routeUtility(session, stmt, params);
    if (result.kind !== 'rows') session.endStatement();
    else return { ...result, batches: session.guard(result.batches) };
    return result;
  }

  /** a promise only when the mirror must be refreshed first or a DML statement's count awaited */
  private runQuery(stmt: ParsedStatement, kind: string, params: readonly unknown[], prepared: EnginePrepared | null, fresh: boolean): StatementResult | Promise<StatementResult> {
    const session = this.session;
    // simple-protocol queries repeat verbatim (dashboards, pgbench): reuse the bound plan while the catalog
    // and search_path are unchanged; bound plans are immutable, so sharing them is safe
    const simple = prepared === null && params.length === 0;
    const key = simple ? this.keys.ofText(stmt) : '';
    const cached = simple ? this.plans.get(key) : prepared !== null && prepared.bound !== null && prepared.catalogVersion === session.planVersion ? prepared.bound : undefined;
    // the Iceberg mirror is brought up to date unless the plan at hand reads nothing of the catalog (SELECT 1);
    // after a refresh the plan is looked up again (the catalog version may have moved)
    if (!fresh && (cached === undefined || !isCatalogFree(cached))) {
      const refreshing = session.iceberg?.refreshIfStale(session.readMark);
      if (refreshing !== undefined) return refreshing.then(() => this.runQuery(stmt, kind, params, prepared, true));
    }
    let bound: BoundQuery;
    if (cached !== undefined) {
      bound = cached;
    } else if (simple) {
      const lifted = this.literalPlan(stmt);
      if (lifted !== null) {
        bound = lifted.bound;
        params = lifted.params;
      } else {
        // a shaped statement's tree holds another text's constants: the literal path reports from a real parse
        if (session.server.statementShapes.isShaped(stmt)) stmt = parseSql(stmt.text)[0]!;
        bound = session.bind(stmt.ast, []);
        this.plans.set(key, bound);
      }
    } else {
      bound = session.bind(stmt.ast, prepared?.paramTypes ?? params.map(() => 0));
      if (prepared !== null) {
        prepared.bound = bound;
        prepared.catalogVersion = session.planVersion;
      }
    }
    if (kind !== 'SelectStmt') session.noteDmlTarget(stmt.ast);
    const ctx = session.execContext(params);
    if (kind === 'SelectStmt') {
      const reusable = this.reusablePlan(bound, ctx);
      // a small plan (VALUES, a point lookup on cached data) runs to its end here, without a promise per batch
      const ready = reusable?.runNow(ctx);
      if (ready !== undefined) {
        session.endStatement();
        return { kind: 'rows', columns: resultColumnsOf(bound), batches: readyBatches(ready), ready, tag: selectTag };
      }
      const batches = session.guard(reusable?.run(ctx) ?? executePlan(bound.plan, ctx));
      return { kind: 'rows', columns: resultColumnsOf(bound), batches, tag: selectTag };
    }
    // outside a block, a row change that lost a race to a concurrent commit runs again, bound anew (autocommit-retry.ts)
    const batches = session.guard(rerunOnConflict(session, bound, ctx, { ast: stmt.ast, paramTypes: prepared?.paramTypes ?? params.map(() => 0), params }));
    // INSERT / UPDATE / DELETE: with RETURNING the rows stream out; else the plan yields the count
    const verb = kind === 'InsertStmt' ? 'INSERT 0' : kind === 'UpdateStmt' ? 'UPDATE' : kind === 'DeleteStmt' ? 'DELETE' : 'MERGE';
    if (Array.isArray(nodeBody(stmt.ast).returningList) && (nodeBody(stmt.ast).returningList as unknown[]).length > 0) {
      return { kind: 'rows', columns: toResultColumns(bound.columns), batches, tag: (n) => `${verb} ${n}` };
    }
    return countRows(batches).then((n) => ({ kind: 'command', tag: `${verb} ${n}` }));
  }

  /**
   * A SELECT whose constants differ from a statement already run (literal-params.ts): the plan bound for its
   * shape, and the constants as parameter values. Null when the shape does not apply or a constant does not
   * convert to its parameter's type (the literal path then reports the error exactly as before).
   */
  private literalPlan(stmt: ParsedStatement): { bound: BoundQuery; params: unknown[] } | null {
    if (kindOf(stmt.ast) !== 'SelectStmt') return null;
    const session = this.session;
    const norm = session.literalShape(stmt);
    if (norm === null) return null;
    const key = this.keys.ofShape(norm);
    let bound = this.plans.get(key);
    if (bound === undefined) {
      try {
        bound = session.bind(norm.ast, norm.literals.map((l) => l.oid));
      } catch {
        return null;
      }
      this.plans.set(key, bound);
    }
    const settings = session.outputSettings();
    try {
      const params = norm.literals.map((l, i) => textIn(bound.paramTypes[i]?.oid ?? 0, -1, l.text, settings));
      return { bound, params };
    } catch {
      return null;
    }
  }

  /**
   * A SELECT's operator tree kept per bound plan and run again (reusable-plan.ts): expressions compiled once
   * per session and plan. Null when the plan does not qualify (its run() answers null while an open portal
   * still runs the tree).
   */
  private reusablePlan(bound: BoundQuery, ctx: ExecContext): ReusablePlan | null {
    const version = this.session.settings.version;
    let kept = this.reusablePlans.get(bound);
    if (kept === undefined || kept.settingsVersion !== version) {
      kept = { settingsVersion: version, plan: ReusablePlan.build(bound.plan, ctx, version) };
      this.reusablePlans.set(bound, kept);
    }
    return kept.plan;
  }
}

/** the batches of a result computed at once (StatementResult.ready), as the stream `batches` */
class ReadyBatches implements AsyncIterable<Batch> {
  constructor(private readonly ready: readonly Batch[]) {}

  async *[Symbol.asyncIterator](): AsyncIterator<Batch> {
    yield* this.ready;
  }
}

function readyBatches(ready: readonly Batch[]): AsyncIterable<Batch> {
  return new ReadyBatches(ready);
}

/** the tags of small row counts, made once: a lookup's `SELECT 1` builds no string per statement */
const SELECT_TAGS: readonly string[] = Array.from({ length: 64 }, (_v, n) => `SELECT ${n}`);

/** a closure made per statement would cost an allocation (and tsx's keepNames a defineProperty) each time */
function selectTag(n: number): string {
  return n < SELECT_TAGS.length ? SELECT_TAGS[n]! : `SELECT ${n}`;
}

/** a DML plan without RETURNING yields one row holding the affected-row count */
async function countRows(batches: AsyncIterable<Batch>): Promise<number> {
  let count = 0;
  for await (const b of batches) {
    const v = b.columns[0]?.[0];
    count += typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : b.length;
  }
  return count;
}

const QUERY_KINDS = new Set(['SelectStmt', 'InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);

export function isQuery(ast: unknown): boolean {
  return shapeOf(ast).query;
}

export function hasInto(ast: unknown): boolean {
  return shapeOf(ast).into;
}

/** nodeKind of a statement's AST */
export function kindOf(ast: unknown): string {
  return shapeOf(ast).kind;
}

/** a statement's kind and SELECT … INTO, kept per AST object: Object.keys allocates, a prepared statement runs often */
interface StatementShape {
  readonly kind: string;
  readonly into: boolean;
  /** a query kind (QUERY_KINDS)… */
  readonly query: boolean;
  /** …that runs as one (not SELECT … INTO): runStatement's question, answered by one lookup */
  readonly runsAsQuery: boolean;
}
const SHAPES = new WeakMap<object, StatementShape>();
const NO_SHAPE: StatementShape = { kind: '', into: false, query: false, runsAsQuery: false };

function shapeOf(ast: unknown): StatementShape {
  if (typeof ast !== 'object' || ast === null) return NO_SHAPE;
  let shape = SHAPES.get(ast);
  if (shape === undefined) {
    const kind = nodeKind(ast);
    const into = kind === 'SelectStmt' && nodeBody(ast).intoClause !== undefined;
    const query = QUERY_KINDS.has(kind);
    SHAPES.set(ast, (shape = { kind, into, query, runsAsQuery: query && !into }));
  }
  return shape;
}
