/**
 * One lakegate server on a temp warehouse with two text-mode `pg` clients (`a`, `b`), a schema, and the
 * embedded SQL catalog the server commits to opened beside it — the fixture of the concurrent-transaction
 * tests, which race two sessions and then read the metadata pointer the winner left.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openSqlCatalog, type IcebergCatalog } from '../../src/catalog/iceberg/index.ts';
import { startLakegate, type LakegateServer } from './lakegate-server.ts';
import { connectText } from './text-client.ts';

export interface TwoSessions {
  readonly server: LakegateServer;
  readonly a: pg.Client;
  readonly b: pg.Client;
  readonly catalog: IcebergCatalog;
  /** tables are at <warehouse>/<schema>/<table> */
  readonly warehouse: string;
}

/** Call inside `describe`; read the fields inside tests or later hooks (they exist once beforeAll ran). */
export function useTwoSessions(schema: string): TwoSessions {
  const warehouse = mkdtempSync(join(tmpdir(), `lakegate-${schema}-`));
  let server: LakegateServer | undefined;
  let a: pg.Client | undefined;
  let b: pg.Client | undefined;
  let catalog: IcebergCatalog | undefined;
  beforeAll(async () => {
    server = await startLakegate({ config: { warehouse } });
    a = await connectText(server.url);
    b = await connectText(server.url);
    await a.query(`CREATE SCHEMA ${schema}`);
    catalog = await openSqlCatalog({ warehouse });
  });
  afterAll(async () => {
    await a?.end();
    await b?.end();
    await catalog?.close();
    await server?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useTwoSessions: read its fields inside a test or a later hook');
    return value;
  };
  return {
    get server() {
      return ready(server);
    },
    get a() {
      return ready(a);
    },
    get b() {
      return ready(b);
    },
    get catalog() {
      return ready(catalog);
    },
    warehouse,
  };
}
