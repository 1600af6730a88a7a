/**
 * The GUCs (run-time settings) lakegate knows: their defaults, types, contexts and whether a change is
 * reported to the client with ParameterStatus (GUC_REPORT in PostgreSQL). pg_settings, SHOW, SET and
 * current_setting all read this table.
 * @see https://www.postgresql.org/docs/current/runtime-config.html
 */
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { findTimeZone } from '../common/pgtypes/timezone.ts';
import { normalizeDisabledRules } from '../exec/optimizer/rule-names.ts';
import { parseMemoryKb } from '../exec/memory/memory-units.ts';
import { DEFAULT_QUERY_MEMORY_KB, QUERY_MEMORY_LIMIT_SETTING, normalizeQueryMemoryLimit } from '../exec/memory/query-memory-limit.ts';
import { FILE_CACHE_SIZE_SETTING, defaultFileCacheKb } from '../iceberg/read/file-cache-setting.ts';

export type SettingType = 'bool' | 'integer' | 'real' | 'string' | 'enum';
export type SettingContext = 'internal' | 'postmaster' | 'sighup' | 'backend' | 'superuser' | 'user';

export interface SettingDef {
  /** canonical spelling, as SHOW ALL and ParameterStatus print it (case matters there: DateStyle, TimeZone) */
  readonly name: string;
  readonly type: SettingType;
  readonly defaultValue: string;
  readonly context: SettingContext;
  readonly category: string;
  readonly description: string;
  readonly unit?: string;
  readonly enumValues?: readonly string[];
  /** sent as ParameterStatus at startup and whenever it changes */
  readonly report?: boolean;
  /** turns user input into the canonical stored value; throws 22023 on bad input */
  readonly normalize?: (value: string) => string;
}

export const SERVER_VERSION = '15.18 (lakegate 0.1.0)';
export const SERVER_VERSION_NUM = '150018';

function invalidValue(name: string, value: string, hint?: string): never {
  throw pgError(SqlState.invalid_parameter_value, `invalid value for parameter "${name}": "${value}"`, hint === undefined ? {} : { hint });
}

const normalizeBool = (name: string) => (value: string): string => {
  const v = value.trim().toLowerCase();
  if (['on', 'true', 'yes', '1', 't', 'y'].includes(v)) return 'on';
  if (['off', 'false', 'no', '0', 'f', 'n'].includes(v)) return 'off';
  throw pgError(SqlState.invalid_parameter_value, `parameter "${name}" requires a Boolean value`);
};

const normalizeInt = (name: string, min: number, max: number) => (value: string): string => {
  const v = value.trim();
  const m = /^(-?\d+)\s*(ms|s|min|h|d|kB|MB|GB)?$/.exec(v);
  if (m === null) throw pgError(SqlState.invalid_parameter_value, `invalid value for parameter "${name}": "${value}"`);
  let n = Number(m[1]);
  const unit = m[2];
  if (unit === 's') n *= 1000;
  else if (unit === 'min') n *= 60_000;
  else if (unit === 'h') n *= 3_600_000;
  else if (unit === 'd') n *= 86_400_000;
  if (n < min || n > max) {
    throw pgError(SqlState.invalid_parameter_value, `${n} is outside the valid range for parameter "${name}" (${min} .. ${max})`);
  }
  return String(n);
};

const normalizeEnum = (name: string, values: readonly string[]) => (value: string): string => {
  const v = value.trim().toLowerCase();
  const found = values.find((e) => e.toLowerCase() === v);
  if (found === undefined) {
    invalidValue(name, value, `Available values: ${values.join(', ')}.`);
  }
  return found;
};

