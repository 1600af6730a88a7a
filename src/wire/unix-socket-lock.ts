/**
 * The interlock PostgreSQL keeps beside each Unix-domain socket: `<dir>/.s.PGSQL.<port>.lock`, created exclusively,
 * its first line the owner's pid (then data dir, start time, port, socket dir — the postmaster's layout, so a
 * PostgreSQL started on the same directory and port refuses to take the socket over, and we refuse its).
 * A lock whose pid no longer runs is stale (a crash): it is removed, and so is the socket file it guarded —
 * bind() would fail on it otherwise.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/init/miscinit.c (CreateLockFile)
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** sun_path is 108 bytes on Linux, with the terminating NUL (PostgreSQL's UNIXSOCK_PATH_BUFLEN) */
const MAX_SOCKET_PATH_BYTES = 107;

/** PostgreSQL's socket file name for a port: the name every libpq client looks for */
export function unixSocketPath(dir: string, port: number): string {
  return join(dir, `.s.PGSQL.${port}`);
}

/** another live server holds the socket: PostgreSQL stops (FATAL) on this one, whatever the other directories do */
export class SocketInUseError extends Error {
  override name = 'SocketInUseError';
}

/** lock paths this process holds: a lock carrying our own pid is live only if we took it (else pid reuse) */
const heldHere = new Set<string>();

export interface SocketLock {
  readonly socketPath: string;
  readonly lockPath: string;
  /** removes the socket file and the lock (at shutdown) */
  release(): void;
}

/**
 * Takes the lock for `dir`'s socket of `port` and clears any leftover socket file. Throws with PostgreSQL's
 * wording when another live process holds it or the path does not fit a socket address.
 */
export function lockUnixSocket(dir: string, port: number, owner: { readonly dataDir: string }): SocketLock {
  const socketPath = unixSocketPath(dir, port);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    throw new Error(`Unix-domain socket path "${socketPath}" is too long (maximum ${MAX_SOCKET_PATH_BYTES} bytes)`);
  }
  const lockPath = `${socketPath}.lock`;
  const content = `${process.pid}\n${owner.dataDir}\n${Math.floor(Date.now() / 1000)}\n${port}\n${dir}\n`;
  // a stale lock removed by us may be re-created by a rival between our unlink and open: try again, as PostgreSQL
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = openSync(lockPath, 'wx', 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 100) throw lockError(lockPath, e);
      const pid = lockOwner(lockPath, socketPath);
      if (pid !== null && isLive(pid, lockPath)) {
        throw new SocketInUseError(`lock file "${lockPath}" already exists; is another server (PID ${pid}) using socket file "${socketPath}"?`);
      }
      removeIfPresent(lockPath);
      continue;
    }
    try {
      writeSync(fd, content);
    } finally {
      closeSync(fd);
    }
    break;
  }
  heldHere.add(lockPath);
  // we hold the interlock: a socket file still there is a crashed server's (PostgreSQL's RemoveSocketFiles rule)
  removeIfPresent(socketPath);
  let released = false;
  return {
    socketPath,
    lockPath,
    release: () => {
      if (released) return;
      released = true;
      removeIfPresent(socketPath);
      removeIfPresent(lockPath);
      heldHere.delete(lockPath);
    },
  };
}

/**
 * The pid on the lock's first line; null when the file is gone (a rival removed it: try again). An empty lock or
 * one without a pid refuses the start, as PostgreSQL's: a server may be between creating and writing it.
 */
function lockOwner(lockPath: string, socketPath: string): number | null {
  let text: string;
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw lockError(lockPath, e);
  }
  if (text.length === 0) {
    throw new SocketInUseError(
      `lock file "${lockPath}" is empty: either another server is starting, or the lock file is the remnant of a ` +
        `previous server startup crash (remove it if no server uses socket file "${socketPath}")`,
    );
  }
  const pid = Number.parseInt(text.split('\n', 1)[0] ?? '', 10);
  if (!Number.isFinite(pid) || pid === 0) {
    throw new SocketInUseError(`bogus data in lock file "${lockPath}": "${text.split('\n', 1)[0]}"`);
  }
  // PostgreSQL writes a backend's pid negated
  return Math.abs(pid);
}

function isLive(pid: number, lockPath: string): boolean {
  if (pid === process.pid) return heldHere.has(lockPath);
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists (another user's)
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

function lockError(lockPath: string, e: unknown): Error {
  return new Error(`could not create lock file "${lockPath}": ${(e as Error).message}`);
}
