/**
 * Server configuration: a zod schema with defaults, read from a YAML file, LAKEGATE_* environment
 * variables and CLI flags. Precedence: CLI flags > environment > file > defaults.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

const UserSchema = z
  .object({
    name: z.string().min(1),
    password: z.string().optional(),
    /** a SCRAM-SHA-256 verifier (`lakegate scram-verifier`), or an MD5 secret `md5` + md5(password + name) as pg_authid keeps it */
    verifier: z.string().regex(/^(SCRAM-SHA-256\$|md5[0-9a-f]{32}$)/, 'a SCRAM-SHA-256$… verifier or md5 and 32 hex digits').optional(),
  })
  .strict();

export const ConfigSchema = z
  .object({
    host: z.string().default('127.0.0.1'),
    port: z.coerce.number().int().min(0).max(65535).default(5433),
    /**
     * PostgreSQL's unix_socket_directories: comma-separated directories for `.s.PGSQL.<port>` (the TCP port's
     * number), where psql / libpq / pgbench look without a host; '' = TCP only. Default /tmp, PostgreSQL's own
     * (none on Windows, as PostgreSQL's Windows builds).
     */
    unix_socket_directories: z.string().default(process.platform === 'win32' ? '' : '/tmp'),
    warehouse: z.string().default('./warehouse'),
    databases: z.array(z.string().min(1)).min(1).default(['lakegate']),
    /**
     * method for users listed with a password; unlisted users: trust from loopback only. md5: MD5 challenge for
     * users with an MD5 secret or a password, SCRAM for those with a SCRAM verifier (PostgreSQL's pg_hba md5)
     */
    auth: z.enum(['trust', 'password', 'md5', 'scram-sha-256']).default('scram-sha-256'),
    users: z.array(UserSchema).default([]),
    /** PEM file paths; absent = SSLRequest answered 'N' */
    tls: z.object({ cert: z.string(), key: z.string() }).strict().nullable().default(null),
    max_connections: z.coerce.number().int().positive().default(100),
    /** milliseconds; 0 = off */
    idle_session_timeout: z.coerce.number().int().min(0).default(0),
    /**
     * server processes sharing the port (node:cluster), each with its own event loop; > 1 needs every shared
     * object to live in the Iceberg catalog (memory tables and views are refused with 0A000)
     */
    processes: z.coerce.number().int().min(1).max(200).default(1),
    /** worker threads decoding Parquet for scans (src/iceberg/parallel); absent = os.availableParallelism(), 0 = main thread only */
    workers: z.coerce.number().int().min(0).max(256).optional(),
    server_version: z.string().default('15.18 (lakegate 0.1.0)'),
    /** Iceberg SQL catalog database: SQLite file path or postgresql:// URI; default <warehouse>/lakegate_catalog.db */
    catalog_uri: z.string().optional(),
    /** REST catalog (catalog_uri http(s)://…): static bearer token, or OAuth2 client credentials `id:secret` */
    catalog_token: z.string().min(1).optional(),
    catalog_credential: z.string().min(1).optional(),
    /** location prefix rewrites `FROM=TO` for relocated tables (every path a table holds) */
    path_map: z.array(z.string().regex(/^[^=]+=.+$/, 'expected FROM=TO')).default([]),
    s3: z
      .object({
        endpoint: z.string().optional(),
        region: z.string().optional(),
        force_path_style: z.coerce.boolean().optional(),
        access_key_id: z.string().optional(),
        secret_access_key: z.string().optional(),
      })
      .strict()
      .default({}),
    /** Iceberg REST catalog server port (same host; every database is a catalog, prefix = its name); absent = off */
    rest_port: z.coerce.number().int().min(0).max(65535).optional(),
    /** bearer token the REST catalog server requires (absent = no auth) */
    rest_token: z.string().min(1).optional(),
    /** create the deterministic sample lakehouse (Iceberg namespace `sample`) at start when it is missing */
    sample_data: z.coerce.boolean().default(true),
    /** its size: 1 ≈ 1.08 million rows (rows scale linearly); `lakegate sample --scale N` rebuilds it */
    sample_scale: z.coerce.number().positive().max(1000).default(1),
    /** server-wide defaults of session settings, as postgresql.conf sets them (work_mem, TimeZone, lakegate.*) */
    settings: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).default({}),
  })
  .strict();

export type Config = z.infer<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;

/** Flags the CLI understands (all optional; they win over everything). */
export interface ConfigFlags {
  readonly config?: string;
  readonly host?: string;
  readonly port?: string | number;
  /** --unix-socket-directories DIRS ('' = none) */
  readonly unixSocketDirectories?: string;
  readonly warehouse?: string;
  readonly pathMap?: readonly string[];
  readonly restPort?: string | number;
  /** --workers N: scan worker threads (0 = none) */
  readonly workers?: string | number;
  /** --processes N: server processes (node:cluster) */
  readonly processes?: string | number;
  /** --no-sample: false */
  readonly sample?: boolean;
  readonly sampleScale?: string | number;
}

