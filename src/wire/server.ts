/**
 * PgWireServer: accepts TCP connections (and Unix-domain socket ones: listenUnix) and runs one PgConnection each.
 * Owns what is shared between connections: max_connections (→ FATAL 53300), the cancel registry (CancelRequest
 * from a second connection), the TLS context, and graceful close (stop accepting, end every session with 57P01).
 * @see https://www.postgresql.org/docs/current/protocol-flow.html
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { SecureContext } from 'node:tls';
import { GatewayError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { AuthConfig } from './auth/authenticator.ts';
import { CancelRegistry } from './cancel-registry.ts';
import { PgConnection } from './connection.ts';
import type { ValueCodec } from './encode/value-codec.ts';
import type { QueryHandler } from './handler.ts';
import { isUnixSocket, UnixSocketListeners } from './unix-socket-listeners.ts';
import { consoleLogger, type WireLogger } from './wire-logger.ts';

export interface PgWireServerOptions {
  readonly handler: QueryHandler;
  readonly codec: ValueCodec;
  /** default: method scram-sha-256, no users (so trust for loopback only) */
  readonly auth?: AuthConfig;
  /** TLS for SSLRequest; without it SSLRequest is answered 'N' */
  readonly tls?: SecureContext;
  /** default 100 */
  readonly maxConnections?: number;
  /** idle_session_timeout in ms; 0/undefined = off */
  readonly idleSessionTimeoutMs?: number;
  readonly maxMessageLength?: number;
  /** startup + authentication deadline in ms (default 60 000) */
  readonly authenticationTimeoutMs?: number;
  readonly log?: WireLogger;
  /**
   * One of several server processes (src/server/cluster/): this process's pid range and where CancelRequests
   * for other pids go; `admit` / `release` count connections server-wide (max_connections) instead of here.
   */
  readonly cluster?: {
    readonly pidRange: { readonly first: number; readonly size: number };
    forwardCancel(processId: number, secretKey: number): void;
    admit(): Promise<boolean>;
    release(): void;
  };
}

export class PgWireServer {
  private readonly server: Server;
  private readonly connections = new Set<PgConnection>();
  private readonly sockets = new Set<Socket>();
  private readonly cancelRegistry: CancelRegistry;
  private active = 0;
  private closing = false;
  private unixListeners: UnixSocketListeners | null = null;

  constructor(private readonly options: PgWireServerOptions) {
    const cluster = options.cluster;
    this.cancelRegistry = new CancelRegistry(cluster === undefined ? {} : { pidRange: cluster.pidRange, forward: (pid, key) => cluster.forwardCancel(pid, key) });
    this.server = createServer((socket) => this.accept(socket));
    this.server.on('error', (e) => this.log.error('server error', e));
  }

  private get log(): WireLogger {
    return this.options.log ?? consoleLogger;
  }

  /** connections that passed startup and hold a slot */
  get connectionCount(): number {
    return this.active;
  }

  /** a CancelRequest another process received for one of this process's sessions */
  cancelLocal(processId: number, secretKey: number): boolean {
    return this.cancelRegistry.cancel(processId, secretKey);
  }

  listen(port: number, host = '127.0.0.1'): Promise<{ port: number; host: string }> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        const addr = this.server.address();
        resolve({ port: typeof addr === 'object' && addr ? addr.port : port, host });
      });
    });
  }

  /**
   * Also listens on `<dir>/.s.PGSQL.<port>` in each directory (PostgreSQL's unix_socket_directories), the TCP
   * port's number; answers the socket paths. `dataDir` goes into the lock files. Call after listen().
   */
  async listenUnix(dirs: readonly string[], port: number, dataDir: string): Promise<string[]> {
    if (dirs.length === 0) return [];
    const listeners = await UnixSocketListeners.open(dirs, port, (socket) => this.accept(socket), {
      dataDir,
      onError: (e) => this.log.error('server error', e),
      warn: (m) => this.log.warn(`WARNING: ${m}`),
    });
    if (this.closing) {
      await listeners.close();
      return [];
    }
    this.unixListeners = listeners;
    return listeners.paths;
  }

  /**
   * Runs a connection on `socket`: the ones this server's listener accepts, and in a server process of
   * `processes: N` the ones the primary accepted and handed over (src/server/cluster/).
   */
  accept(socket: Socket): void {
    if (this.closing) {
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    const max = this.options.maxConnections ?? 100;
    const conn = new PgConnection(socket, {
      handler: this.options.handler,
      unixSocket: isUnixSocket(socket),
      codec: this.options.codec,
      auth: this.options.auth ?? { method: 'scram-sha-256', users: [] },
      cancelRegistry: this.cancelRegistry,
      log: this.log,
      ...(this.options.tls && { tls: this.options.tls }),
      ...(this.options.maxMessageLength !== undefined && { maxMessageLength: this.options.maxMessageLength }),
      ...(this.options.idleSessionTimeoutMs !== undefined && { idleSessionTimeoutMs: this.options.idleSessionTimeoutMs }),
      ...(this.options.authenticationTimeoutMs !== undefined && { authenticationTimeoutMs: this.options.authenticationTimeoutMs }),
      admit: async () => {
        if (this.closing || this.active >= max) return false;
        this.active++;
        if (this.options.cluster !== undefined && !(await this.options.cluster.admit())) {
          this.active--;
          return false;
        }
        return true;
      },
      release: () => {
        this.active--;
        this.options.cluster?.release();
      },
    });
    this.connections.add(conn);
    void conn.finished.finally(() => this.connections.delete(conn));
  }

  /** Stops accepting, ends every session (FATAL 57P01) and waits for them to finish. */
  async close(): Promise<void> {
    this.closing = true;
    // the socket files go before the TCP port is free (unix-socket-listeners.ts close)
    const unixStopped = this.unixListeners?.close();
    const stopped = new Promise<void>((resolve) => this.server.close(() => resolve()));
    const shutdown = new GatewayError(SqlState.admin_shutdown, 'terminating connection due to administrator command', { severity: 'FATAL' });
    for (const c of this.connections) c.fatal(shutdown);
    const done = Promise.all([...this.connections].map((c) => c.finished));
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, 2000).unref());
    await Promise.race([done, timeout]);
    for (const s of this.sockets) s.destroy();
    await stopped;
    await unixStopped;
  }
}
