/**
 * Two lakegate servers on one warehouse: the owner keeps the embedded SQL catalog and serves it over the
 * Iceberg REST protocol, the other has no catalog of its own (`catalog_uri` = the owner's REST endpoint).
 * `a` is a text-mode client of the owner, `b` of the REST-backed server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { startServer, type RunningServer } from '../../src/server/main.ts';
import { connectText } from './text-client.ts';

export interface RestPair {
  readonly warehouse: string;
  readonly owner: RunningServer;
  readonly viaRest: RunningServer;
  readonly a: pg.Client;
  readonly b: pg.Client;
  close(): Promise<void>;
}

export async function startRestPair(tmpPrefix: string): Promise<RestPair> {
  const warehouse = mkdtempSync(join(tmpdir(), tmpPrefix));
  const owner = await startServer({ host: '127.0.0.1', port: 0, warehouse, auth: 'trust', sample_data: false, rest_port: 0 });
  const viaRest = await startServer({ host: '127.0.0.1', port: 0, warehouse, auth: 'trust', sample_data: false, catalog_uri: `http://127.0.0.1:${owner.restPort!}` });
  const a = await connectText(owner);
  const b = await connectText(viaRest);
  return {
    warehouse, owner, viaRest, a, b,
    async close() {
      await a.end();
      await b.end();
      await viaRest.close();
      await owner.close();
      rmSync(warehouse, { recursive: true, force: true });
    },
  };
}