/** DateStyle: an output format and/or a field order; PostgreSQL keeps both halves. */
function normalizeDateStyle(value: string, current = 'ISO, MDY'): string {
  let [format, order] = current.split(',').map((s) => s.trim()) as [string, string];
  for (const raw of value.split(/[\s,]+/).filter((s) => s.length > 0)) {
    const part = raw.toUpperCase();
    if (part === 'ISO' || part === 'SQL' || part === 'POSTGRES' || part === 'GERMAN') {
      format = part === 'POSTGRES' ? 'Postgres' : part === 'GERMAN' ? 'German' : part;
    } else if (part === 'MDY' || part === 'DMY' || part === 'YMD') order = part;
    else if (part === 'US' || part === 'NONEURO' || part === 'NONEUROPEAN') order = 'MDY';
    else if (part === 'EURO' || part === 'EUROPEAN') order = 'DMY';
    else if (part === 'DEFAULT') {
      format = 'ISO';
      order = 'MDY';
    } else invalidValue('DateStyle', value, `Unrecognized key word: "${raw}".`);
  }
  return `${format}, ${order}`;
}

/**
 * TimeZone: an IANA name Intl knows, UTC aliases, a plain number of hours east, or a POSIX spec
 * ('UTC+3', '<+02>-02': sign west-positive), which PostgreSQL shows upper-cased. 'Z' is no zone name for
 * PostgreSQL (only a timestamp-input abbreviation), so SET rejects it.
 */
function normalizeTimeZone(value: string): string {
  const v = value.trim();
  if (/^(utc|gmt|etc\/utc|universal)$/i.test(v)) return v.toUpperCase() === 'ETC/UTC' ? 'Etc/UTC' : v.length <= 3 ? v.toUpperCase() : v;
  if (/^[+-]?\d{1,2}(:\d{2})?$/.test(v)) return v;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: v });
    return v;
  } catch {
    // not an IANA name: maybe POSIX
  }
  if (POSIX_ZONE.test(v) && findTimeZone(v) !== undefined) return v.toUpperCase();
  return invalidValue('TimeZone', value);
}

/** std name (3+ letters or <quoted>) followed by a UTC offset, no DST part */
const POSIX_ZONE = /^(<[^<>]+>|[A-Za-z]{3,})[+-]?\d{1,2}(:\d{2}){0,2}$/;

function normalizeEncoding(name: string) {
  return (value: string): string => {
    const v = value.trim().toUpperCase().replace(/[-_]/g, '');
    if (v === 'UTF8' || v === 'UNICODE') return 'UTF8';
    if (v === 'SQLASCII') return 'SQL_ASCII';
    throw pgError(SqlState.invalid_parameter_value, `invalid value for parameter "${name}": "${value}"`, {
      detail: 'lakegate speaks UTF8 only.',
    });
  };
}

const isolationLevels = ['serializable', 'repeatable read', 'read committed', 'read uncommitted'] as const;

