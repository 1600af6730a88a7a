/**
 * One lakegate server on a temp warehouse, one text-mode `pg` client and a schema `lake`, set up before and
 * torn down after the tests of the calling `describe` — the fixture of the Iceberg DML tests that look at the
 * files a statement wrote as well as at its answers.
 */
import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { startLakegate, type LakegateServer } from './lakegate-server.ts';
import { connectText } from './text-client.ts';

export interface LakeSession {
  readonly server: LakegateServer;
  readonly client: pg.Client;
  /** the warehouse folder: tables are at <warehouse>/lake/<table> */
  readonly warehouse: string;
}

/** Call inside `describe`; read the fields inside tests or later hooks (they exist once beforeAll ran). */
export function useLakeSession(): LakeSession {
  let server: LakegateServer | undefined;
  let client: pg.Client | undefined;
  beforeAll(async () => {
    server = await startLakegate();
    client = await connectText(server.url);
    await client.query('CREATE SCHEMA lake');
  });
  afterAll(async () => {
    await client?.end();
    await server?.close();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useLakeSession: read its fields inside a test or a later hook');
    return value;
  };
  return {
    get server() {
      return ready(server);
    },
    get client() {
      return ready(client);
    },
    get warehouse() {
      return ready(server).warehouse;
    },
  };
}
