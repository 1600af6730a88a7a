/**
 * engine: implements wire's QueryHandler (parse → bind → plan → execute, plus session statements).
 * Public surface of the module; the composition root (server/) calls createQueryEngine.
 */
import { SessionSettings } from './session-settings.ts';
import type { HandlerSession, QueryHandler, StartupInfo } from '../wire/handler.ts';
import type { ColumnDef } from '../catalog/table-source.ts';
import { batchFromRows } from '../common/batch.ts';
import { initParser } from '../sql/index.ts';
import { getDefaultRegistry } from '../functions/index.ts';
import { createSystemRelations, systemSchemas, registerPgCatalog } from '../pgcatalog/index.ts';
import { EngineServer, type ClusterPeers } from './engine-server.ts';
import { EngineSession } from './engine-session.ts';
import { MemoryTable } from './memory-table.ts';
import { SERVER_VERSION } from './settings.ts';
import { IcebergTables } from './iceberg-tables.ts';
import { icebergViewSource } from './view-source.ts';
import { FileIO, type PathMapEntry, type S3Config } from '../storage/index.ts';
import { openSqlCatalog, type IcebergCatalog } from '../catalog/iceberg/index.ts';
import { openRestCatalog } from '../catalog/rest/index.ts';
import { readMetadataText } from '../catalog/rest-server/load-table-result.ts';
import { icebergIOFromFileIO, writableIcebergIO } from '../iceberg/index.ts';

export { SERVER_VERSION } from './settings.ts';
export type { ClusterPeers, LocalSessions } from './engine-server.ts';

export interface EngineOptions {
  /** database names served; the first is the default. Each is one Iceberg catalog (catalog_name). */
  readonly databases: readonly string[];
  readonly serverVersion?: string;
  /** warehouse root (local folder or s3:// URI); without it, only in-memory tables exist */
  readonly warehouse?: string;
  /**
   * The Iceberg catalog: a SQLite file path or postgresql:// URI (embedded SQL catalog; default a SQLite file
   * in the warehouse), or an http(s):// Iceberg REST catalog (each database = the REST warehouse of that name)
   */
  readonly catalogUri?: string;
  /** REST catalog auth: a static bearer token, or OAuth2 client credentials `id:secret` */
  readonly catalogToken?: string;
  readonly catalogCredential?: string;
  /** location prefix rewrites (`FROM=TO`) for tables whose files moved */
  readonly pathMap?: readonly PathMapEntry[];
  readonly s3?: S3Config;
  /** Iceberg writes roll data files at this many (uncompressed) bytes; default 48 MiB (DEFAULT_TARGET_FILE_SIZE) */
  readonly icebergTargetFileSizeBytes?: number;
  /** server-wide defaults of session settings (config `settings:`); a client's startup parameters win */
  readonly settings?: Readonly<Record<string, string>>;
  /** this process is one of several serving the warehouse (src/server/cluster/) */
  readonly peers?: ClusterPeers;
  /** the first txid_current() value (peers bring their own); default 1000 */
  readonly firstXid?: bigint;
}

export interface QueryEngine extends QueryHandler {
  close(): Promise<void>;
  /** test and sample-data hook: a table held in memory in `database`.`schema` */
  registerMemoryTable(database: string, schema: string, name: string, columns: readonly ColumnDef[], rows: readonly (readonly unknown[])[], primaryKey?: readonly number[]): Promise<void>;
  /** the Iceberg catalog of `database` (undefined without a warehouse or for an unknown database); the REST server serves it */
  icebergCatalog?(database: string): IcebergCatalog | undefined;
  /** the FileIO Iceberg files are read through */
  fileIO?(): FileIO;
  /** after a change to `database`'s Iceberg catalog made outside the engine (REST server): refresh the mirror now */
  icebergCatalogChanged?(database: string): Promise<void>;
}

