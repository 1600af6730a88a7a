/**
 * EngineSession: one client session of the engine — implements wire's HandlerSession. It parses each
 * statement, routes utility statements (SET, transactions, cursors, DDL, COPY, ...) to their handlers in
 * statements/, and sends queries through bind → plan → execute. It owns the session's settings,
 * transaction state, cursors, SQL-level prepared statements, temp schema and statement cancellation.
 */
import { GatewayError, pgError, queryCanceled, toGatewayError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { Batch } from '../common/batch.ts';
import type {
  HandlerSession,
  OutputSettings,
  PreparedStatement,
  ResultColumn,
  StartupInfo,
  StatementResult,
} from '../wire/handler.ts';
import type { ScanContext } from '../catalog/table-source.ts';
import { bindQuery, parseSql, type BoundColumn, type BoundQuery, type ParsedStatement } from '../sql/index.ts';
import { executePlan, type ExecContext } from '../exec/index.ts';
import { typeInfo } from '../common/pgtypes/index.ts';
import type { EngineServer } from './engine-server.ts';
import { SessionCatalog } from './session-catalog.ts';
import type { IcebergTransaction } from './iceberg-transaction.ts';
import { SessionSettings } from './session-settings.ts';
import { TransactionState } from './transaction.ts';
import { EngineSessionView } from './engine-session-view.ts';
import { nodeBody, nodeKind, rangeVarName } from './ast.ts';
import { lookupRelation } from './statements/ddl.ts';
import { MemoryTable } from './memory-table.ts';
import { routeUtility } from './statements/route-utility.ts';
import type { Cursor } from './statements/cursor-stmt.ts';
import { searchPathSchemas } from './search-path.ts';
import { renderRegText } from './render-reg-text.ts';
import { LruCache } from './lru-cache.ts';
import { normaliseLiterals, type LiteralNormalised } from './literal-params.ts';
import { textIn } from '../common/pgtypes/text-io.ts';
import { isCatalogFree } from './catalog-free-plan.ts';
import type { IcebergTables } from './iceberg-tables.ts';
import { ReusablePlan } from './reusable-plan.ts';

export interface EnginePrepared extends PreparedStatement {
  readonly parsed: ParsedStatement | null;
  bound: BoundQuery | null;
  catalogVersion: number;
  readonly givenParamTypes: readonly number[];
}

export interface SqlPrepared {
  readonly name: string;
  readonly statement: string;
  readonly prepared: EnginePrepared;
  readonly prepareTime: bigint;
}

export class EngineSession implements HandlerSession {
  readonly settings: SessionSettings;
  readonly tx = new TransactionState();
  readonly catalog: SessionCatalog;
  readonly view: EngineSessionView;
  readonly cursors = new Map<string, Cursor>();
  readonly sqlPrepared = new Map<string, SqlPrepared>();
  private readonly planCache = new LruCache<string, BoundQuery>(256);
  /** operator trees of this session's SELECT plans, by bound plan and settings version (reusable-plan.ts) */
  private readonly reusablePlans = new WeakMap<BoundQuery, { readonly settingsVersion: number; readonly plan: ReusablePlan | null }>();
  /** what statements read from the settings, derived once per settings version (SessionSettings.version) */
  private derived: { version: number; output: OutputSettings; searchPath: string; statementTimeout: number } | null = null;
  /**
   * set by a protocol-level Parse that brought the Iceberg mirror up to date; the Execute of the same pipeline
   * (before Sync) then does not check again. Only Parse sets it: a SQL PREPARE is a statement of its own.
   */
  private mirrorFreshUntilSync = false;
  /** Iceberg writes of the open transaction block (staged until COMMIT), when the database has a warehouse */
  icebergTx: IcebergTransaction | null = null;
  /** the staged Iceberg pointers at each open savepoint (index = savepoint depth - 1) */
  readonly icebergMarks: (ReturnType<IcebergTransaction['mark']> | null)[] = [];
  /** bumped when this session's view of relations changes without a catalog change (staged Iceberg writes) */
  private localPlanBumps = 0;

  /** the version bound plans are valid for: both terms only grow, so any change gives a larger number */
  get planVersion(): number {
    return this.server.catalogVersion + this.localPlanBumps;
  }

  invalidatePlans(): void {
    this.localPlanBumps++;
  }
  readonly backendStart = BigInt(Date.now()) * 1000n;
  onNotice?: (notice: GatewayError) => void;
  /** set by wire/: closes protocol-level prepared statements on DEALLOCATE (they share PostgreSQL's namespace) */
  onDeallocate?: (name: string | null) => boolean;
  /** set by wire/: closes the connection (pg_terminate_backend) */
  onTerminate?: () => void;

  currentQuery = '';
  queryStart: bigint | null = null;
  active = false;
  private abort: AbortController | null = null;
  private timer: NodeJS.Timeout | null = null;
  private statementStart = 0n;
  terminated = false;

  constructor(
    readonly server: EngineServer,
    readonly info: StartupInfo,
  ) {
    const params: Record<string, string> = { ...server.defaultSettings, session_authorization: info.user };
    for (const [k, v] of Object.entries(info.parameters)) {
      if (k !== 'user' && k !== 'database' && k !== 'options' && k !== 'replication') params[k] = v;
    }
    Object.assign(params, parseOptions(info.parameters.options ?? ''));
    this.settings = new SessionSettings(params);
    const db = server.database(info.database);
    this.catalog = new SessionCatalog(db, server.system, `pg_temp_${info.backendPid % 1000 || 3}`, () => server.databaseNames(), info.user);
    this.view = new EngineSessionView(this);
  }

  /** this database's Iceberg catalog, if the server has a warehouse */
  get iceberg(): IcebergTables | undefined {
    return this.server.iceberg.get(this.info.database);
  }

  // ---- HandlerSession ----

  initialParameterStatus(): ReadonlyArray<readonly [string, string]> {
    this.settings.takeChanges();
    return this.settings.reported();
  }

  takeParameterChanges(): ReadonlyArray<readonly [string, string]> {
    return this.settings.takeChanges();
  }

  transactionStatus(): 'I' | 'T' | 'E' {
    return this.tx.status;
  }

  outputSettings(): OutputSettings {
    return this.fromSettings().output;
  }

  /** the settings every statement reads, re-derived only after a setting changed */
  private fromSettings(): { version: number; output: OutputSettings; searchPath: string; statementTimeout: number } {
    const version = this.settings.version;
    if (this.derived !== null && this.derived.version === version) return this.derived;
    const output: OutputSettings = {
      dateStyle: this.settings.get('DateStyle') ?? 'ISO, MDY',
      intervalStyle: this.settings.get('IntervalStyle') ?? 'postgres',
      timeZone: this.settings.get('TimeZone') ?? 'UTC',
      extraFloatDigits: Number(this.settings.get('extra_float_digits') ?? '1'),
      byteaOutput: this.settings.get('bytea_output') === 'escape' ? 'escape' : 'hex',
    };
    const searchPath = this.settings.get('search_path') ?? '';
    const statementTimeout = Number(this.settings.get('statement_timeout') ?? '0');
    return (this.derived = { version, output, searchPath, statementTimeout });
  }

  /** plan cache key of a statement text: valid for this catalog version and search_path */
  private planKey(rest: string): string {
    return `${this.planVersion}\u0000${this.fromSettings().searchPath}\u0000${rest}`;
  }

  /** a simple Query's statements: ends an implicit transaction; a parse error fails an explicit one */
  private simpleStatements(sql: string): ParsedStatement[] {
    this.mirrorFreshUntilSync = false;
    this.tx.endImplicit();
    try {
      return this.parsed(sql, true);
    } catch (e) {
      this.failTransaction();
      throw e;
    }
  }

  async *simpleQuery(sql: string): AsyncIterable<StatementResult> {
    const statements = this.simpleStatements(sql);
    if (statements.length === 0) {
      yield { kind: 'empty' };
      return;
    }
    for (const stmt of statements) {
      yield await this.runParsed(stmt, [], null);
    }
  }

  /** simpleQuery() of a one-statement text without an async generator (HandlerSession.simpleQueryNow) */
  simpleQueryNow(sql: string): StatementResult | Promise<StatementResult> | null {
    const statements = this.simpleStatements(sql);
    // none or several: simpleQuery (the parse is cached by text)
    if (statements.length !== 1) return null;
    return this.runParsedNow(statements[0]!, [], null);
  }

  /**
   * parse trees by text, shared by the server's sessions (LruCache.get already marks the use). `shaped`
   * (simple protocol only): a SELECT differing from a learned one only in integer constants takes that
   * one's tree without a parse (statement-shapes.ts); other callers never get such a tree.
   */
  private parsed(sql: string, shaped = false): ParsedStatement[] {
    let statements = this.server.parseCache.get(sql);
    const shapes = this.server.statementShapes;
    if (statements !== undefined && (shaped || statements.length !== 1 || !shapes.isShaped(statements[0]!))) return statements;
    const hit = shaped ? shapes.lookup(sql) : undefined;
    if (hit !== undefined) {
      this.server.parseCache.set(sql, [hit.statement]);
      return [hit.statement];
    }
    statements = parseSql(sql);
    this.server.parseCache.set(sql, statements);
    const only = statements[0];
    if (shaped && statements.length === 1 && nodeKind(only!.ast) === 'SelectStmt' && !hasInto(only!.ast)) {
      shapes.learn(sql, only!, () => this.literalShape(only!));
    }
    return statements;
  }

  /** the literal-normalised shape of a SELECT (literal-params.ts), kept by statement text */
  private literalShape(stmt: ParsedStatement): LiteralNormalised | null {
    // a shaped statement's own constants (its AST holds the learned text's)
    let norm = this.server.statementShapes.normOf(stmt) ?? this.server.literalShapes.get(stmt.text);
    if (norm === undefined) {
      norm = normaliseLiterals(stmt.ast);
      this.server.literalShapes.set(stmt.text, norm);
    }
    return norm;
  }

  async prepare(sql: string, paramTypes: readonly number[]): Promise<EnginePrepared> {
    const statements = this.parsed(sql);
    if (statements.length > 1) {
      throw pgError(SqlState.syntax_error, 'cannot insert multiple commands into a prepared statement');
    }
    const prepared = await this.prepareParsed(statements[0] ?? null, paramTypes);
    this.mirrorFreshUntilSync = true;
    return prepared;
  }

  async prepareParsed(parsed: ParsedStatement | null, paramTypes: readonly number[]): Promise<EnginePrepared> {
    if (parsed !== null) this.checkNotFailed(parsed.ast);
    const query = parsed !== null && isQuery(parsed.ast);
    let key = query ? this.planKey(`${paramTypes.join(',')}\u0000${parsed.text}`) : '';
    let cached = query ? this.planCache.get(key) : undefined;
    if (cached === undefined || !isCatalogFree(cached)) {
      const version = this.planVersion;
      await this.iceberg?.refresh();
      if (this.planVersion !== version && query) {
        key = this.planKey(`${paramTypes.join(',')}\u0000${parsed.text}`);
        cached = this.planCache.get(key);
      }
    }
    const prepared: EnginePrepared = {
      parsed,
      bound: null,
      catalogVersion: this.planVersion,
      givenParamTypes: paramTypes,
      paramTypes: [...paramTypes],
      columns: null,
    };
    if (parsed === null) return prepared;
    if (query) {
      const bound = cached ?? this.bind(parsed.ast, paramTypes);
      if (cached === undefined) this.planCache.set(key, bound);
      return { ...prepared, bound, paramTypes: bound.paramTypes.map((t) => t.oid), columns: bound.columns.length === 0 && !returnsRows(parsed.ast) ? null : resultColumnsOf(bound) };
    }
    return { ...prepared, columns: utilityColumns(parsed.ast, this.cursors) };
  }

  async execute(prepared: PreparedStatement, params: readonly unknown[]): Promise<StatementResult> {
    return this.executeNow(prepared, params);
  }

  /** execute() without a promise when the statement completes at once (HandlerSession.executeNow) */
  executeNow(prepared: PreparedStatement, params: readonly unknown[]): StatementResult | Promise<StatementResult> {
    const p = prepared as EnginePrepared;
    if (p.parsed === null) return EMPTY_RESULT;
    return this.runParsedNow(p.parsed, params, p);
  }

  async sync(): Promise<void> {
    this.syncNow();
  }

  syncNow(): void {
    this.mirrorFreshUntilSync = false;
    this.tx.endImplicit();
    // an implicit transaction ends at Sync; lakegate commits each statement as it finishes
  }

  /** a message sent after the client saw the Parse's answer: it checks the catalog itself (wire/handler.ts) */
  pipelineEnded(): void {
    this.mirrorFreshUntilSync = false;
  }

  cancel(): void {
    // a CancelRequest that arrives between statements is ignored, as in PostgreSQL
    if (this.active) this.abort?.abort(queryCanceled());
  }

  async close(): Promise<void> {
    this.cancel();
    for (const cursor of this.cursors.values()) await cursor.stream.close().catch(() => undefined);
    this.cursors.clear();
    this.catalog.dropAllTemp();
    this.server.sessions.delete(this.info.backendPid);
  }

  // ---- statement execution ----

  /** runs one parsed statement; queries stream, everything else completes here */
  async runParsed(stmt: ParsedStatement, params: readonly unknown[], prepared: EnginePrepared | null): Promise<StatementResult> {
    return this.runParsedNow(stmt, params, prepared);
  }

  /**
   * runParsed without a promise when nothing must be awaited: a cached SELECT plan over a fresh mirror whose
   * operator tree runs to its end at once (reusable-plan.ts runNow) answers synchronously; anything else
   * answers a promise. Errors end the statement and fail the transaction either way.
   */
  runParsedNow(stmt: ParsedStatement, params: readonly unknown[], prepared: EnginePrepared | null): StatementResult | Promise<StatementResult> {
    this.checkNotFailed(stmt.ast);
    this.beginStatement(stmt.text);
    // the Parse of this pipeline refreshed the Iceberg mirror already: one check per client round trip
    const fresh = this.mirrorFreshUntilSync && prepared !== null;
    this.mirrorFreshUntilSync = false;
    try {
      const gathering = this.server.peers === null ? undefined : this.server.beforeStatement(stmt.text);
      const result = gathering === undefined ? this.runStatement(stmt, params, prepared, fresh) : gathering.then(() => this.runStatement(stmt, params, prepared, fresh));
      return result instanceof Promise ? result.catch((e: unknown) => { throw this.statementFailed(e); }) : result;
    } catch (e) {
      throw this.statementFailed(e);
    }
  }

  /** a failed statement: it ends, the transaction block (if any) fails, the error is a GatewayError */
  private statementFailed(e: unknown): GatewayError {
    this.endStatement();
    this.failTransaction();
    return toGatewayError(e);
  }

  private runStatement(stmt: ParsedStatement, params: readonly unknown[], prepared: EnginePrepared | null, fresh: boolean): StatementResult | Promise<StatementResult> {
    if (isQuery(stmt.ast) && !hasInto(stmt.ast)) return this.runQuery(stmt, params, prepared, fresh);
    return this.runUtility(stmt, params, fresh);
  }

  private async runUtility(stmt: ParsedStatement, params: readonly unknown[], fresh: boolean): Promise<StatementResult> {
    if (!fresh) await this.iceberg?.refresh();
    const result = await routeUtility(this, stmt, params);
    if (result.kind !== 'rows') this.endStatement();
    else return { ...result, batches: this.guard(result.batches) };
    return result;
  }

  /** a promise only when the mirror must be refreshed first or a DML statement's count awaited */
  private runQuery(stmt: ParsedStatement, params: readonly unknown[], prepared: EnginePrepared | null, fresh: boolean): StatementResult | Promise<StatementResult> {
    // simple-protocol queries repeat verbatim (dashboards, pgbench): reuse the bound plan while the catalog
    // and search_path are unchanged; bound plans are immutable, so sharing them is safe
    const simple = prepared === null && params.length === 0;
    const key = simple ? this.textPlanKey(stmt) : '';
    const cached = simple ? this.planCache.get(key) : prepared !== null && prepared.bound !== null && prepared.catalogVersion === this.planVersion ? prepared.bound : undefined;
    // the Iceberg mirror is brought up to date unless the plan at hand reads nothing of the catalog (SELECT 1);
    // after a refresh the plan is looked up again (the catalog version may have moved)
    if (!fresh && (cached === undefined || !isCatalogFree(cached))) {
      const refreshing = this.iceberg?.refreshIfStale();
      if (refreshing !== undefined) return refreshing.then(() => this.runQuery(stmt, params, prepared, true));
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
        if (this.server.statementShapes.isShaped(stmt)) stmt = parseSql(stmt.text)[0]!;
        bound = this.bind(stmt.ast, []);
        this.planCache.set(key, bound);
      }
    } else {
      bound = this.bind(stmt.ast, prepared?.paramTypes ?? params.map(() => 0));
      if (prepared !== null) {
        prepared.bound = bound;
        prepared.catalogVersion = this.planVersion;
      }
    }
    const kind = nodeKind(stmt.ast);
    if (kind !== 'SelectStmt') this.noteDmlTarget(stmt.ast);
    const ctx = this.execContext(params);
    if (kind === 'SelectStmt') {
      const reusable = this.reusablePlan(bound, ctx);
      // a small plan (VALUES, a point lookup on cached data) runs to its end here, without a promise per batch
      const ready = reusable?.runNow(ctx);
      if (ready !== undefined) {
        this.endStatement();
        return { kind: 'rows', columns: resultColumnsOf(bound), batches: readyBatches(ready), ready, tag: selectTag };
      }
      const batches = this.guard(reusable?.run(ctx) ?? executePlan(bound.plan, ctx));
      return { kind: 'rows', columns: resultColumnsOf(bound), batches, tag: selectTag };
    }
    const batches = this.guard(executePlan(bound.plan, ctx));
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
    if (nodeKind(stmt.ast) !== 'SelectStmt') return null;
    const norm = this.literalShape(stmt);
    if (norm === null) return null;
    const key = this.literalPlanKey(norm);
    let bound = this.planCache.get(key);
    if (bound === undefined) {
      try {
        bound = this.bind(norm.ast, norm.literals.map((l) => l.oid));
      } catch {
        return null;
      }
      this.planCache.set(key, bound);
    }
    const settings = this.outputSettings();
    try {
      const params = norm.literals.map((l, i) => textIn(bound.paramTypes[i]?.oid ?? 0, -1, l.text, settings));
      return { bound, params };
    } catch {
      return null;
    }
  }

  /**
   * The plan cache key of a literal-normalised shape, made once per shape, catalog version and search_path:
   * the shape's text is long, and a fresh key string would be hashed whole on every lookup.
   */
  private literalPlanKey(norm: LiteralNormalised): string {
    return this.keptPlanKey(norm, shapeKeyText);
  }

  /** planKey of a statement's text */
  private textPlanKey(stmt: ParsedStatement): string {
    return this.keptPlanKey(stmt, statementText);
  }

  /**
   * planKey(rest()) kept per parsed statement or literal shape (`owner`) while the catalog version and
   * search_path stay: a repeated statement builds no key string
   */
  private keptPlanKey<T extends object>(owner: T, rest: (owner: T) => string): string {
    const version = this.planVersion;
    const searchPath = this.fromSettings().searchPath;
    const kept = this.planKeys.get(owner);
    if (kept !== undefined && kept.version === version && kept.searchPath === searchPath) return kept.key;
    const key = this.planKey(rest(owner));
    this.planKeys.set(owner, { version, searchPath, key });
    return key;
  }

  private readonly planKeys = new WeakMap<object, { readonly version: number; readonly searchPath: string; readonly key: string }>();

  /**
   * A SELECT's operator tree kept per bound plan and run again (reusable-plan.ts): expressions compiled once
   * per session and plan. Null when the plan does not qualify (its run() answers null while an open portal
   * still runs the tree).
   */
  private reusablePlan(bound: BoundQuery, ctx: ExecContext): ReusablePlan | null {
    const version = this.settings.version;
    let kept = this.reusablePlans.get(bound);
    if (kept === undefined || kept.settingsVersion !== version) {
      kept = { settingsVersion: version, plan: ReusablePlan.build(bound.plan, ctx, version) };
      this.reusablePlans.set(bound, kept);
    }
    return kept.plan;
  }

  /** remembers the target table's contents so that ROLLBACK can undo the write */
  private noteDmlTarget(ast: unknown): void {
    const { schema, name } = rangeVarName(nodeBody(ast).relation);
    const rel = lookupRelation(this, schema === undefined ? [name] : [schema, name]);
    if (rel !== undefined && rel.source instanceof MemoryTable) this.tx.noteWrite(rel.source);
  }

  bind(ast: unknown, paramTypes: readonly number[]): BoundQuery {
    return bindQuery(ast, {
      catalog: this.catalog,
      searchPath: this.effectiveSearchPath(),
      functions: this.server.functions,
      paramTypes: paramTypes.map((oid) => ({ oid, typmod: -1 })),
      tempSchema: this.catalog.tempSchemaName,
    });
  }

  effectiveSearchPath(): string[] {
    return searchPathSchemas(this.settings.get('search_path') ?? '', this.info.user, this.catalog, true);
  }

  execContext(params: readonly unknown[]): ExecContext {
    const signal = this.abort?.signal ?? new AbortController().signal;
    const scan: ScanContext = { signal, session: this.view, catalog: this.catalog };
    return {
      session: this.view,
      catalog: this.catalog,
      transactionTimestamp: this.tx.inBlock ? this.tx.startedAt : this.statementStart,
      statementTimestamp: this.statementStart,
      signal,
      params,
      scan,
    };
  }

  /** wraps a result stream so that errors fail the transaction and the statement ends when it does */
  async *guard(batches: AsyncIterable<Batch>): AsyncIterable<Batch> {
    try {
      for await (const batch of batches) {
        if (this.abort?.signal.aborted === true) throw abortReason(this.abort.signal);
        yield batch;
      }
    } catch (e) {
      this.failTransaction();
      throw this.abort?.signal.aborted === true ? abortReason(this.abort.signal) : e;
    } finally {
      this.endStatement();
    }
  }

  private beginStatement(text: string): void {
    this.currentQuery = text;
    this.statementStart = nowMicros();
    this.queryStart = this.statementStart;
    this.active = true;
    // one controller serves statement after statement until a cancel uses it up (creating one per statement costs)
    if (this.abort === null || this.abort.signal.aborted) this.abort = new AbortController();
    const timeout = this.fromSettings().statementTimeout;
    if (timeout > 0) {
      const controller = this.abort;
      this.timer = setTimeout(() => controller.abort(queryCanceled('canceling statement due to statement timeout')), timeout);
    }
  }

  private endStatement(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.active = false;
  }

  failTransaction(): void {
    this.tx.fail();
  }

  private checkNotFailed(ast: unknown): void {
    if (this.tx.status !== 'E') return;
    if (ast !== null && nodeKind(ast) === 'TransactionStmt') {
      const kind = String(nodeBody(ast).kind ?? '');
      if (kind === 'TRANS_STMT_ROLLBACK' || kind === 'TRANS_STMT_ROLLBACK_TO' || kind === 'TRANS_STMT_COMMIT' || kind === 'TRANS_STMT_PREPARE') return;
    }
    throw pgError(SqlState.in_failed_sql_transaction, 'current transaction is aborted, commands ignored until end of transaction block');
  }

  /** Describe Portal by a SQL cursor's name (cursors are portals in PostgreSQL): its columns, or null */
  describeCursor(name: string): { readonly columns: readonly ResultColumn[]; readonly binary: boolean } | null {
    const cursor = this.cursors.get(name);
    return cursor === undefined ? null : { columns: cursor.columns, binary: cursor.binary };
  }

  /** text of catalog-dependent values (regclass → relation name, ...); null = the type's plain text output */
  renderText(typeOid: number, value: unknown): string | null {
    return renderRegText(typeOid, value, this.view, this.catalog);
  }

  notice(message: string, code: string = SqlState.successful_completion): void {
    this.onNotice?.(pgError(code, message, { severity: 'NOTICE' }));
  }

  warning(message: string, code: string = SqlState.warning): void {
    this.onNotice?.(pgError(code, message, { severity: 'WARNING' }));
  }
}

