/**
 * engine: implements wire's QueryHandler (parse → bind → plan → execute, plus session statements).
 * Public surface of the module; the composition root (server/) calls createQueryEngine.
 */
import type { HandlerSession, QueryHandler, StartupInfo } from '../wire/handler.ts';
import type { ColumnDef } from '../catalog/table-source.ts';
import { batchFromRows } from '../common/batch.ts';
import { initParser } from '../sql/index.ts';
import { getDefaultRegistry } from '../functions/index.ts';
import { createSystemRelations, systemSchemas, registerPgCatalog } from '../pgcatalog/index.ts';
import { EngineServer } from './engine-server.ts';
import { EngineSession } from './engine-session.ts';
import { MemoryTable } from './memory-table.ts';
import { SERVER_VERSION } from './settings.ts';

export { SERVER_VERSION } from './settings.ts';

export interface EngineOptions {
  /** database names served; the first is the default */
  readonly databases: readonly string[];
  readonly serverVersion?: string;
  readonly warehouse?: string;
}

export interface QueryEngine extends QueryHandler {
  close(): Promise<void>;
  /** test and sample-data hook: a table held in memory in `database`.`schema` */
  registerMemoryTable(database: string, schema: string, name: string, columns: readonly ColumnDef[], rows: readonly (readonly unknown[])[], primaryKey?: readonly number[]): Promise<void>;
}

export async function createQueryEngine(options: EngineOptions): Promise<QueryEngine> {
  await initParser();
  const functions = getDefaultRegistry();
  registerPgCatalog(functions);
  const system = { schemas: systemSchemas(), relations: createSystemRelations({ functions }) };
  const server = new EngineServer(options.databases.length > 0 ? options.databases : ['lakegate'], system, functions, options.serverVersion ?? SERVER_VERSION);
  return {
    async connect(info: StartupInfo): Promise<HandlerSession> {
      const session = new EngineSession(server, info);
      server.sessions.set(info.backendPid, session);
      return session;
    },
    async close(): Promise<void> {
      for (const s of [...server.sessions.values()]) await s.close();
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