export const SETTING_DEFS: readonly SettingDef[] = [
  { name: 'application_name', type: 'string', defaultValue: '', context: 'user', category: 'Reporting and Logging / What to Log', description: 'Sets the application name to be reported in statistics and logs.', report: true },
  { name: 'client_encoding', type: 'string', defaultValue: 'UTF8', context: 'user', category: 'Client Connection Defaults / Locale and Formatting', description: "Sets the client's character set encoding.", report: true, normalize: normalizeEncoding('client_encoding') },
  { name: 'server_encoding', type: 'string', defaultValue: 'UTF8', context: 'internal', category: 'Preset Options', description: 'Shows the server (database) character set encoding.', report: true },
  { name: 'DateStyle', type: 'string', defaultValue: 'ISO, MDY', context: 'user', category: 'Client Connection Defaults / Locale and Formatting', description: 'Sets the display format for date and time values.', report: true, normalize: (v) => normalizeDateStyle(v) },
  { name: 'IntervalStyle', type: 'enum', defaultValue: 'postgres', context: 'user', category: 'Client Connection Defaults / Locale and Formatting', description: 'Sets the display format for interval values.', report: true, enumValues: ['postgres', 'postgres_verbose', 'sql_standard', 'iso_8601'], normalize: normalizeEnum('IntervalStyle', ['postgres', 'postgres_verbose', 'sql_standard', 'iso_8601']) },
  { name: 'TimeZone', type: 'string', defaultValue: 'UTC', context: 'user', category: 'Client Connection Defaults / Locale and Formatting', description: 'Sets the time zone for displaying and interpreting time stamps.', report: true, normalize: normalizeTimeZone },
  { name: 'integer_datetimes', type: 'bool', defaultValue: 'on', context: 'internal', category: 'Preset Options', description: 'Shows whether datetimes are integer based.', report: true },
  { name: 'standard_conforming_strings', type: 'bool', defaultValue: 'on', context: 'user', category: 'Version and Platform Compatibility / Previous PostgreSQL Versions', description: "Causes '...' strings to treat backslashes literally.", report: true, normalize: normalizeBool('standard_conforming_strings') },
  { name: 'is_superuser', type: 'bool', defaultValue: 'on', context: 'internal', category: 'Preset Options', description: 'Shows whether the current user is a superuser.', report: true },
  { name: 'session_authorization', type: 'string', defaultValue: 'lakegate', context: 'user', category: 'Preset Options', description: 'Sets the session user name.', report: true },
  { name: 'default_transaction_read_only', type: 'bool', defaultValue: 'off', context: 'user', category: 'Client Connection Defaults / Statement Behavior', description: 'Sets the default read-only status of new transactions.', report: true, normalize: normalizeBool('default_transaction_read_only') },
  { name: 'in_hot_standby', type: 'bool', defaultValue: 'off', context: 'internal', category: 'Preset Options', description: 'Shows whether hot standby is currently active.', report: true },
  { name: 'server_version', type: 'string', defaultValue: SERVER_VERSION, context: 'internal', category: 'Preset Options', description: 'Shows the server version.', report: true },
  { name: 'server_version_num', type: 'integer', defaultValue: SERVER_VERSION_NUM, context: 'internal', category: 'Preset Options', description: 'Shows the server version as an integer.' },
  { name: 'search_path', type: 'string', defaultValue: '"$user", public', context: 'user', category: 'Client Connection Defaults / Statement Behavior', description: 'Sets the schema search order for names that are not schema-qualified.' },
  { name: 'statement_timeout', type: 'integer', defaultValue: '0', unit: 'ms', context: 'user', category: 'Client Connection Defaults / Statement Behavior', description: 'Sets the maximum allowed duration of any statement.', normalize: normalizeInt('statement_timeout', 0, 2147483647) },
  { name: 'idle_session_timeout', type: 'integer', defaultValue: '0', unit: 'ms', context: 'user', category: 'Client Connection Defaults / Statement Behavior', description: 'Sets the maximum allowed idle time between queries, when not in a transaction.', normalize: normalizeInt('idle_session_timeout', 0, 2147483647) },
  { name: 'idle_in_transaction_session_timeout', type: 'integer', defaultValue: '0', unit: 'ms', context: 'user', category: 'Client Connection Defaults / Statement Behavior', description: 'Sets the maximum allowed idle time between queries, when in a transaction.', normalize: normalizeInt('idle_in_transaction_session_timeout', 0, 2147483647) },
  { name: 'lock_timeout', type: 'integer', defaultValue: '0', unit: 'ms', context: 'user', category: 'Client Connection Defaults / Statement Behavior', description: 'Sets the maximum allowed duration of any wait for a lock.', normalize: normalizeInt('lock_timeout', 0, 2147483647) },
  { name: 'extra_float_digits', type: 'integer', defaultValue: '1', context: 'user', category: 'Client Connection Defaults / Locale and Formatting', description: 'Sets the number of digits displayed for floating-point values.', normalize: normalizeInt('extra_float_digits', -15, 3) },
  { name: 'bytea_output', type: 'enum', defaultValue: 'hex', context: 'user', category: 'Client Connection Defaults / Statement Behavior', description: 'Sets the output format for bytea.', enumValues: ['escape', 'hex'], normalize: normalizeEnum('bytea_output', ['escape', 'hex']) },
  { name: 'transaction_isolation', type: 'enum', defaultValue: 'read committed', context: 'user', category: 'Client Connection Defaults / Statement Behavior', description: "Sets the current transaction's isolation level.", enumValues: isolationLevels, normalize: normalizeEnum('transaction_isolation', isolationLevels) },
  { name: 'default_transaction_isolation', type: 'enum', defaultValue: 'read committed', context: 'user', category: 'Client Connection Defaults / Statement Behavior', description: 'Sets the transaction isolation level of each new transaction.', enumValues: isolationLevels, normalize: normalizeEnum('default_transaction_isolation', isolationLevels) },
  { name: 'transaction_read_only', type: 'bool', defaultValue: 'off', context: 'user', category: 'Client Connection Defaults / Statement Behavior', description: "Sets the current transaction's read-only status.", normalize: normalizeBool('transaction_read_only') },
  { name: 'default_transaction_deferrable', type: 'bool', defaultValue: 'off', context: 'user', category: 'Client Connection Defaults / Statement Behavior', description: 'Sets the default deferrable status of new transactions.', normalize: normalizeBool('default_transaction_deferrable') },
  { name: 'transaction_deferrable', type: 'bool', defaultValue: 'off', context: 'user', category: 'Client Connection Defaults / Statement Behavior', description: 'Whether to defer a read-only serializable transaction until it can be executed with no possible serialization failures.', normalize: normalizeBool('transaction_deferrable') },
  { name: 'max_identifier_length', type: 'integer', defaultValue: '63', context: 'internal', category: 'Preset Options', description: 'Shows the maximum identifier length.' },
  { name: 'max_index_keys', type: 'integer', defaultValue: '32', context: 'internal', category: 'Preset Options', description: 'Shows the maximum number of index keys.' },
  { name: 'max_function_args', type: 'integer', defaultValue: '100', context: 'internal', category: 'Preset Options', description: 'Shows the maximum number of function arguments.' },
  { name: 'block_size', type: 'integer', defaultValue: '8192', context: 'internal', category: 'Preset Options', description: 'Shows the size of a disk block.' },
  { name: 'max_connections', type: 'integer', defaultValue: '100', context: 'postmaster', category: 'Connections and Authentication / Connection Settings', description: 'Sets the maximum number of concurrent connections.' },
  { name: 'port', type: 'integer', defaultValue: '5433', context: 'postmaster', category: 'Connections and Authentication / Connection Settings', description: 'Sets the TCP port the server listens on.' },
  { name: 'listen_addresses', type: 'string', defaultValue: '127.0.0.1', context: 'postmaster', category: 'Connections and Authentication / Connection Settings', description: 'Sets the host name or IP address(es) to listen to.' },
  { name: 'ssl', type: 'bool', defaultValue: 'off', context: 'sighup', category: 'Connections and Authentication / SSL', description: 'Enables SSL connections.' },
  { name: 'password_encryption', type: 'enum', defaultValue: 'scram-sha-256', context: 'user', category: 'Connections and Authentication / Authentication', description: 'Chooses the algorithm for encrypting passwords.', enumValues: ['md5', 'scram-sha-256'] },
  { name: 'lc_collate', type: 'string', defaultValue: 'C', context: 'internal', category: 'Preset Options', description: 'Shows the collation order locale.' },
  { name: 'lc_ctype', type: 'string', defaultValue: 'C', context: 'internal', category: 'Preset Options', description: 'Shows the character classification and case conversion locale.' },
  { name: 'lc_messages', type: 'string', defaultValue: 'C', context: 'superuser', category: 'Client Connection Defaults / Locale and Formatting', description: 'Sets the language in which messages are displayed.' },
  { name: 'lc_monetary', type: 'string', defaultValue: 'C', context: 'user', category: 'Client Connection Defaults / Locale and Formatting', description: 'Sets the locale for formatting monetary amounts.' },
  { name: 'lc_numeric', type: 'string', defaultValue: 'C', context: 'user', category: 'Client Connection Defaults / Locale and Formatting', description: 'Sets the locale for formatting numbers.' },
  { name: 'lc_time', type: 'string', defaultValue: 'C', context: 'user', category: 'Client Connection Defaults / Locale and Formatting', description: 'Sets the locale for formatting date and time values.' },
  { name: 'client_min_messages', type: 'enum', defaultValue: 'notice', context: 'user', category: 'Client Connection Defaults / Statement Behavior', description: 'Sets the message levels that are sent to the client.', enumValues: ['debug5', 'debug4', 'debug3', 'debug2', 'debug1', 'log', 'notice', 'warning', 'error'], normalize: normalizeEnum('client_min_messages', ['debug5', 'debug4', 'debug3', 'debug2', 'debug1', 'log', 'notice', 'warning', 'error']) },
  { name: 'timezone_abbreviations', type: 'string', defaultValue: 'Default', context: 'user', category: 'Client Connection Defaults / Locale and Formatting', description: 'Selects a file of time zone abbreviations.' },
  { name: 'work_mem', type: 'integer', defaultValue: '4096', unit: 'kB', context: 'user', category: 'Resource Usage / Memory', description: 'Sets the maximum memory to be used for query workspaces.' },
  { name: 'maintenance_work_mem', type: 'integer', defaultValue: '65536', unit: 'kB', context: 'user', category: 'Resource Usage / Memory', description: 'Sets the maximum memory to be used for maintenance operations.' },
  { name: 'row_security', type: 'bool', defaultValue: 'on', context: 'user', category: 'Client Connection Defaults / Statement Behavior', description: 'Enable row security.', normalize: normalizeBool('row_security') },
  { name: 'jit', type: 'bool', defaultValue: 'off', context: 'user', category: 'Query Tuning / Other Planner Options', description: 'Allow JIT compilation.', normalize: normalizeBool('jit') },
  { name: 'synchronous_commit', type: 'enum', defaultValue: 'on', context: 'user', category: 'Write-Ahead Log / Settings', description: 'Sets the current transaction\'s synchronization level.', enumValues: ['local', 'remote_write', 'remote_apply', 'on', 'off'], normalize: normalizeEnum('synchronous_commit', ['local', 'remote_write', 'remote_apply', 'on', 'off']) },
  { name: 'array_nulls', type: 'bool', defaultValue: 'on', context: 'user', category: 'Version and Platform Compatibility / Previous PostgreSQL Versions', description: 'Enable input of NULL elements in arrays.', normalize: normalizeBool('array_nulls') },
  { name: 'backslash_quote', type: 'enum', defaultValue: 'safe_encoding', context: 'user', category: 'Version and Platform Compatibility / Previous PostgreSQL Versions', description: 'Sets whether "\\\'" is allowed in string literals.', enumValues: ['safe_encoding', 'on', 'off'] },
  { name: 'escape_string_warning', type: 'bool', defaultValue: 'on', context: 'user', category: 'Version and Platform Compatibility / Previous PostgreSQL Versions', description: 'Warn about backslash escapes in ordinary string literals.', normalize: normalizeBool('escape_string_warning') },
  { name: 'quote_all_identifiers', type: 'bool', defaultValue: 'off', context: 'user', category: 'Version and Platform Compatibility / Previous PostgreSQL Versions', description: 'When generating SQL fragments, quote all identifiers.', normalize: normalizeBool('quote_all_identifiers') },
  { name: 'check_function_bodies', type: 'bool', defaultValue: 'on', context: 'user', category: 'Client Connection Defaults / Statement Behavior', description: 'Check routine bodies during CREATE FUNCTION and CREATE PROCEDURE.', normalize: normalizeBool('check_function_bodies') },
  { name: 'default_tablespace', type: 'string', defaultValue: '', context: 'user', category: 'Client Connection Defaults / Statement Behavior', description: 'Sets the default tablespace to create tables and indexes in.' },
  { name: 'temp_tablespaces', type: 'string', defaultValue: '', context: 'user', category: 'Client Connection Defaults / Statement Behavior', description: 'Sets the tablespace(s) to use for temporary tables and sort files.' },
  { name: 'xmloption', type: 'enum', defaultValue: 'content', context: 'user', category: 'Client Connection Defaults / Statement Behavior', description: 'Sets whether XML data in implicit parsing and serialization operations is to be considered as documents or content fragments.', enumValues: ['content', 'document'] },
  { name: 'geqo', type: 'bool', defaultValue: 'on', context: 'user', category: 'Query Tuning / Genetic Query Optimizer', description: 'Enables genetic query optimization.', normalize: normalizeBool('geqo') },
  { name: 'enable_seqscan', type: 'bool', defaultValue: 'on', context: 'user', category: 'Query Tuning / Planner Method Configuration', description: "Enables the planner's use of sequential-scan plans.", normalize: normalizeBool('enable_seqscan') },
  { name: 'max_parallel_workers_per_gather', type: 'integer', defaultValue: '2', context: 'user', category: 'Resource Usage / Asynchronous Behavior', description: 'Sets the maximum number of parallel processes per executor node.', normalize: normalizeInt('max_parallel_workers_per_gather', 0, 1024) },
  { name: QUERY_MEMORY_LIMIT_SETTING, type: 'integer', defaultValue: String(DEFAULT_QUERY_MEMORY_KB), unit: 'kB', context: 'user', category: 'lakegate', description: 'Sets the maximum memory one query may hold in sorts, hash tables and other operator state.', normalize: normalizeQueryMemoryLimit },
  { name: FILE_CACHE_SIZE_SETTING, type: 'integer', defaultValue: String(defaultFileCacheKb()), unit: 'kB', context: 'superuser', category: 'lakegate', description: 'Sets the memory the server process may hold in decoded columns of small Iceberg data files (shared by all sessions; 0 = off).', normalize: (v) => String(parseMemoryKb(FILE_CACHE_SIZE_SETTING, v, 0)) },
  { name: 'lakegate.final_aggregate', type: 'enum', defaultValue: 'auto', context: 'user', category: 'lakegate', description: 'Where the final aggregate over partial aggregates from the scan workers runs: main (this thread), partitioned (partial states hash-partitioned across the workers), partitioned_rows (rows hash-partitioned across the workers, no partial states) or auto.', enumValues: ['auto', 'main', 'partitioned', 'partitioned_rows'], normalize: normalizeEnum('lakegate.final_aggregate', ['auto', 'main', 'partitioned', 'partitioned_rows']) },
  { name: 'lakegate.disabled_optimizer_rules', type: 'string', defaultValue: '', context: 'user', category: 'lakegate', description: 'Comma-separated names of optimizer rules to skip.', normalize: normalizeDisabledRules },
];

