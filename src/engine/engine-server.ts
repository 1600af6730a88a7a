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
import type { IcebergTables } from './iceberg-tables.ts';

export class EngineServer {
  readonly sessions = new Map<number, EngineSession>();
  readonly startTime = BigInt(Date.now()) * 1000n;
  /** statement text → parse trees; parse trees are never mutated after parsing, so sessions share them */
  readonly parseCache = new LruCache<string, ParsedStatement[]>(1024);
  /** config `settings:`: every session starts from these (its startup parameters win), as from postgresql.conf */
  defaultSettings: Readonly<Record<string, string>> = {};
  /** statement text → its literal-normalised shape (literal-params.ts), null when it has none */
  readonly literalShapes = new LruCache<string, LiteralNormalised | null>(1024);
  private readonly catalogs = new Map<string, DatabaseCatalog>();
  /** per database: its Iceberg catalog mirrored into the DatabaseCatalog (absent without a warehouse) */
  readonly iceberg = new Map<string, IcebergTables>();
  private readonly oids = new OidAllocator();
  private version = 0;

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
}
