/**
 * EngineSession: one client session of the engine — implements wire's HandlerSession. It parses each
 * statement, routes utility statements (SET, transactions, cursors, DDL, COPY, ...) to their handlers in
 * statements/, and sends queries through bind → plan → execute. It owns the session's settings,
 * transaction state, cursors, SQL-level prepared statements, temp schema and statement cancellation.
 */
import { GatewayError, pgError, queryCanceled } from '../common/errors.ts';
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
import { bindQuery, parseSql, type BoundQuery, type ParsedStatement } from '../sql/index.ts';
import type { ExecContext } from '../exec/index.ts';
import type { EngineServer } from './engine-server.ts';
import { SessionCatalog } from './session-catalog.ts';
import type { IcebergTransaction } from './iceberg-transaction.ts';
import { SessionSettings } from './session-settings.ts';
import { TransactionState } from './transaction.ts';
import { EngineSessionView } from './engine-session-view.ts';
import { nodeBody, nodeKind, rangeVarName } from './ast.ts';
import { lookupRelation } from './statements/ddl.ts';
import { beginBlock, commitBlock, rollbackAll } from './statements/transaction-stmt.ts';
import { needsImplicitBlock, opensPipelineBlock } from './implicit-block.ts';
import { MemoryTable } from './memory-table.ts';
import type { Cursor } from './statements/cursor-stmt.ts';
import { searchPathSchemas } from './search-path.ts';
import { renderRegText } from './render-reg-text.ts';
import { parseRegText } from './parse-reg-text.ts';
import { normaliseLiterals, type LiteralNormalised } from './literal-params.ts';
import { isCatalogFree } from './catalog-free-plan.ts';
import type { IcebergTables } from './iceberg-tables.ts';
import { hasInto, isQuery, StatementRunner } from './statement-runner.ts';
import { resultColumnsOf, returnsRows, utilityColumns } from './result-columns.ts';

export { showColumnName, textColumn, toResultColumns } from './result-columns.ts';

