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
 * Past startup, one loop per connection (message-loop.ts) answers parsed messages in order, so pipelined messages
 * are answered in order. Output goes through one BufferWriter flushed at ReadyForQuery, PortalSuspended, Flush and
 * big batches.
 * @see https://www.postgresql.org/docs/current/protocol-flow.html
 */
import type { Socket } from 'node:net';
import type { SecureContext, TLSSocket } from 'node:tls';
import { GatewayError, toGatewayError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { authenticate, type AuthConfig } from './auth/authenticator.ts';
import type { CancelRegistry } from './cancel-registry.ts';
import type { ValueCodec } from './encode/value-codec.ts';
import type { HandlerSession, OutputSettings, QueryHandler } from './handler.ts';
import { MessageQueue } from './message-queue.ts';
import { ClientGone, MessageLoop, type LoopHost } from './message-loop.ts';
import * as msg from './protocol/backend-serializer.ts';
import { BufferWriter } from './protocol/buffer-writer.ts';
import type { FrontendMessage, StartupMessage } from './protocol/frontend-messages.ts';
import { FrontendParser } from './protocol/frontend-parser.ts';
import { afterReads, writeAfterDeliveries } from './after-reads.ts';
import { HeldMessages } from './held-messages.ts';
import { noteRead } from './read-clock.ts';
import { readIntoReusedBuffer } from './socket-reader.ts';
import { FULL, SocketWriter, WRITTEN } from './socket-writer.ts';
import { expandStartupParameters } from './startup-options.ts';
import { upgradeToTls } from './tls-upgrade.ts';
import type { WireLogger } from './wire-logger.ts';

const FLUSH_THRESHOLD = 64 * 1024;
/**
 * LAKEGATE_WIRE_BURST=on: a delivery run's answers leave in one burst at its end (after-reads.ts). Off by default:
 * a quiet A/B (session 27, pgbench TCP, two rounds a side) showed no TPS gain — lakegate-p1 within noise, -p2's
 * lookups 10–20 % lower — though pgbench's CPU per transaction fell.
 */
let burstWrites = process.env['LAKEGATE_WIRE_BURST'] === 'on';

/** turns burst writes on or off in this process (its tests, and an in-process A/B) */
export function setBurstWrites(on: boolean): void {
  burstWrites = on;
}

export interface ConnectionOptions {
  readonly handler: QueryHandler;
  readonly codec: ValueCodec;
  readonly auth: AuthConfig;
  readonly cancelRegistry: CancelRegistry;
  readonly log: WireLogger;
  /** present when TLS is configured: SSLRequest is answered 'S' (not on a Unix-domain socket, as PostgreSQL) */
  readonly tls?: SecureContext;
  /** the client came over a Unix-domain socket: SSLRequest is answered 'N', there is no peer address */
  readonly unixSocket?: boolean;
  readonly maxMessageLength?: number;
  readonly idleSessionTimeoutMs?: number;
  /** startup + authentication must finish within this time (PostgreSQL's authentication_timeout); default 60 s */
  readonly authenticationTimeoutMs?: number;
  /** asked once StartupMessage arrived; false → FATAL 53300 */
  readonly admit: () => boolean | Promise<boolean>;
  readonly release: () => void;
}

export class PgConnection implements LoopHost {
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
    // a failed write destroys the socket at once, its 'close' event comes a tick later: the loop stops now, as
    // PostgreSQL's ClientConnectionLost does, instead of answering the rest of a pipeline to nobody
    return this.closed || this.socket.destroyed;
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
    const held = this.held;
    const before = held.count;
    try {
      this.parser.parseInto(chunk, borrowed, held);
      if (held.count === before) return;
      // stop reading raw bytes until the loop answered: TLS bytes must not reach the parser (startup packets only
      // come before the loop runs)
      if (this.messageLoop === null) {
        for (let i = before; i < held.count; i++) {
          const type = held.at(i).type;
          if (type === 'SSLRequest' || type === 'GSSENCRequest') this.socket.pause();
        }
      }
      // the poll's first read with messages asks for the delivery; later ones add to what it will deliver
      if (before === 0) afterReads(this.deliver);
    } catch (e) {
      // nothing of a broken stream is delivered (a delivery already asked for finds the connection closed)
      held.clear();
      this.fatal(toGatewayError(e));
    }
  }

  /** messages parsed from this poll's reads, not yet queued (one list, reused) */
  private readonly held = new HeldMessages();

  private readonly deliver = (): void => {
    const held = this.held;
    if (held.count === 0) return;
    if (this.closed) return held.clear();
    for (let i = 0; i < held.count; i++) this.queue.push(held.at(i));
    held.clear();
    // a parked loop answers them here and now (no promise, no microtask turn per round trip)
    const loop = this.messageLoop;
    if (loop !== null && loop.parked) loop.pump();
  };

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.end();
    for (const wake of this.drainWaiters.splice(0)) wake();
    this.writer?.wakeAll();
    if (this.messageLoop?.parked === true) this.messageLoop.endLoop();
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

  /**
   * Writes what is buffered; a promise only when the socket is full and 'drain' must be awaited. Inside a
   * delivery run a plain socket's write waits for the run's end (after-reads.ts writeAfterDeliveries), so every
   * answer of the run leaves in one burst; a write that then finds the socket full is awaited by the next flush.
   */
  flushNow(): Promise<void> | undefined {
    if (this.w.length === 0 || this.closed) return undefined;
    // (a pipeline's answers past the flush threshold go now: the buffer stays bounded, backpressure per write)
    if (this.writer !== null && burstWrites && this.w.length < FLUSH_THRESHOLD && !this.heldWriteFull) {
      if (this.writeHeld) return undefined;
      if (writeAfterDeliveries(this.writeHeldOut)) {
        this.writeHeld = true;
        return undefined;
      }
    }
    return this.writeNow();
  }

  /** a flush asked for during a delivery run is waiting for the run's end */
  private writeHeld = false;
  /**
   * the held write found the socket full: nobody awaited it, so the next flush writes at once and awaits the
   * drain (as the flush itself would have): a client that does not read stops being answered, as before
   */
  private heldWriteFull = false;
  private readonly writeHeldOut = (): void => {
    this.writeHeld = false;
    if (this.w.length > 0 && !this.closed && !this.writeOut()) this.heldWriteFull = true;
  };

  private writeNow(): Promise<void> | undefined {
    this.heldWriteFull = false;
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
    // a full buffer goes out at once (with any held answer before it in the buffer): backpressure stays per write
    return this.w.length >= FLUSH_THRESHOLD && !this.closed ? this.writeNow() : undefined;
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
          if (m.type === 'SSLRequest' && this.opts.tls && !this.ssl && this.opts.unixSocket !== true) {
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
    // SCRAM-SHA-256-PLUS binds to the certificate this TLS connection presented
    const serverCertificate = this.ssl ? ((this.socket as TLSSocket).getCertificate() as { raw?: Buffer } | null)?.raw : undefined;
    await authenticate(this.opts.auth, { user, database, remoteAddress, ssl: this.ssl, ...(serverCertificate === undefined ? {} : { serverCertificate }) }, {
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
    const loop = new MessageLoop(this, this.queue, this.opts.idleSessionTimeoutMs);
    this.messageLoop = loop;
    if (this.sessionRef !== null) this.sessionRef.onDeallocate = (name) => loop.extended.deallocate(name);
    return loop.run();
  }

  /** the Ready state's loop (message-loop.ts); null until startup and authentication are done */
  private messageLoop: MessageLoop | null = null;

  /** the session's output settings are read again at next use (a statement or ReadyForQuery may have changed them) */
  settingsChanged(): void {
    this.settingsCache = null;
  }

  /** Turns any throwable into a GatewayError; non-gateway errors are bugs: logged with their stack. */
  report(e: unknown): GatewayError {
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