const BY_LOWER_NAME = new Map(SETTING_DEFS.map((d) => [d.name.toLowerCase(), d]));

/** PostgreSQL's alternate names for some settings. */
const ALIASES: Readonly<Record<string, string>> = { timezone: 'TimeZone', datestyle: 'DateStyle', intervalstyle: 'IntervalStyle' };

const BY_NAME = new Map(SETTING_DEFS.map((d) => [d.name, d]));

/** names looked up other than exactly as defined: their definition, null for none */
const OTHER_NAMES = new Map<string, SettingDef | null>();

export function findSettingDef(name: string): SettingDef | undefined {
  const exact = BY_NAME.get(name);
  if (exact !== undefined) return exact;
  // scans read placeholder settings (lakegate.late_materialization, …) by name per statement: misses memoized
  const known = OTHER_NAMES.get(name);
  if (known !== undefined) return known ?? undefined;
  const lower = name.toLowerCase();
  const def = BY_LOWER_NAME.get(Object.hasOwn(ALIASES, lower) ? ALIASES[lower]!.toLowerCase() : lower); // not ALIASES['constructor']
  if (OTHER_NAMES.size >= 1024) OTHER_NAMES.clear(); // names come from clients: bounded
  OTHER_NAMES.set(name, def ?? null);
  return def;
}

/** DateStyle's normalization depends on the current value (one half may be given alone). */
export function normalizeSettingValue(def: SettingDef, value: string, current: string): string {
  if (def.name === 'DateStyle') return normalizeDateStyle(value, current);
  if (def.normalize !== undefined) return def.normalize(value);
  // memory settings (work_mem = '8MB') are kept in kB, as PostgreSQL keeps them; SHOW adds the unit back
  if (def.unit === 'kB') return String(parseMemoryKb(def.name, value, MEMORY_MINIMUM_KB[def.name] ?? 0));
  return value;
}

/** PostgreSQL's minimums for the memory settings it range-checks */
const MEMORY_MINIMUM_KB: Readonly<Record<string, number>> = { work_mem: 64, maintenance_work_mem: 1024 };