/** LAKEGATE_* variables → config fields. */
export function configFromEnv(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const set = (name: string, key: string, map: (v: string) => unknown = (v) => v): void => {
    const v = env[name];
    if (v !== undefined && v !== '') out[key] = map(v);
  };
  set('LAKEGATE_HOST', 'host');
  set('LAKEGATE_PORT', 'port');
  // '' is meaningful here (no Unix sockets), unlike the other variables
  if (env['LAKEGATE_UNIX_SOCKET_DIRECTORIES'] !== undefined) out['unix_socket_directories'] = env['LAKEGATE_UNIX_SOCKET_DIRECTORIES'];
  set('LAKEGATE_WAREHOUSE', 'warehouse');
  set('LAKEGATE_DATABASES', 'databases', (v) => v.split(',').map((s) => s.trim()).filter(Boolean));
  set('LAKEGATE_AUTH', 'auth');
  set('LAKEGATE_MAX_CONNECTIONS', 'max_connections');
  set('LAKEGATE_IDLE_SESSION_TIMEOUT', 'idle_session_timeout');
  set('LAKEGATE_WORKERS', 'workers');
  set('LAKEGATE_PROCESSES', 'processes');
  set('LAKEGATE_SERVER_VERSION', 'server_version');
  set('LAKEGATE_CATALOG_URI', 'catalog_uri');
  set('LAKEGATE_CATALOG_TOKEN', 'catalog_token');
  set('LAKEGATE_CATALOG_CREDENTIAL', 'catalog_credential');
  set('LAKEGATE_REST_PORT', 'rest_port');
  set('LAKEGATE_REST_TOKEN', 'rest_token');
  set('LAKEGATE_PATH_MAP', 'path_map', (v) => v.split(',').map((x) => x.trim()).filter(Boolean));
  const s3: Record<string, unknown> = {};
  if (env['LAKEGATE_S3_ENDPOINT']) s3['endpoint'] = env['LAKEGATE_S3_ENDPOINT'];
  if (env['LAKEGATE_S3_REGION']) s3['region'] = env['LAKEGATE_S3_REGION'];
  if (env['LAKEGATE_S3_FORCE_PATH_STYLE']) s3['force_path_style'] = !['0', 'false', 'off', 'no'].includes(env['LAKEGATE_S3_FORCE_PATH_STYLE'].toLowerCase());
  if (env['LAKEGATE_S3_ACCESS_KEY_ID']) s3['access_key_id'] = env['LAKEGATE_S3_ACCESS_KEY_ID'];
  if (env['LAKEGATE_S3_SECRET_ACCESS_KEY']) s3['secret_access_key'] = env['LAKEGATE_S3_SECRET_ACCESS_KEY'];
  if (Object.keys(s3).length > 0) out['s3'] = s3;
  set('LAKEGATE_SAMPLE_DATA', 'sample_data', (v) => !['0', 'false', 'off', 'no'].includes(v.toLowerCase()));
  set('LAKEGATE_SAMPLE', 'sample_data', (v) => !['0', 'false', 'off', 'no'].includes(v.toLowerCase()));
  set('LAKEGATE_SAMPLE_SCALE', 'sample_scale');
  if (env['LAKEGATE_TLS_CERT'] && env['LAKEGATE_TLS_KEY']) out['tls'] = { cert: env['LAKEGATE_TLS_CERT'], key: env['LAKEGATE_TLS_KEY'] };
  return out;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Validates a config object (defaults filled in); throws ConfigError with every problem listed. */
export function parseConfig(input: unknown, source = 'configuration'): Config {
  const r = ConfigSchema.safeParse(input ?? {});
  if (r.success) return r.data;
  const problems = r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  throw new ConfigError(`invalid ${source}: ${problems}`);
}

/** Loads the effective config: defaults < file (flags.config or LAKEGATE_CONFIG) < env < flags. */
export async function loadConfig(flags: ConfigFlags = {}, env: NodeJS.ProcessEnv = process.env): Promise<Config> {
  const path = flags.config ?? env['LAKEGATE_CONFIG'];
  let file: Record<string, unknown> = {};
  if (path) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      throw new ConfigError(`could not read config file "${path}": ${(e as Error).message}`);
    }
    const doc: unknown = parseYaml(text);
    if (doc !== null && doc !== undefined && (typeof doc !== 'object' || Array.isArray(doc))) {
      throw new ConfigError(`invalid config file "${path}": expected a mapping at the top level`);
    }
    file = (doc ?? {}) as Record<string, unknown>;
  }
  const cli: Record<string, unknown> = {};
  if (flags.host !== undefined) cli['host'] = flags.host;
  if (flags.port !== undefined) cli['port'] = flags.port;
  if (flags.unixSocketDirectories !== undefined) cli['unix_socket_directories'] = flags.unixSocketDirectories;
  if (flags.warehouse !== undefined) cli['warehouse'] = flags.warehouse;
  if (flags.restPort !== undefined) cli['rest_port'] = flags.restPort;
  if (flags.workers !== undefined) cli['workers'] = flags.workers;
  if (flags.processes !== undefined) cli['processes'] = flags.processes;
  if (flags.sample !== undefined) cli['sample_data'] = flags.sample;
  if (flags.sampleScale !== undefined) cli['sample_scale'] = flags.sampleScale;
  if (flags.pathMap !== undefined && flags.pathMap.length > 0) cli['path_map'] = [...flags.pathMap];
  return parseConfig({ ...file, ...configFromEnv(env), ...cli }, path ? `config file "${path}"` : 'configuration');
}
