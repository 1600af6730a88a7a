/**
 * SessionView: what functions and system tables may read of (and do to) a session:
 * settings (current_setting/set_config/pg_settings), identity, and the server's other sessions
 * (pg_stat_activity, pg_cancel_backend, pg_terminate_backend).
 */
export interface SettingInfo {
  readonly name: string;
  readonly setting: string;
  readonly unit: string | null;
  readonly category: string;
  readonly shortDesc: string;
  readonly context: string; // internal | postmaster | sighup | backend | superuser | user
  readonly vartype: string; // bool | integer | real | string | enum
  readonly source: string; // default | session | client | override | configuration file
  readonly enumvals: readonly string[] | null;
  readonly bootVal: string;
  readonly resetVal: string;
}

export interface SessionSummary {
  readonly pid: number;
  readonly user: string;
  readonly database: string;
  readonly applicationName: string;
  readonly clientAddr: string;
  readonly clientPort: number;
  readonly backendStart: bigint; // µs since epoch
  readonly xactStart: bigint | null;
  readonly queryStart: bigint | null;
  readonly state: 'active' | 'idle' | 'idle in transaction' | 'idle in transaction (aborted)';
  readonly query: string;
}

/** one row of pg_cursors: a cursor open in this session */
export interface CursorSummary {
  readonly name: string;
  readonly statement: string;
  readonly isHoldable: boolean;
  readonly isBinary: boolean;
  readonly isScrollable: boolean;
  readonly creationTime: bigint; // µs since epoch
}

/** one row of pg_prepared_statements: a prepared statement of this session */
export interface PreparedStatementSummary {
  readonly name: string;
  readonly statement: string;
  readonly prepareTime: bigint; // µs since epoch
  /** OIDs of the parameter types (as inferred) */
  readonly parameterTypes: readonly number[];
  /** true for SQL PREPARE, false for the protocol's Parse */
  readonly fromSql: boolean;
}

export interface SessionView {
  readonly user: string;
  readonly database: string;
  readonly backendPid: number;
  readonly serverStartTime: bigint; // µs since epoch
  readonly localAddress: string;
  readonly localPort: number;
  /** the schemas of search_path that exist, in order, as current_schemas(false) returns them */
  searchPath(): readonly string[];
  /** the stored value (kB / ms numbers for unit settings); throws 42704 `unrecognized configuration parameter "x"` unless missingOk */
  getSetting(name: string, missingOk?: boolean): string | null;
  /** optional: grows with every change of any setting, so a reader may keep what it derived from them until it moves */
  readonly settingsVersion?: number;
  /** the value as SHOW / current_setting print it (with units: `4MB`, `30s`); getSetting is the stored value */
  showSetting?(name: string, missingOk?: boolean): string | null;
  /** set_config(name, value, isLocal): returns the new value */
  setSetting(name: string, value: string, isLocal: boolean): string;
  settings(): readonly SettingInfo[];
  sessions(): readonly SessionSummary[];
  /** pg_cancel_backend / pg_terminate_backend: true if a session with that pid existed */
  cancelBackend(pid: number): boolean;
  terminateBackend(pid: number): boolean;
  /** txid_current(): allocates an id for the current transaction if it has none */
  currentTransactionId(): bigint;
  /** pg_cursors (optional: sessions without cursors show none) */
  cursors?(): readonly CursorSummary[];
  /** pg_prepared_statements (optional: sessions without prepared statements show none) */
  preparedStatements?(): readonly PreparedStatementSummary[];
}