/** the last millisecond a statement started in, and its microseconds: statements of one ms share the bigint */
let lastMs = -1;
let lastMicros = 0n;

/** Date.now() in microseconds as a bigint (the timestamps' representation), without a new BigInt per statement */
function nowMicros(): bigint {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastMicros = BigInt(ms) * 1000n;
  }
  return lastMicros;
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

const EMPTY_RESULT: StatementResult = { kind: 'empty' };

/** the plan-key text of a literal shape: its parameters' types and its normalised text (module-level: no closure per statement) */
function shapeKeyText(norm: LiteralNormalised): string {
  return `${norm.literals.map((l) => l.oid).join(',')}\u0000${norm.key}`;
}

function statementText(stmt: ParsedStatement): string {
  return stmt.text;
}

/** a closure made per statement would cost an allocation (and tsx's keepNames a defineProperty) each time */
function selectTag(n: number): string {
  return `SELECT ${n}`;
}

/** RowDescription columns of a bound plan, computed once per plan (bound plans are immutable and cached) */
const RESULT_COLUMNS = new WeakMap<BoundQuery, readonly ResultColumn[]>();
function resultColumnsOf(bound: BoundQuery): readonly ResultColumn[] {
  let columns = RESULT_COLUMNS.get(bound);
  if (columns === undefined) RESULT_COLUMNS.set(bound, (columns = toResultColumns(bound.columns)));
  return columns;
}

