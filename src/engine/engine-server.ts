/**
 * EngineServer: state shared by all sessions of one lakegate process — databases and their catalogs,
 * the system catalog, the function registry, the live sessions (pg_stat_activity, pg_cancel_backend)
 * and a catalog version that invalidates cached plans after DDL.
 */
import type { LiteralNormalised } from './literal-params.ts';
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { FunctionRegistry } from '../functions/index.ts';
import { DatabaseCatalog, OidAllocator } from './database-catalog.ts';
import type { SystemCatalog } from './session-catalog.ts';
import type { EngineSession } from './engine-session.ts';
import type { ParsedStatement } from '../sql/index.ts';
import { LruCache } from './lru-cache.ts';
import { StatementShapes } from './statement-shapes.ts';
import type { IcebergTables } from './iceberg-tables.ts';
import type { SessionSummary } from '../catalog/session-view.ts';

/**
 * The other lakegate processes of a `processes: N` server (src/server/cluster/): their sessions for
 * pg_stat_activity, and pg_cancel_backend / pg_terminate_backend of a pid that lives there.
 */
export interface ClusterPeers {
  /** how many server processes share the warehouse (this one included) */
  readonly processes: number;
  /** where this process's txid_current() values start: a range no other process (or earlier fork) uses */
  readonly firstXid?: bigint;
  /** the other processes' sessions, as last gathered */
  sessions(): readonly SessionSummary[];
  /** re-gathers them (one round trip through the primary, bounded in time) */
  gather(): Promise<void>;
  /** asks the owner of `pid` to cancel / terminate it; false when no known peer session has that pid */
  cancel(pid: number): boolean;
  terminate(pid: number): boolean;
  /** called once by the engine: what the peers may ask of this process */
  serve(local: LocalSessions): void;
}

/** this process's side of ClusterPeers: its sessions, and cancel / terminate of one of them */
export interface LocalSessions {
  sessions(): SessionSummary[];
  cancel(pid: number): boolean;
  terminate(pid: number): boolean;
}

/** statements that read other sessions: only these wait for a gather from the peers */
const READS_SESSIONS = /pg_stat_activity|pg_stat_get_activity|pg_(?:cancel|terminate)_backend/i;

export class EngineServer {
  readonly sessions = new Map<number, EngineSession>();
  readonly startTime = BigInt(Date.now()) * 1000n;
  /** statement text → parse trees; parse trees are never mutated after parsing, so sessions share them */
  readonly parseCache = new LruCache<string, ParsedStatement[]>(1024);
  /** config `settings:`: every session starts from these (its startup parameters win), as from postgresql.conf */
  defaultSettings: Readonly<Record<string, string>> = {};
  /** statement text → its literal-normalised shape (literal-params.ts), null when it has none */
  readonly literalShapes = new LruCache<string, LiteralNormalised | null>(1024);
  /** simple-protocol SELECTs by text skeleton: a new integer constant reuses a parse (statement-shapes.ts) */
  readonly statementShapes = new StatementShapes();
  private readonly catalogs = new Map<string, DatabaseCatalog>();
  /** per database: its Iceberg catalog mirrored into the DatabaseCatalog (absent without a warehouse) */
  readonly iceberg = new Map<string, IcebergTables>();
  private readonly oids = new OidAllocator();
  private version = 0;
  /** txid_current(): one counter per process (per server in tests), ranges kept apart across processes */
  private nextXid = 1000n;
  /** set when this process is one of several serving the warehouse */
  peers: ClusterPeers | null = null;

  constructor(
    databaseNames: readonly string[],
    readonly system: SystemCatalog,
    readonly functions: FunctionRegistry,
    readonly serverVersion: string,
    readonly defaultOwner = 'lakegate',
  ) {
    let dbOid = 16384 - databaseNames.length - 1;
    for (const name of databaseNames) this.catalogs.set(name, new DatabaseCatalog(name, dbOid++, this.oids, defaultOwner));
  }

  databaseNames(): string[] {
    return [...this.catalogs.keys()];
  }

  database(name: string): DatabaseCatalog {
    const db = this.catalogs.get(name);
    if (db === undefined) throw pgError(SqlState.invalid_catalog_name, `database "${name}" does not exist`, { severity: 'FATAL' });
    return db;
  }

  /** bumped by DDL so that cached plans are rebound */
  get catalogVersion(): number {
    return this.version;
  }

  catalogChanged(): void {
    this.version++;
  }

  /** joins a multi-process server: peers' sessions become visible, memory relations are refused */
  attachPeers(peers: ClusterPeers): void {
    this.peers = peers;
    if (peers.firstXid !== undefined) this.nextXid = peers.firstXid;
    peers.serve({ sessions: () => this.localSessions(), cancel: (pid) => this.cancelLocal(pid), terminate: (pid) => this.terminateLocal(pid) });
    if (peers.processes > 1) for (const db of this.catalogs.values()) db.localRelationsRefused = true;
  }

  /** where txid_current() values start (the server sets the clock's: ids keep growing across restarts) */
  startXidsAt(first: bigint): void {
    this.nextXid = first;
  }

  /** a new transaction id (txid_current() of a transaction that has none yet) */
  allocateXid(): bigint {
    return this.nextXid++;
  }

  /** how many processes serve the warehouse: objects held in one process's memory are refused when > 1 */
  get processes(): number {
    return this.peers?.processes ?? 1;
  }

  /**
   * before a statement: one that reads other sessions first gathers the peers' (multi-process only); a
   * promise only then, so that the other statements do not await per statement
   */
  beforeStatement(text: string): Promise<void> | undefined {
    return this.peers !== null && READS_SESSIONS.test(text) ? this.peers.gather() : undefined;
  }

  /** pg_stat_activity rows of this process's sessions */
  localSessions(): SessionSummary[] {
    return [...this.sessions.values()].map((s) => ({
      pid: s.info.backendPid,
      user: s.info.user,
      database: s.info.database,
      applicationName: s.settings.get('application_name') ?? '',
      clientAddr: s.info.remoteAddress,
      clientPort: s.info.remotePort,
      backendStart: s.backendStart,
      xactStart: s.tx.inBlock ? s.tx.startedAt : s.active ? s.queryStart : null,
      queryStart: s.queryStart,
      state: s.active ? 'active' : s.tx.status === 'T' ? 'idle in transaction' : s.tx.status === 'E' ? 'idle in transaction (aborted)' : 'idle',
      query: s.currentQuery,
    }));
  }

  /** every session of the server, other processes' included */
  allSessions(): SessionSummary[] {
    const local = this.localSessions();
    return this.peers === null ? local : [...local, ...this.peers.sessions()];
  }

  /** pg_cancel_backend: a session here, else one of a peer process */
  cancelBackend(pid: number): boolean {
    return this.cancelLocal(pid) || (this.peers?.cancel(pid) ?? false);
  }

  /** pg_terminate_backend: a session here, else one of a peer process */
  terminateBackend(pid: number): boolean {
    return this.terminateLocal(pid) || (this.peers?.terminate(pid) ?? false);
  }

  private cancelLocal(pid: number): boolean {
    const s = this.sessions.get(pid);
    s?.cancel();
    return s !== undefined;
  }

  private terminateLocal(pid: number): boolean {
    const s = this.sessions.get(pid);
    if (s === undefined) return false;
    s.terminated = true;
    s.cancel();
    s.onTerminate?.();
    return true;
  }
}
