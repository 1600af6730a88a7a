/**
 * MessageLoop: the Ready state of one connection (connection.ts) — queued client messages answered one at a time,
 * in order: simple Query, the extended-query messages (extended-query.ts) up to Sync (skipping to Sync after an
 * error), Flush, Terminate; ErrorResponse and ReadyForQuery. Split from PgConnection (session 20), which keeps the
 * socket, startup and authentication, and resumes a parked loop when a read delivers messages (after-reads.ts).
 * Answers that need nothing awaited cost no promise: see pump().
 */
import { GatewayError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { ExtendedQuery } from './extended-query.ts';
import type { HandlerSession, StatementResult } from './handler.ts';
import type { MessageQueue } from './message-queue.ts';
import * as msg from './protocol/backend-serializer.ts';
import type { BufferWriter } from './protocol/buffer-writer.ts';
import type { FrontendMessage } from './protocol/frontend-messages.ts';
import { sendStatementResult } from './statement-result.ts';
import type { WireIO } from './wire-io.ts';

/** what the loop needs of its connection besides WireIO */
export interface LoopHost extends WireIO {
  readonly w: BufferWriter;
  isClosed(): boolean;
  /** writes what is buffered; a promise only when the socket is full */
  flushNow(): Promise<void> | undefined;
  /** a statement or ReadyForQuery may have changed the session's output settings */
  settingsChanged(): void;
  /** any throwable as a GatewayError (non-gateway errors logged) */
  report(e: unknown): GatewayError;
  /** sends a FATAL error and closes */
  fatal(e: GatewayError): void;
}

/** The client closed the connection while we waited for it (e.g. psql re-prompting for a password). */
export class ClientGone extends Error {}

/** a step's answer: the connection ends (Terminate, client gone) */
const END = Symbol('end');

export class MessageLoop {
  readonly extended: ExtendedQuery;
  private readonly w: BufferWriter;
  /** after an error in an extended-query message: messages are skipped up to Sync */
  private skipToSync = false;
  /** messages received when the last Parse began: one received later may follow a commit the client saw since */
  private parseMark = -1;
  /** the loop has answered every queued message and waits for the next read (the connection's deliver() resumes it) */
  parked = false;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private loopEnd: { resolve: () => void; reject: (e: unknown) => void } | null = null;

  constructor(
    private readonly host: LoopHost,
    private readonly queue: MessageQueue,
    private readonly idleSessionTimeoutMs: number | undefined,
  ) {
    this.w = host.w;
    this.extended = new ExtendedQuery(host);
  }

  private get session(): HandlerSession {
    return this.host.session;
  }

  /** Resolves when the connection ends (Terminate, socket closed); rejects with a FATAL error. */
  run(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.loopEnd = { resolve, reject };
      this.pump();
    });
  }

  /**
   * Answers queued messages in order. A message answered at once (the usual round trip: Bind/Execute/Sync of a
   * cached plan) costs no promise and no microtask turn: the read's delivery (after-reads.ts) runs this
   * synchronously when the loop was parked. A message that must wait hands the rest to its promise's
   * continuation; with the queue empty the loop parks until the next delivery.
   */
  pump(): void {
    this.parked = false;
    if (this.idleTimer !== null) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    try {
      for (;;) {
        if (this.host.isClosed()) return this.endLoop();
        const m = this.queue.take();
        if (m === undefined) return this.park();
        const r = this.step(m);
        if (r === END) return this.endLoop();
        if (r !== undefined) {
          r.then((v) => (v === END ? this.endLoop() : this.pump()), (e: unknown) => this.loopEnd?.reject(e));
          return;
        }
      }
    } catch (e) {
      this.loopEnd?.reject(e);
    }
  }

  /** waits for the next delivery; an idle session (status I) ends after idle_session_timeout */
  private park(): void {
    if (this.queue.isEnded) return this.endLoop();
    this.parked = true;
    const ms = this.idleSessionTimeoutMs;
    if (ms && this.session.transactionStatus() === 'I') {
      this.idleTimer = setTimeout(() => {
        this.idleTimer = null;
        this.host.fatal(new GatewayError('57P05', 'terminating connection due to idle-session timeout', { severity: 'FATAL' }));
      }, ms);
    }
  }

  endLoop(): void {
    this.parked = false;
    if (this.idleTimer !== null) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    const end = this.loopEnd;
    this.loopEnd = null;
    end?.resolve();
  }

  /** One message: undefined when answered at once, END when the connection ends, else what to await first. */
  private step(m: FrontendMessage): Promise<unknown> | typeof END | undefined {
    if (this.parseMark >= 0 && this.queue.pulled > this.parseMark) {
      this.parseMark = -1;
      this.session.pipelineEnded?.();
    }
    if (this.skipToSync && m.type !== 'Sync' && m.type !== 'Terminate') return undefined;
    let r: Promise<void> | typeof END | undefined;
    try {
      r = this.dispatch(m, this.extended);
    } catch (e) {
      return this.messageFailed(m, e);
    }
    if (r === undefined || r === END) return r;
    return r.then(undefined, (e: unknown) => this.messageFailed(m, e));
  }

  /** A message's answer; a promise only when something must be awaited (ReadyForQuery needs one only for an open portal or a full socket). */
  private dispatch(m: FrontendMessage, extended: ExtendedQuery): Promise<void> | typeof END | undefined {
    switch (m.type) {
      case 'Query':
        if (extended.hasUnnamed) return extended.dropUnnamed().then(() => this.query(m.sql, extended));
        return this.query(m.sql, extended);
      case 'Parse':
        this.parseMark = this.queue.received;
        return extended.parse(m);
      case 'Bind':
        return extended.bind(m);
      case 'Describe':
        extended.describe(m);
        return undefined;
      case 'Execute':
        return extended.execute(m, this.queue.peek()?.type === 'Sync');
      case 'Close':
        return extended.close(m);
      case 'Flush':
        return this.host.flushNow();
      case 'Sync':
        this.skipToSync = false;
        return this.sync(extended);
      case 'Terminate':
        return END;
      case 'CopyData':
      case 'CopyDone':
      case 'CopyFail':
        return undefined; // leftovers of a failed COPY: ignored, per protocol
      case 'Malformed':
        throw m.error;
      case 'FunctionCall':
        throw new GatewayError(SqlState.feature_not_supported, 'fastpath function calls are not supported');
      default:
        throw new GatewayError(SqlState.protocol_violation, `invalid frontend message type ${'code' in m ? m.code : 0}`, { severity: 'FATAL' });
    }
  }

  /** a simple Query, then ReadyForQuery */
  private query(sql: string, extended: ExtendedQuery): Promise<void> | undefined {
    const querying = this.simpleQuery(sql);
    if (querying !== undefined) return querying.then(() => this.readyForQuery(extended));
    return this.readyForQuery(extended);
  }

  /**
   * A message answered with an error: ErrorResponse, then ReadyForQuery for a Query, or skip to Sync (the error
   * flushed at once). A FATAL one is rethrown: the connection ends.
   */
  private messageFailed(m: FrontendMessage, e: unknown): Promise<unknown> | typeof END | undefined {
    if (e instanceof ClientGone || this.host.isClosed()) return END;
    const ge = this.host.report(e);
    if (ge.severity === 'FATAL' || ge.severity === 'PANIC') throw ge;
    this.w.abortMessage();
    msg.ErrorResponse(this.w, ge);
    this.session.messageFailed?.();
    if (m.type === 'Query' || m.type === 'FunctionCall') return this.readyForQuery(this.extended);
    this.skipToSync = true;
    // as PostgreSQL (elog.c send_message_to_frontend): an error is flushed at once, so a client that sent
    // Parse/Describe/Flush without Sync (asyncpg) sees it instead of waiting forever
    return this.host.flushNow();
  }

  /**
   * A simple Query; a promise only when something must be awaited. One statement goes through the handler's
   * simpleQueryNow when it has one (no async iterator, no promise for a result computed at once).
   */
  private simpleQuery(sql: string): Promise<void> | undefined {
    const session = this.session;
    if (session.simpleQueryNow === undefined) return this.simpleQueryStream(sql);
    try {
      const one = session.simpleQueryNow(sql);
      if (one === null) return this.simpleQueryStream(sql);
      if (one instanceof Promise) return one.then((r) => this.sendOne(r), (e: unknown) => this.queryFailed(e));
      return this.sendOne(one);
    } catch (e) {
      this.queryFailed(e);
      return undefined;
    }
  }

  private sendOne(result: StatementResult): Promise<void> | undefined {
    this.host.settingsChanged();
    try {
      const sending = sendStatementResult(this.host, result);
      return sending === undefined ? undefined : sending.catch((e: unknown) => this.queryFailed(e));
    } catch (e) {
      this.queryFailed(e);
      return undefined;
    }
  }

  /** a statement's error: ErrorResponse (a FATAL one is rethrown: the connection ends) */
  private queryFailed(e: unknown): void {
    if (e instanceof ClientGone || this.host.isClosed()) return;
    const ge = this.host.report(e);
    if (ge.severity === 'FATAL' || ge.severity === 'PANIC') throw ge;
    this.w.abortMessage();
    msg.ErrorResponse(this.w, ge);
    this.session.messageFailed?.();
  }

  private async simpleQueryStream(sql: string): Promise<void> {
    let any = false;
    try {
      for await (const result of this.session.simpleQuery(sql)) {
        any = true;
        this.host.settingsChanged();
        await sendStatementResult(this.host, result);
        if (this.host.isClosed()) return;
      }
      if (!any) msg.EmptyQueryResponse(this.w);
    } catch (e) {
      this.queryFailed(e);
    }
  }

  /** Sync: the handler's sync, then ReadyForQuery; a promise only when something must be awaited */
  private sync(extended: ExtendedQuery): Promise<void> | undefined {
    const session = this.session;
    try {
      const syncing = session.syncNow !== undefined ? session.syncNow() : session.sync();
      if (syncing !== undefined) return syncing.then(() => this.readyForQuery(extended), (e: unknown) => this.syncFailed(e, extended));
    } catch (e) {
      return this.syncFailed(e, extended);
    }
    return this.readyForQuery(extended);
  }

  private syncFailed(e: unknown, extended: ExtendedQuery): Promise<void> | undefined {
    const ge = this.host.report(e);
    if (ge.severity === 'FATAL') throw ge;
    this.w.abortMessage();
    msg.ErrorResponse(this.w, ge);
    return this.readyForQuery(extended);
  }

  /** ParameterStatus changes, ReadyForQuery, flush; a promise only when something must be awaited. */
  private readyForQuery(extended: ExtendedQuery): Promise<void> | undefined {
    const status = this.session.transactionStatus();
    if (status === 'I' && extended.portalCount > 0) {
      const closing = extended.closeAllPortals();
      if (closing !== undefined) return closing.then(() => this.readyForQueryNow(status));
    }
    return this.readyForQueryNow(status);
  }

  private readyForQueryNow(status: 'I' | 'T' | 'E'): Promise<void> | undefined {
    this.host.settingsChanged();
    const changes = this.session.takeParameterChanges();
    for (let i = 0; i < changes.length; i++) msg.ParameterStatus(this.w, changes[i]![0], changes[i]![1]);
    msg.ReadyForQuery(this.w, status);
    return this.host.flushNow();
  }
}