function abortReason(signal: AbortSignal): GatewayError {
  const reason: unknown = signal.reason;
  return GatewayError.is(reason) ? reason : queryCanceled();
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

const QUERY_KINDS = new Set(['SelectStmt', 'InsertStmt', 'UpdateStmt', 'DeleteStmt']);

function isQuery(ast: unknown): boolean {
  return QUERY_KINDS.has(nodeKind(ast));
}

function hasInto(ast: unknown): boolean {
  return nodeKind(ast) === 'SelectStmt' && nodeBody(ast).intoClause !== undefined;
}

function returnsRows(ast: unknown): boolean {
  const kind = nodeKind(ast);
  if (kind === 'SelectStmt') return true;
  const r = nodeBody(ast).returningList;
  return Array.isArray(r) && r.length > 0;
}

/** RowDescription of the utility statements that return rows (for Describe) */
function utilityColumns(ast: unknown, cursors: ReadonlyMap<string, Cursor>): readonly ResultColumn[] | null {
  const kind = nodeKind(ast);
  // FETCH describes as its cursor's rows (PostgreSQL's UtilityTupleDescriptor); MOVE and unknown cursors: NoData
  if (kind === 'FetchStmt') {
    const body = nodeBody(ast);
    return body.ismove === true ? null : cursors.get(String(body.portalname ?? ''))?.columns ?? null;
  }
  if (kind === 'VariableShowStmt') {
    const name = String(nodeBody(ast).name ?? '');
    if (name.toLowerCase() === 'all') return [textColumn('name'), textColumn('setting'), textColumn('description')];
    return [textColumn(showColumnName(name))];
  }
  if (kind === 'ExplainStmt') return [textColumn('QUERY PLAN')];
  return null;
}

export function showColumnName(name: string): string {
  const lower = name.toLowerCase();
  if (lower === 'transaction_isolation' || lower === 'transaction isolation level') return 'transaction_isolation';
  if (lower === 'timezone') return 'TimeZone';
  if (lower === 'datestyle') return 'DateStyle';
  if (lower === 'intervalstyle') return 'IntervalStyle';
  if (lower === 'session_authorization' || lower === 'session authorization') return 'session_authorization';
  return lower;
}

export function textColumn(name: string): ResultColumn {
  return { name, tableOid: 0, columnAttr: 0, typeOid: 25, typeSize: -1, typeMod: -1 };
}

export function toResultColumns(columns: readonly BoundColumn[]): ResultColumn[] {
  return columns.map((c) => ({
    name: c.name,
    tableOid: c.tableOid,
    columnAttr: c.attnum,
    typeOid: c.type.oid,
    typeSize: typeInfo(c.type.oid)?.typlen ?? -1,
    typeMod: c.type.typmod,
  }));
}

/** startup `options`: `-c name=value` and `--name=value`, as libpq passes them */
function parseOptions(options: string): Record<string, string> {
  const out: Record<string, string> = {};
  const tokens = options.match(/(?:\\.|[^\s\\])+/g) ?? [];
  for (let i = 0; i < tokens.length; i++) {
    let t = tokens[i]!.replace(/\\(.)/g, '$1');
    if (t === '-c') t = (tokens[++i] ?? '').replace(/\\(.)/g, '$1');
    else if (t.startsWith('-c')) t = t.slice(2);
    else if (t.startsWith('--')) t = t.slice(2);
    else continue;
    const eq = t.indexOf('=');
    if (eq > 0) out[t.slice(0, eq).replace(/-/g, '_')] = t.slice(eq + 1);
  }
  return out;
}