/** the catalog of one database: REST when the URI is http(s), else the embedded SQL catalog */
async function openCatalog(options: EngineOptions, database: string, fileIO: FileIO): Promise<IcebergCatalog> {
  const uri = options.catalogUri;
  if (uri !== undefined && /^https?:\/\//i.test(uri)) {
    return openRestCatalog({
      uri,
      warehouse: database,
      name: database,
      ...(options.catalogToken === undefined ? {} : { token: options.catalogToken }),
      ...(options.catalogCredential === undefined ? {} : { credential: options.catalogCredential }),
      readMetadata: (location) => readMetadataText({ read: (l) => fileIO.read(l) }, location),
    });
  }
  return openSqlCatalog({ catalogName: database, warehouse: options.warehouse, ...(uri === undefined ? {} : { uri }) });
}

export async function createQueryEngine(options: EngineOptions): Promise<QueryEngine> {
  await initParser();
  const functions = getDefaultRegistry();
  registerPgCatalog(functions);
  const system = { schemas: systemSchemas(), relations: createSystemRelations({ functions }) };
  const server = new EngineServer(options.databases.length > 0 ? options.databases : ['lakegate'], system, functions, options.serverVersion ?? SERVER_VERSION);
  server.defaultSettings = checkedDefaultSettings(options.settings ?? {});
  if (options.firstXid !== undefined) server.startXidsAt(options.firstXid);
  if (options.peers !== undefined) server.attachPeers(options.peers);
  const fileIO = new FileIO({ pathMap: options.pathMap ?? [], ...(options.s3 === undefined ? {} : { s3: options.s3 }) });
  if (options.warehouse !== undefined) {
    const io = icebergIOFromFileIO(fileIO);
    for (const database of server.databaseNames()) {
      const catalog = await openCatalog(options, database, fileIO);
      const tables = new IcebergTables(server.database(database), catalog, io, () => server.catalogChanged(), undefined, {
        io: writableIcebergIO(io, fileIO),
        warehouse: options.warehouse,
        ...(options.icebergTargetFileSizeBytes === undefined ? {} : { targetFileSizeBytes: options.icebergTargetFileSizeBytes }),
      }, icebergViewSource(functions));
      server.iceberg.set(database, tables);
      await tables.refresh(true);
    }
  }
  return {
    async connect(info: StartupInfo): Promise<HandlerSession> {
      const session = new EngineSession(server, info);
      server.sessions.set(info.backendPid, session);
      return session;
    },
    async close(): Promise<void> {
      for (const s of [...server.sessions.values()]) await s.close();
      for (const t of server.iceberg.values()) {
        await t.sequences?.close();
        await t.catalog.close();
      }
      await fileIO.close();
    },
    icebergCatalog: (database) => server.iceberg.get(database)?.catalog,
    fileIO: () => fileIO,
    async icebergCatalogChanged(database) {
      await server.iceberg.get(database)?.refresh(true);
    },
    async registerMemoryTable(database, schema, name, columns, rows, primaryKey) {
      const db = server.database(database);
      if (db.schema(schema) === undefined) db.createSchema(schema, server.defaultOwner, true);
      const table = new MemoryTable(columns, name);
      if (rows.length > 0) {
        await table.insert(
          (async function* () {
            yield batchFromRows(rows, columns.length);
          })(),
        );
      }
      db.addRelation({
        oid: db.allocOid(),
        schema,
        schemaOid: db.schema(schema)!.oid,
        name,
        kind: 'r',
        persistence: 'p',
        rowTypeOid: db.allocOid(),
        source: table,
        ...(primaryKey === undefined ? {} : { primaryKey }),
      });
      server.catalogChanged();
    },
  };
}

/** config `settings:` checked once at start, with the errors SET would give, so a typo stops the server */
function checkedDefaultSettings(settings: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const probe = new SessionSettings();
  for (const [name, value] of Object.entries(settings)) {
    try {
      probe.set(name, value, false, 'configuration file');
    } catch (e) {
      throw new Error(`settings.${name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return settings;
}
