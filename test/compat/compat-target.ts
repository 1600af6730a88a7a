/**
 * Which server a compat client runs against, and whether it runs at all:
 * - PG_COMPAT=1: the throwaway PostgreSQL (validates the client scripts themselves);
 * - otherwise lakegate, but only for clients listed in test/compat/enabled.json (or all with
 *   LAKEGATE_COMPAT_ALL=1, or a comma list in LAKEGATE_COMPAT=psql,node-pg);
 * - a client that is not installed is skipped with the reason in the test title.
 * Each client gets its own schema (compat_<id>) holding the fixture of ./fixture.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { startTarget, targetName, type TestTarget } from '../helpers/test-target.ts';
import { fixtureStatements } from './fixture.ts';

export const CLIENT_IDS = ['psql', 'node-pg', 'postgres-js', 'psycopg2', 'psycopg3', 'asyncpg', 'sqlalchemy', 'pandas', 'jdbc', 'odbc'] as const;
export type ClientId = (typeof CLIENT_IDS)[number];

/** Debian's python, where the python3-* packages install (a pyenv python3 may come first on PATH). */
export const SYSTEM_PYTHON = '/usr/bin/python3';
export const PG_JDBC_JAR = '/usr/share/java/postgresql.jar';
export const PSQLODBC_DRIVER = '/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so';

function enabledOnLakegate(id: ClientId): boolean {
  if (process.env.LAKEGATE_COMPAT_ALL === '1') return true;
  const fromEnv = (process.env.LAKEGATE_COMPAT ?? '').split(',').map((s) => s.trim());
  if (fromEnv.includes(id)) return true;
  const file = new URL('./enabled.json', import.meta.url);
  const list = (JSON.parse(readFileSync(file, 'utf8')) as { lakegate?: string[] }).lakegate ?? [];
  return list.includes(id);
}

export function pythonHas(modules: readonly string[]): string | null {
  if (!existsSync(SYSTEM_PYTHON)) return `${SYSTEM_PYTHON} not found`;
  const r = spawnSync(SYSTEM_PYTHON, ['-c', modules.map((m) => `import ${m}`).join('; ')], { encoding: 'utf8' });
  return r.status === 0 ? null : `python module(s) ${modules.join(', ')} not installed for ${SYSTEM_PYTHON} (${r.stderr.trim().split('\n').pop()})`;
}

export function commandExists(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/** Why this client does not run in this mode, or null if it runs. `missing` says why it is not installed. */
export function skipReason(id: ClientId, missing: string | null): string | null {
  if (targetName() === 'lakegate' && !enabledOnLakegate(id)) {
    return `not enabled against lakegate (test/compat/enabled.json); PG_COMPAT=1 runs it against PostgreSQL`;
  }
  if (missing) {
    // visible in the run's output, not only in the skipped test's title
    console.warn(`[compat] ${id} skipped: client not installed: ${missing}`);
    return `client not installed: ${missing}`;
  }
  return null;
}

export interface CompatEnv {
  readonly target: TestTarget;
  readonly schema: string;
  /** env for the client process: PGHOST/PGPORT/PGUSER/PGDATABASE, COMPAT_URL, COMPAT_SCHEMA, COMPAT_TARGET, COMPAT_NO_INDEX */
  readonly env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

/** Starts (or reuses) the target and creates the client's fixture schema. */
export async function prepareCompat(id: ClientId): Promise<CompatEnv> {
  const target = await startTarget();
  const schema = `compat_${id.replace(/-/g, '_')}`;
  const client = new pg.Client({ connectionString: target.url });
  const refused = new Set<string>();
  try {
    await client.connect();
    for (const stmt of fixtureStatements(schema)) {
      try {
        await client.query(stmt.sql);
      } catch (e) {
        if (!stmt.optional || (e as { code?: string }).code !== '0A000') throw e;
        console.warn(`[compat] ${id}: ${target.name} refused an optional fixture statement (${(e as Error).message}); checks needing it are skipped`);
        refused.add(stmt.optional);
      }
    }
  } catch (e) {
    await target.close();
    throw e;
  } finally {
    await client.end().catch(() => {});
  }
  const u = new URL(target.url);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PGHOST: u.hostname,
    PGPORT: u.port,
    PGUSER: decodeURIComponent(u.username) || 'postgres',
    PGDATABASE: u.pathname.slice(1) || 'postgres',
    PGCONNECT_TIMEOUT: '10',
    COMPAT_URL: target.url,
    COMPAT_SCHEMA: schema,
    COMPAT_TARGET: target.name,
    ...(refused.has('index') && { COMPAT_NO_INDEX: '1' }),
  };
  delete env.PGPASSWORD;
  return {
    target,
    schema,
    env,
    close: async () => {
      const c = new pg.Client({ connectionString: target.url });
      await c.connect().then(() => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)).catch(() => {});
      await c.end().catch(() => {});
      await target.close();
    },
  };
}

/**
 * Runs a client process; resolves with its output, rejects with stdout+stderr when it fails. Asynchronous on
 * purpose: lakegate runs in this very process, so a blocking spawnSync would stop it from answering.
 */
export function runClient(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = 90_000, cwd?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const output = (): string => `${stdout}${stderr ? `\n[stderr]\n${stderr}` : ''}`;
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} ${args.join(' ')}: ${e.message}\n${output()}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output());
      else reject(new Error(`${cmd} ${args.join(' ')} exited ${code ?? signal}${signal === 'SIGKILL' ? ` (timeout ${timeoutMs} ms?)` : ''}\n${output()}`));
    });
  });
}
