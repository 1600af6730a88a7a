/**
 * A throwaway PostgreSQL for tests and benchmarks: the oracle of PG_COMPAT runs, compat clients and pgbench.
 *
 * `PG_TEST_URL` wins when set (nothing is started or stopped). Otherwise: initdb (trust, UTF8, C.UTF-8 or C)
 * in a temp dir, `pg_ctl start` on a free 127.0.0.1 port with the socket in that dir and fsync off.
 * PostgreSQL refuses to run as root, so as root every binary runs through `runuser -u postgres` and the
 * dir is chowned to that user. The cluster is stopped by stop(), by process exit hooks, and by a
 * detached watchdog if the test process is killed outright.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** the Unix socket dir (-k), or null for PG_TEST_URL */
  readonly socketDir: string | null;
  /** the server log file, or null for PG_TEST_URL */
  readonly logFile: string | null;
  /** the bin dir of the binaries used (psql, pgbench…), or null if none was found */
  readonly binDir: string | null;
  stop(): Promise<void>;
}

export interface PgClusterOptions {
  /** extra `-c name=value` server settings, e.g. { log_statement: 'all' } */
  readonly settings?: Readonly<Record<string, string>>;
}

/** Highest-versioned /usr/lib/postgresql/N/bin holding initdb, or PG_BIN_DIR. */
export function findPgBinDir(): string | null {
  const fromEnv = process.env.PG_BIN_DIR;
  if (fromEnv && existsSync(join(fromEnv, 'initdb'))) return fromEnv;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

/** A port that was free a moment ago (the kernel picks it). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** uid/gid of the account PostgreSQL runs as when we are root. */
function serviceAccount(): { user: string; uid: number; gid: number } {
  const user = process.env.PG_TEST_OS_USER ?? 'postgres';
  const id = (flag: string): number =>
    Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
  try {
    return { user, uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error(
      `running as root, PostgreSQL needs a non-root OS user "${user}" (create it: useradd -r -M ${user})`,
    );
  }
}

/** Run a PG binary, through runuser when we are root. */
function runPg(binDir: string, bin: string, args: string[], asUser: string | null) {
  const exe = join(binDir, bin);
  const [cmd, argv] = asUser ? ['runuser', ['-u', asUser, '--', exe, ...args]] : [exe, args];
  return spawnSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
}

export async function startPgCluster(options: PgClusterOptions = {}): Promise<PgCluster> {
  const given = process.env.PG_TEST_URL;
  if (given) {
    const u = new URL(given);
    return {
      url: given,
      host: u.hostname,
      port: Number(u.port || 5432),
      socketDir: null,
      logFile: null,
      binDir: findPgBinDir(),
      stop: async () => {},
    };
  }
  const binDir = findPgBinDir();
  if (!binDir) throw new Error('no PostgreSQL binaries in /usr/lib/postgresql/*/bin (set PG_TEST_URL or PG_BIN_DIR)');

  const account = isRoot() ? serviceAccount() : null;
  const dir = mkdtempSync(join(tmpdir(), 'lgpg-'));
  if (account) chownSync(dir, account.uid, account.gid);
  const dataDir = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  const asUser = account?.user ?? null;

  const initArgs = ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'];
  let init = runPg(binDir, 'initdb', [...initArgs, '--locale=C.UTF-8'], asUser);
  if (init.status !== 0) {
    rmSync(dataDir, { recursive: true, force: true });
    init = runPg(binDir, 'initdb', [...initArgs, '--locale=C'], asUser);
  }
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr || init.error?.message}`);
  }

  const stopSync = (): void => {
    if (existsSync(join(dataDir, 'postmaster.pid'))) {
      runPg(binDir, 'pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate', '-w'], asUser);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  let port = 0;
  let lastError = '';
  for (let attempt = 0; attempt < 5; attempt++) {
    port = await freePort();
    const settings: Record<string, string> = {
      listen_addresses: '127.0.0.1',
      fsync: 'off',
      full_page_writes: 'off',
      synchronous_commit: 'off',
      max_connections: '100',
      ...options.settings,
    };
    const opts = [`-p ${port}`, `-k ${dir}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)];
    const start = runPg(binDir, 'pg_ctl', ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', opts.join(' ')], asUser);
    if (start.status === 0) {
      lastError = '';
      break;
    }
    lastError = `${start.stderr}\n${existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-2000) : ''}`;
  }
  if (lastError) {
    stopSync();
    throw new Error(`pg_ctl start failed: ${lastError}`);
  }
  await waitReady(binDir, port, dir, asUser);

  const watchdog = spawnWatchdog(binDir, dataDir, dir, asUser);
  const onExit = (): void => {
    try {
      stopSync();
    } catch {
      /* exiting anyway */
    }
  };
  const onSignal = (sig: NodeJS.Signals): void => {
    onExit();
    process.kill(process.pid, sig);
  };
  process.once('exit', onExit);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(sig, onSignal);

  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    host: '127.0.0.1',
    port,
    socketDir: dir,
    logFile,
    binDir,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      process.removeListener('exit', onExit);
      for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.removeListener(sig, onSignal);
      stopSync();
      watchdog?.kill();
    },
  };
}

async function waitReady(binDir: string, port: number, dir: string, asUser: string | null): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const r = runPg(binDir, 'pg_isready', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres'], asUser);
    if (r.status === 0) return;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`PostgreSQL on port ${port} (dir ${dir}) did not become ready`);
}

/** Stops the cluster if this process dies without running its exit hooks (SIGKILL, OOM). */
function spawnWatchdog(binDir: string, dataDir: string, dir: string, asUser: string | null) {
  const pgCtl = join(binDir, 'pg_ctl');
  const stopCmd = asUser
    ? `runuser -u ${asUser} -- ${pgCtl} stop -D ${dataDir} -m immediate`
    : `${pgCtl} stop -D ${dataDir} -m immediate`;
  const script = `while kill -0 ${process.pid} 2>/dev/null && [ -d ${dir} ]; do sleep 2; done; if [ -f ${dataDir}/postmaster.pid ]; then ${stopCmd} >/dev/null 2>&1; fi; rm -rf ${dir}`;
  try {
    const child = spawn('bash', ['-c', script], { detached: true, stdio: 'ignore' });
    child.unref();
    return child;
  } catch {
    return null;
  }
}

let shared: Promise<PgCluster> | null = null;

/**
 * The cluster shared by this process: the one globalSetup started (PG_TEST_URL is set for workers
 * through LAKEGATE_SHARED_PG_URL), else one started on first use and stopped at exit.
 */
export function sharedPgCluster(): Promise<PgCluster> {
  const fromSetup = process.env.LAKEGATE_SHARED_PG_URL;
  if (fromSetup && !process.env.PG_TEST_URL) process.env.PG_TEST_URL = fromSetup;
  shared ??= startPgCluster();
  return shared;
}