export interface EnginePrepared extends PreparedStatement {
  readonly parsed: ParsedStatement | null;
  bound: BoundQuery | null;
  catalogVersion: number;
  readonly givenParamTypes: readonly number[];
  /** whether the statement writes or is a SET LOCAL (implicit-block.ts opensPipelineBlock), found at its first Execute */
  opensBlock?: boolean;
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
  /** runs each parsed statement; holds the plan cache (statement-runner.ts) */
  private readonly runner: StatementRunner;
  /** what statements read from the settings, derived once per settings version (SessionSettings.version) */
  private derived: { version: number; output: OutputSettings; searchPath: string; statementTimeout: number } | null = null;
  /**
   * set by a protocol-level Parse that brought the Iceberg mirror up to date; the Execute of the same pipeline
   * (before Sync) then does not check again. Only Parse sets it: a SQL PREPARE is a statement of its own.
   */
  private mirrorFreshUntilSync = false;
  /**
   * the open transaction block is an extended-protocol pipeline's implicit transaction (implicit-block.ts): opened
   * by its first writing Execute, committed at Sync (rolled back after an error); BEGIN makes it the explicit block
   */
  pipelineBlock = false;
  /** the read clock's number of this connection's latest socket read, set by wire/ (HandlerSession.readMark) */
  readMark: number | undefined = undefined;
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
    this.runner = new StatementRunner(this);
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
    // every change of a reported setting bumps the settings version: none since the last call, no array
    const version = this.settings.version;
    if (version === this.reportedVersion) return NO_CHANGES;
    this.reportedVersion = version;
    return this.settings.takeChanges();
  }

  /** the settings version takeParameterChanges last looked at */
  private reportedVersion = -1;

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

  /** the search_path setting's text (PlanKeyScope: plan keys lead with it) */
  searchPathText(): string {
    return this.fromSettings().searchPath;
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
    if (this.pipelineBlock) {
      yield* this.simpleQueryInPipeline(sql);
      return;
    }
    const statements = this.simpleStatements(sql);
    if (statements.length === 0) {
      yield { kind: 'empty' };
      return;
    }
    if (!needsImplicitBlock(statements, this.tx.inBlock)) {
      for (const stmt of statements) yield await this.runParsed(stmt, [], null);
      return;
    }
    // one implicit transaction for the message (implicit-block.ts): commit after the last statement, else roll back
    beginBlock(this);
    let committed = false;
    try {
      for (const stmt of statements) yield await this.runParsed(stmt, [], null);
      committed = true;
      await commitBlock(this);
    } finally {
      if (!committed) await rollbackAll(this);
    }
  }

  /** a Query inside a pipeline joins its implicit transaction and ends it, as PostgreSQL's exec_simple_query */
  private async *simpleQueryInPipeline(sql: string): AsyncIterable<StatementResult> {
    try {
      const statements = this.simpleStatements(sql);
      if (statements.length === 0) yield EMPTY_RESULT;
      for (const stmt of statements) yield await this.runParsed(stmt, [], null);
    } finally {
      await this.endPipelineBlock();
    }
  }

  /** simpleQuery() of a one-statement text without an async generator (HandlerSession.simpleQueryNow) */
  simpleQueryNow(sql: string): StatementResult | Promise<StatementResult> | null {
    // a pipeline's implicit transaction to end: simpleQuery
    if (this.pipelineBlock) return null;
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
  literalShape(stmt: ParsedStatement): LiteralNormalised | null {
    // a shaped statement's own constants (its AST holds the learned text's)
    let norm = this.server.statementShapes.normOf(stmt) ?? this.server.literalShapes.get(stmt.text);
    if (norm === undefined) {
      norm = normaliseLiterals(stmt.ast);
      this.server.literalShapes.set(stmt.text, norm);
    }
    return norm;
  }

  async prepare(sql: string, paramTypes: readonly number[]): Promise<EnginePrepared> {
    return this.prepareNow(sql, paramTypes);
  }

  /** prepare() without a promise when nothing must be awaited (HandlerSession.prepareNow): the mirror is fresh */
  prepareNow(sql: string, paramTypes: readonly number[]): EnginePrepared | Promise<EnginePrepared> {
    const statements = this.parsed(sql);
    if (statements.length > 1) {
      throw pgError(SqlState.syntax_error, 'cannot insert multiple commands into a prepared statement');
    }
    this.mirrorChecked = false;
    const prepared = this.prepareParsedNow(statements[0] ?? null, paramTypes);
    if (prepared instanceof Promise) return prepared.then(this.markFresh);
    return this.mirrorChecked ? this.markFresh(prepared) : prepared;
  }

  /** set by prepareParsedNow when it brought the mirror up to date (a cached catalog-free plan skips that) */
  private mirrorChecked = false;

  /** set by a Parse that brought the mirror up to date: the Execute of the same pipeline need not check again */
  private readonly markFresh = (prepared: EnginePrepared): EnginePrepared => {
    this.mirrorFreshUntilSync = true;
    return prepared;
  };

  async prepareParsed(parsed: ParsedStatement | null, paramTypes: readonly number[]): Promise<EnginePrepared> {
    return this.prepareParsedNow(parsed, paramTypes);
  }

  /**
   * prepareParsed without a promise unless the Iceberg mirror must be refreshed first: a cached plan that reads
   * no catalog needs no check; any other statement brings the mirror up to date (looking its plan up again when
   * the catalog version moved).
   */
  prepareParsedNow(parsed: ParsedStatement | null, paramTypes: readonly number[]): EnginePrepared | Promise<EnginePrepared> {
    if (parsed !== null) this.checkNotFailed(parsed.ast);
    const query = parsed !== null && isQuery(parsed.ast);
    const cached = query ? this.runner.plans.get(this.runner.keys.ofParse(parsed, paramTypes)) : undefined;
    if (cached === undefined || !isCatalogFree(cached)) {
      const version = this.planVersion;
      this.mirrorChecked = true;
      const refreshing = this.iceberg?.refreshIfStale(this.readMark);
      if (refreshing !== undefined) {
        return refreshing.then(() => this.preparedOf(parsed, paramTypes, query, this.planVersion !== version && query ? this.runner.plans.get(this.runner.keys.ofParse(parsed, paramTypes)) : cached));
      }
    }
    return this.preparedOf(parsed, paramTypes, query, cached);
  }

  /** the prepared statement of `parsed`: its cached plan, or bound now and cached */
  private preparedOf(parsed: ParsedStatement | null, paramTypes: readonly number[], query: boolean, cached: BoundQuery | undefined): EnginePrepared {
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
      if (cached === undefined) this.runner.plans.set(this.runner.keys.ofParse(parsed, paramTypes), bound);
      // INSERT / UPDATE / DELETE / MERGE without RETURNING describe as NoData (their plan's count column is internal)
      return { ...prepared, bound, paramTypes: bound.paramTypes.map((t) => t.oid), columns: returnsRows(parsed.ast) ? resultColumnsOf(bound) : null };
    }
    return { ...prepared, columns: utilityColumns(parsed.ast, this.cursors) };
  }

  async execute(prepared: PreparedStatement, params: readonly unknown[], syncFollows = false): Promise<StatementResult> {
    return this.executeNow(prepared, params, syncFollows);
  }

  /** execute() without a promise when the statement completes at once (HandlerSession.executeNow) */
  executeNow(prepared: PreparedStatement, params: readonly unknown[], syncFollows = false): StatementResult | Promise<StatementResult> {
    const p = prepared as EnginePrepared;
    if (p.parsed === null) return EMPTY_RESULT;
    // the pipeline's first write (or SET LOCAL) opens its implicit transaction; reads alone never pay for one, and
    // neither does a write that Sync follows at once (alone in the transaction, it commits by itself as before)
    if (!syncFollows && !this.tx.inBlock && (p.opensBlock ??= opensPipelineBlock(p.parsed.ast))) {
      beginBlock(this);
      this.pipelineBlock = true;
    }
    return this.runParsedNow(p.parsed, params, p);
  }

  async sync(): Promise<void> {
    await this.syncNow();
  }

  /** Sync: the implicit transaction ends — a promise only when a pipeline's writes must be committed (or undone) */
  syncNow(): void | Promise<void> {
    this.mirrorFreshUntilSync = false;
    if (this.pipelineBlock) return this.endPipelineBlock();
    this.tx.endImplicit();
  }

  /** ends the pipeline's implicit transaction: commit when no statement failed, else roll back */
  private async endPipelineBlock(): Promise<void> {
    if (!this.pipelineBlock) return;
    this.pipelineBlock = false;
    if (this.tx.status === 'E') await rollbackAll(this);
    else await commitBlock(this);
    this.tx.endImplicit();
  }

  /** an ErrorResponse for a protocol message (wire/): the transaction is aborted, as by any ERROR */
  messageFailed(): void {
    this.failTransaction();
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
    return this.runner.run(stmt, params, prepared);
  }

  /** runParsed without a promise when nothing must be awaited (statement-runner.ts) */
  runParsedNow(stmt: ParsedStatement, params: readonly unknown[], prepared: EnginePrepared | null): StatementResult | Promise<StatementResult> {
    return this.runner.run(stmt, params, prepared);
  }

  /** whether the Parse of this pipeline already brought the Iceberg mirror up to date; the answer holds once */
  takeMirrorFresh(): boolean {
    const fresh = this.mirrorFreshUntilSync;
    this.mirrorFreshUntilSync = false;
    return fresh;
  }

  /** remembers the target table's contents so that ROLLBACK can undo the write */
  noteDmlTarget(ast: unknown): void {
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

  beginStatement(text: string): void {
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

  endStatement(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.active = false;
  }

  failTransaction(): void {
    this.tx.fail();
  }

  checkNotFailed(ast: unknown): void {
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

  /** text input of catalog-dependent values (a regclass parameter 'pg_class' → its OID); undefined = plain textIn */
  parseText(typeOid: number, text: string): unknown {
    return parseRegText(typeOid, text, this.view, this.catalog);
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

const EMPTY_RESULT: StatementResult = { kind: 'empty' };
const NO_CHANGES: ReadonlyArray<readonly [string, string]> = Object.freeze([]);

function abortReason(signal: AbortSignal): GatewayError {
  const reason: unknown = signal.reason;
  return GatewayError.is(reason) ? reason : queryCanceled();
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
