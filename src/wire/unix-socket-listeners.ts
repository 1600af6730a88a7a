/**
 * Listening on Unix-domain sockets the way PostgreSQL's `unix_socket_directories` does: one socket per directory,
 * `<dir>/.s.PGSQL.<port>` with the TCP listener's port, so libpq clients (psql, pgbench, psycopg) reach the server
 * with `-h <dir>` or by default. Each socket is world-connectable (unix_socket_permissions 0777) and guarded by its
 * lock file (unix-socket-lock.ts); both files go at close.
 * @see https://www.postgresql.org/docs/current/runtime-config-connection.html#GUC-UNIX-SOCKET-DIRECTORIES
 */
import { createServer, type Server, type Socket } from 'node:net';
import { lockUnixSocket, SocketInUseError, type SocketLock } from './unix-socket-lock.ts';

/** `unix_socket_directories` as PostgreSQL reads it: comma-separated, blanks trimmed, empty entries skipped */
export function parseSocketDirectories(setting: string): string[] {
  return setting.split(',').map((d) => d.trim()).filter((d) => d !== '');
}

export class UnixSocketListeners {
  private readonly servers: Server[] = [];
  private readonly locks: SocketLock[] = [];

  private constructor() {}

  /**
   * Listens in every directory; `accept` gets each connection (`pauseOnConnect`: nothing read before it).
   * As PostgreSQL's postmaster: a directory where the socket cannot be made is skipped with a warning, and
   * the start fails only when none could be made, or when another live server holds one (its lock file).
   */
  static async open(dirs: readonly string[], port: number, accept: (socket: Socket) => void, options: { readonly dataDir: string; readonly pauseOnConnect?: boolean; readonly onError?: (e: Error) => void; readonly warn?: (message: string) => void }): Promise<UnixSocketListeners> {
    const set = new UnixSocketListeners();
    let firstProblem: Error | null = null;
    for (const dir of dirs) {
      let lock: SocketLock | null = null;
      try {
        lock = lockUnixSocket(dir, port, options);
        set.servers.push(await listenOn(lock.socketPath, accept, options));
        set.locks.push(lock);
      } catch (e) {
        lock?.release();
        if (e instanceof SocketInUseError) {
          await set.close();
          throw e;
        }
        firstProblem ??= e as Error;
        options.warn?.(`could not create Unix-domain socket in directory "${dir}": ${(e as Error).message}`);
      }
    }
    if (set.servers.length === 0 && firstProblem !== null) {
      throw new Error(`could not create any Unix-domain sockets: ${firstProblem.message}`);
    }
    return set;
  }

  /** the socket files, in the order of the directories */
  get paths(): string[] {
    return this.locks.map((l) => l.socketPath);
  }

  /**
   * Stops accepting and removes the socket and lock files at once (synchronously, before the first await: a
   * caller closing its TCP listener after this frees the port only once the files are gone, so no server
   * started later on that port meets them). Resolves when the sockets' connections ended (those are the caller's).
   */
  close(): Promise<void> {
    const closed = this.servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())));
    this.servers.length = 0;
    for (const lock of this.locks) lock.release();
    this.locks.length = 0;
    return Promise.all(closed).then(() => undefined);
  }
}

async function listenOn(path: string, accept: (socket: Socket) => void, options: { readonly pauseOnConnect?: boolean; readonly onError?: (e: Error) => void }): Promise<Server> {
  const server = createServer({ pauseOnConnect: options.pauseOnConnect ?? false }, accept);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ path, readableAll: true, writableAll: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  if (options.onError !== undefined) server.on('error', options.onError);
  return server;
}

/** a connection over a Unix-domain socket (Node gives it a Pipe handle): no TLS, no peer address */
export function isUnixSocket(socket: Socket): boolean {
  const handle = (socket as unknown as { _handle?: { constructor?: { name?: string } } | null })._handle;
  return handle?.constructor?.name === 'Pipe';
}
