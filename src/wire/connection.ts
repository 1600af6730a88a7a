/**
 * PgConnection: the per-connection state machine of the v3 protocol.
 *
 *   AwaitingStartup ──SSLRequest/GSSENCRequest──▶ (TLS upgrade | 'N') ──▶ AwaitingStartup
 *        │ StartupMessage                    CancelRequest ─▶ cancel + close
 *        ▼
 *   Authenticating ──▶ AuthenticationOk, ParameterStatus*, BackendKeyData ──▶ Ready
 *   Ready ⇄ simple Query | extended Parse/Bind/Describe/Execute/Close … Sync (skip to Sync after an error)
 *        ⇄ CopyIn / CopyOut
 *
 * One async loop per connection pulls parsed messages in order, so pipelined messages are answered in order.
 * Output goes through one BufferWriter flushed at ReadyForQuery, PortalSuspended, Flush and big batches.
 * @see https://www.postgresql.org/docs/current/protocol-flow.html
 */
import type { Socket } from 'node:net';
import type { SecureContext, TLSSocket } from 'node:tls';
import { GatewayError, toGatewayError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { authenticate, type AuthConfig } from './auth/authenticator.ts';
import type { CancelRegistry } from './cancel-registry.ts';
import type { ValueCodec } from './encode/value-codec.ts';
import { ExtendedQuery } from './extended-query.ts';
import type { HandlerSession, OutputSettings, QueryHandler, StatementResult } from './handler.ts';
import { MessageQueue } from './message-queue.ts';
import * as msg from './protocol/backend-serializer.ts';
import { BufferWriter } from './protocol/buffer-writer.ts';
import type { FrontendMessage, StartupMessage } from './protocol/frontend-messages.ts';
import { FrontendParser } from './protocol/frontend-parser.ts';
import { afterReads } from './after-reads.ts';
import { noteRead } from './read-clock.ts';
import { readIntoReusedBuffer } from './socket-reader.ts';
import { FULL, SocketWriter, WRITTEN } from './socket-writer.ts';
import { sendStatementResult } from './statement-result.ts';
import { expandStartupParameters } from './startup-options.ts';
import type { WireIO } from './wire-io.ts';
import { upgradeToTls } from './tls-upgrade.ts';
import type { WireLogger } from './wire-logger.ts';

const FLUSH_THRESHOLD = 64 * 1024;

export interface ConnectionOptions {
  readonly handler: QueryHandler;
  readonly codec: ValueCodec;
  readonly auth: AuthConfig;
  readonly cancelRegistry: CancelRegistry;
  readonly log: WireLogger;
  /** present when TLS is configured: SSLRequest is answered 'S' */
  readonly tls?: SecureContext;
  readonly maxMessageLength?: number;
  readonly idleSessionTimeoutMs?: number;
  /** startup + authentication must finish within this time (PostgreSQL's authentication_timeout); default 60 s */
  readonly authenticationTimeoutMs?: number;
  /** asked once StartupMessage arrived; false → FATAL 53300 */
  readonly admit: () => boolean | Promise<boolean>;
  readonly release: () => void;
}

export class PgConnection implements WireIO {
  readonly w = new BufferWriter();
  codec: ValueCodec;
  private socket: Socket | TLSSocket;
  private readonly parser: FrontendParser;
  private readonly queue: MessageQueue;
  private closed = false;
  private ssl = false;
  private admitted = false;
  private sessionRef: HandlerSession | null = null;
  private processId = 0;
  private drainWaiters: Array<() => void> = [];
  /** past startup on a plain socket: writes go straight to libuv (socket-writer.ts) */
  private writer: SocketWriter | null = null;
  private settingsCache: OutputSettings | null = null;
  /** resolves when the connection is fully cleaned up */
  readonly finished: Promise<void>;

  constructor(
    private readonly raw: Socket,
    private readonly opts: ConnectionOptions,
  ) {
    this.codec = opts.codec;
    this.socket = raw;
    this.parser = new FrontendParser(opts.maxMessageLength);
    this.queue = new MessageQueue(
      () => this.socket.pause(),
      () => this.socket.resume(),
    );
    raw.setNoDelay(true);
    raw.on('data', this.onData);
    raw.on('error', () => this.onClose());
    raw.on('close', () => this.onClose());
    this.finished = this.run();
  }

  get session(): HandlerSession {
    if (!this.sessionRef) throw new GatewayError(SqlState.internal_error, 'no session');
    return this.sessionRef;
  }

  get settings(): OutputSettings {
    return (this.settingsCache ??= this.session.outputSettings());
  }

  isClosed(): boolean {
    return this.closed;
  }

  private readonly onData = (chunk: Buffer): void => this.receive(chunk, false);
  /** reads into the connection's reused buffer (socket-reader.ts): the chunk is valid only during the call */
  private readonly onBorrowedData = (chunk: Buffer): void => this.receive(chunk, true);

  /**
   * Parses a read now (a borrowed chunk is gone after this call) and queues its messages once the event loop has
   * read every ready socket (after-reads.ts): one catalog change check then covers all of them (read-clock.ts).
   */
  private receive(chunk: Buffer, borrowed: boolean): void {
    if (this.closed) return;
    const mark = noteRead();
    if (this.sessionRef !== null) this.sessionRef.readMark = mark;
    try {
      const messages = this.parser.push(chunk, borrowed);
      if (messages.length === 0) return;
      // stop reading raw bytes until the loop answered: TLS bytes must not reach the parser (startup packets only
      // come before the loop runs)
      if (this.extended === null) {
        for (let i = 0; i < messages.length; i++) {
          const type = messages[i]!.type;
          if (type === 'SSLRequest' || type === 'GSSENCRequest') this.socket.pause();
        }
      }
      if (this.held === null) {
        this.held = messages;
        afterReads(this.deliver);
      } else for (let i = 0; i < messages.length; i++) this.held.push(messages[i]!);
    } catch (e) {
      this.fatal(toGatewayError(e));
    }
  }

  /** messages parsed from this poll's reads, not yet queued */
  private held: FrontendMessage[] | null = null;

  private readonly deliver = (): void => {
    const held = this.held;
    this.held = null;
    if (held === null || this.closed) return;
    for (let i = 0; i < held.length; i++) this.queue.push(held[i]!);
    // a parked loop answers them here and now (no promise, no microtask turn per round trip)
    if (this.parked) this.pump();
  };

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.end();
    for (const wake of this.drainWaiters.splice(0)) wake();
    this.writer?.wakeAll();
    if (this.parked) this.endLoop();
    // the client is gone: release the handler's work now, even mid-query
    if (this.sessionRef) void this.closeSession();
  }

  private sessionClosing: Promise<void> | null = null;
  private closeSession(): Promise<void> {
    const session = this.sessionRef;
    if (!session) return Promise.resolve();
    return (this.sessionClosing ??= session.close().catch((e: unknown) => {
      this.opts.log.error(`closing session of backend ${this.processId}`, e);
    }));
  }

  /** Sends a FATAL error and closes (protocol violation, shutdown, idle timeout). */
  fatal(e: GatewayError): void {
    if (this.closed) return;
    this.w.abortMessage();
    msg.ErrorResponse(this.w, e.severity === 'FATAL' ? e : asFatal(e));
    const socket = this.socket;
    socket.end(this.w.take());
    setTimeout(() => socket.destroy(), 5000).unref(); // a client that does not read must not keep it open
    this.onClose();
  }

  flush(): Promise<void> {
    return this.flushNow() ?? Promise.resolve();
  }

  /** Writes what is buffered; a promise only when the socket is full and 'drain' must be awaited. */
  private flushNow(): Promise<void> | undefined {
    if (this.w.length === 0 || this.closed) return undefined;
    if (this.writeOut() || this.closed) return undefined;
    if (this.writer !== null) return this.writer.drained();
    return new Promise<void>((resolve) => {
      const wake = (): void => {
        this.socket.off('drain', wake);
        const i = this.drainWaiters.indexOf(wake);
        if (i >= 0) this.drainWaiters.splice(i, 1);
        resolve();
      };
      this.drainWaiters.push(wake);
      this.socket.on('drain', wake);
    });
  }

  /**
   * One socket write of everything buffered. On a plain socket the bytes go out without a copy: a socket
   * that passed them to the kernel at once (writableLength 0, the usual case) holds no reference, and the
   * buffer is reused; one that queued them keeps the view and the writer moves to a fresh buffer. TLS copies.
   * Past startup a plain socket writes through its libuv handle (socket-writer.ts: no Writable stream per write).
   */
  private writeOut(): boolean {
    if (this.writer !== null) {
      const outcome = this.writer.write(this.w.peek());
      this.w.release(outcome === WRITTEN);
      return outcome !== FULL;
    }
    if (this.ssl) return this.socket.write(this.w.take());
    const ok = this.socket.write(this.w.peek());
    this.w.release(this.socket.writableLength === 0);
    return ok;
  }

  flushIfFull(): Promise<void> | undefined {
    return this.w.length >= FLUSH_THRESHOLD ? this.flushNow() : undefined;
  }

  nextMessage(): Promise<FrontendMessage | null> {
    return this.queue.next();
  }

  private async run(): Promise<void> {
    // a client that never finishes the handshake must not hold the socket forever
    const authTimer = setTimeout(() => {
      this.onClose();
      this.socket.destroy();
    }, this.opts.authenticationTimeoutMs ?? 60_000);
    authTimer.unref();
    try {
      const startup = await this.startup();
      if (!startup) return;
      await this.begin(startup);
      clearTimeout(authTimer);
      await this.loop();
    } catch (e) {
      const ge = this.report(e);
      this.fatal(ge);
    } finally {
      clearTimeout(authTimer);
      await this.cleanup();
    }
  }

  /** Startup phase: SSLRequest / GSSENCRequest / CancelRequest until StartupMessage. */
  private async startup(): Promise<StartupMessage | null> {
    for (;;) {
      const m = await this.queue.next();
      if (m === null) return null;
      switch (m.type) {
        case 'SSLRequest':
        case 'GSSENCRequest': {
          if (this.queue.size > 0 || this.parser.pendingBytes > 0) {
            throw new GatewayError(SqlState.protocol_violation, `received unencrypted data after ${m.type === 'SSLRequest' ? 'SSL' : 'GSSAPI encryption'} request`, { severity: 'FATAL' });
          }
          if (m.type === 'SSLRequest' && this.opts.tls && !this.ssl) {
            this.raw.write('S');
            this.raw.off('data', this.onData);
            this.socket = upgradeToTls(this.raw, this.opts.tls, this.onData, () => this.onClose());
            this.ssl = true;
          } else {
            this.socket.write('N');
            this.socket.resume();
          }
          continue;
        }
        case 'CancelRequest':
          this.opts.cancelRegistry.cancel(m.processId, m.secretKey);
          this.socket.end();
          return null;
        case 'StartupMessage':
          return m;
        default:
          throw new GatewayError(SqlState.protocol_violation, 'unexpected message during startup', { severity: 'FATAL' });
      }
    }
  }

  /** Protocol version check, admission, authentication, handler session, greeting. */
  private async begin(m: StartupMessage): Promise<void> {
    const major = m.protocolVersion >>> 16;
    const minor = m.protocolVersion & 0xffff;
    if (major !== 3) {
      throw new GatewayError(SqlState.feature_not_supported, `unsupported frontend protocol ${major}.${minor}: server supports 3.0 to 3.0`, { severity: 'FATAL' });
    }
    const unrecognized = Object.keys(m.parameters).filter((k) => k.startsWith('_pq_.'));
    if (minor > 0 || unrecognized.length > 0) msg.NegotiateProtocolVersion(this.w, 0, unrecognized);
    const user = m.parameters['user'];
    if (!user) {
      throw new GatewayError(SqlState.invalid_authorization_specification, 'no PostgreSQL user name specified in startup packet', { severity: 'FATAL' });
    }
    const database = m.parameters['database'] || user;
    if (!(await this.opts.admit())) {
      throw new GatewayError(SqlState.too_many_connections, 'sorry, too many clients already', { severity: 'FATAL' });
    }
    this.admitted = true;
    const remoteAddress = this.raw.remoteAddress ?? '';
    await authenticate(this.opts.auth, { user, database, remoteAddress, ssl: this.ssl }, {
      send: async (write) => {
        write(this.w);
        await this.flush();
      },
      receive: async () => {
        const r = await this.queue.next();
        if (r === null) throw new ClientGone();
        if (r.type !== 'PasswordMessage') {
          throw new GatewayError(SqlState.protocol_violation, `expected password response, got message type ${'code' in r ? r.code : 0}`, { severity: 'FATAL' });
        }
        return r.data;
      },
    });
    const { processId, secretKey } = this.opts.cancelRegistry.allocate();
    this.processId = processId;
    msg.AuthenticationOk(this.w);
    let session: HandlerSession;
    try {
      session = await this.opts.handler.connect({
        user,
        database,
        parameters: expandStartupParameters(m.parameters),
        backendPid: processId,
        remoteAddress,
        remotePort: this.raw.remotePort ?? 0,
        localAddress: this.raw.localAddress ?? '',
        localPort: this.raw.localPort ?? 0,
        ssl: this.ssl,
      });
    } catch (e) {
      throw asFatal(toGatewayError(e));
    }
    this.sessionRef = session;
    if (this.closed) {
      await this.closeSession();
      return;
    }
    this.codec = withRenderText(this.opts.codec, session);
    session.onTerminate = () => this.fatal(new GatewayError(SqlState.admin_shutdown, 'terminating connection due to administrator command', { severity: 'FATAL' }));
    session.onNotice = (n) => {
      if (this.closed) return;
      msg.NoticeResponse(this.w, n);
      void this.flush(); // as PostgreSQL: a notice reaches the client right away
    };
    this.opts.cancelRegistry.register(processId, secretKey, session);
    for (const [k, v] of session.initialParameterStatus()) msg.ParameterStatus(this.w, k, v);
    msg.BackendKeyData(this.w, processId, secretKey);
    msg.ReadyForQuery(this.w, session.transactionStatus());
    await this.flush();
  }

  /**
   * Ready state: one message at a time, in order, driven by `pump`. Resolves when the connection ends (Terminate,
   * socket closed); rejects with a FATAL error.
   */
  private loop(): Promise<void> {
    // past startup no TLS upgrade can follow: a plain socket now reads into one reused buffer
    if (!this.ssl && !this.closed) {
      this.raw.off('data', this.onData);
      if (!readIntoReusedBuffer(this.raw, this.onBorrowedData)) this.raw.on('data', this.onData);
      this.writer = SocketWriter.for(this.raw);
    }
    const extended = new ExtendedQuery(this);
    this.extended = extended;
    if (this.sessionRef !== null) this.sessionRef.onDeallocate = (name) => extended.deallocate(name);
    return new Promise<void>((resolve, reject) => {
      this.loopEnd = { resolve, reject };
      this.pump();
    });
  }

  private extended: ExtendedQuery | null = null;
  /** after an error in an extended-query message: messages are skipped up to Sync */
  private skipToSync = false;
  /** messages received when the last Parse began: one received later may follow a commit the client saw since */
  private parseMark = -1;
  /** the loop has answered every queued message and waits for the next read (deliver() resumes it) */
  private parked = false;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private loopEnd: { resolve: () => void; reject: (e: unknown) => void } | null = null;

  /**
   * Answers queued messages in order. A message answered at once (the usual round trip: Bind/Execute/Sync of a
   * cached plan) costs no promise and no microtask turn: the read's delivery (after-reads.ts) runs this
   * synchronously when the loop was parked. A message that must wait hands the rest to its promise's
   * continuation; with the queue empty the loop parks until the next delivery.
   */
  private pump(): void {
    this.parked = false;
    if (this.idleTimer !== null) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    try {
      for (;;) {
        if (this.closed) return this.endLoop();
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
    const ms = this.opts.idleSessionTimeoutMs;
    if (ms && this.session.transactionStatus() === 'I') {
      this.idleTimer = setTimeout(() => {
        this.idleTimer = null;
        this.fatal(new GatewayError('57P05', 'terminating connection due to idle-session timeout', { severity: 'FATAL' }));
      }, ms);
    }
  }

  private endLoop(): void {
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
      this.sessionRef?.pipelineEnded?.();
    }
    if (this.skipToSync && m.type !== 'Sync' && m.type !== 'Terminate') return undefined;
    let r: Promise<void> | typeof END | undefined;
    try {
      r = this.dispatch(m, this.extended!);
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
        return this.flushNow();
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
    if (e instanceof ClientGone || this.closed) return END;
    const ge = this.report(e);
    if (ge.severity === 'FATAL' || ge.severity === 'PANIC') throw ge;
    this.w.abortMessage();
    msg.ErrorResponse(this.w, ge);
    this.sessionRef?.messageFailed?.();
    if (m.type === 'Query' || m.type === 'FunctionCall') return this.readyForQuery(this.extended!);
    this.skipToSync = true;
    // as PostgreSQL (elog.c send_message_to_frontend): an error is flushed at once, so a client that sent
    // Parse/Describe/Flush without Sync (asyncpg) sees it instead of waiting forever
    return this.flushNow();
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
    this.settingsCache = null;
    try {
      const sending = sendStatementResult(this, result);
      return sending === undefined ? undefined : sending.catch((e: unknown) => this.queryFailed(e));
    } catch (e) {
      this.queryFailed(e);
      return undefined;
    }
  }

  /** a statement's error: ErrorResponse (a FATAL one is rethrown: the connection ends) */
  private queryFailed(e: unknown): void {
    if (e instanceof ClientGone || this.closed) return;
    const ge = this.report(e);
    if (ge.severity === 'FATAL' || ge.severity === 'PANIC') throw ge;
    this.w.abortMessage();
    msg.ErrorResponse(this.w, ge);
    this.sessionRef?.messageFailed?.();
  }

  private async simpleQueryStream(sql: string): Promise<void> {
    let any = false;
    try {
      for await (const result of this.session.simpleQuery(sql)) {
        any = true;
        this.settingsCache = null;
        await sendStatementResult(this, result);
        if (this.closed) return;
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
    const ge = this.report(e);
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
    this.settingsCache = null;
    const changes = this.session.takeParameterChanges();
    for (let i = 0; i < changes.length; i++) msg.ParameterStatus(this.w, changes[i]![0], changes[i]![1]);
    msg.ReadyForQuery(this.w, status);
    return this.flushNow();
  }

  /** Turns any throwable into a GatewayError; non-gateway errors are bugs: logged with their stack. */
  private report(e: unknown): GatewayError {
    if (GatewayError.is(e)) return e;
    if (e instanceof ClientGone) return new GatewayError(SqlState.connection_exception, 'client gone', { severity: 'FATAL' });
    this.opts.log.error(`internal error on backend ${this.processId}`, e);
    return toGatewayError(e);
  }

  private async cleanup(): Promise<void> {
    this.onClose();
    if (!this.socket.destroyed) this.socket.end();
    if (this.processId) this.opts.cancelRegistry.unregister(this.processId);
    if (this.admitted) this.opts.release();
    await this.closeSession();
  }
}

/** a step's answer: the connection ends (Terminate, client gone) */
const END = Symbol('end');

/** The client closed the connection while we waited for it (e.g. psql re-prompting for a password). */
class ClientGone extends Error {}

function asFatal(e: GatewayError): GatewayError {
  if (e.severity === 'FATAL') return e;
  return new GatewayError(e.code, e.message, {
    severity: 'FATAL',
    ...(e.detail !== undefined && { detail: e.detail }),
    ...(e.hint !== undefined && { hint: e.hint }),
  });
}

/**
 * Text output and input of catalog-dependent types (regclass → name, name → regclass) come from the session,
 * the rest from pgtypes.
 */
function withRenderText(codec: ValueCodec, session: HandlerSession): ValueCodec {
  const render = session.renderText?.bind(session);
  const parse = session.parseText?.bind(session);
  if (render === undefined && parse === undefined) return codec;
  return {
    textOut: render === undefined ? codec.textOut : (oid, value, settings) => (REG_TYPE_OIDS.has(oid) ? render(oid, value) : null) ?? codec.textOut(oid, value, settings),
    textIn: parse === undefined ? codec.textIn : (oid, typmod, text, settings) => {
      const v = REG_TYPE_OIDS.has(oid) ? parse(oid, text) : undefined;
      return v === undefined ? codec.textIn(oid, typmod, text, settings) : v;
    },
    binaryOut: codec.binaryOut,
    binaryIn: codec.binaryIn,
  };
}

/** regproc 24, regprocedure 2202, regoper 2203, regoperator 2204, regclass 2205, regtype 2206, regconfig 3734, regdictionary 3769, regnamespace 4089, regrole 4096, regcollation 4191 */
// the reg* types and their arrays (regtype[] in pg_prepared_statements.parameter_types)
const REG_TYPE_OIDS: ReadonlySet<number> = new Set([24, 2202, 2203, 2204, 2205, 2206, 3734, 3769, 4089, 4096, 4191, 1008, 2207, 2208, 2209, 2210, 2211, 4090, 4097]);
