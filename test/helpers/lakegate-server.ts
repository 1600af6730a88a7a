/**
 * Starts lakegate in-process on 127.0.0.1:0 with a temp warehouse, for .slt runs, compat clients and
 * benchmarks. The server modules are imported lazily so that a missing or half-written server only fails
 * the tests that need it, with a clear message.
 *
 * Contract (src/server/main.ts): startServer(config, handler?) → Promise<{ port, host, config, close() }>;
 * startServer fills the defaults of src/server/config.ts itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigInput } from '../../src/server/config.ts';
import type { RunningServer } from '../../src/server/main.ts';
import type { QueryHandler } from '../../src/wire/handler.ts';

export interface LakegateServer {
  /** postgres://postgres@127.0.0.1:PORT/<first configured database> */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly warehouse: string;
  close(): Promise<void>;
}

export interface LakegateServerOptions {
  /** extra config fields merged over ours (host 127.0.0.1, port 0, temp warehouse, trust auth) */
  readonly config?: Partial<ConfigInput>;
  /** use this QueryHandler instead of the engine (wire tests) */
  readonly handler?: QueryHandler;
  /** user name put in the URL (default postgres, as on the throwaway PostgreSQL) */
  readonly user?: string;
}

export async function startLakegate(options: LakegateServerOptions = {}): Promise<LakegateServer> {
  // a warehouse the caller names is the caller's to remove; ours goes with close()
  const ownsWarehouse = options.config?.warehouse === undefined;
  const warehouse = options.config?.warehouse ?? mkdtempSync(join(tmpdir(), 'lakegate-wh-'));
  const config: ConfigInput = {
    host: '127.0.0.1',
    port: 0,
    auth: 'trust',
    sample_data: false,
    // no scan worker threads unless a test asks: each pool costs seconds of startup per test process
    workers: 0,
    ...options.config,
    warehouse,
  };
  let server: RunningServer;
  try {
    // imported lazily: a half-written server fails only the tests that start it
    const { startServer } = await import('../../src/server/main.ts');
    server = await startServer(config, options.handler);
  } catch (err) {
    if (ownsWarehouse) rmSync(warehouse, { recursive: true, force: true });
    throw err;
  }
  const host = server.host && server.host !== '0.0.0.0' && server.host !== '::' ? server.host : '127.0.0.1';
  const user = options.user ?? 'postgres';
  const database = server.config.databases[0] ?? 'lakegate';
  let closed = false;
  // the warehouse goes even if a test forgets close() or the worker exits early
  const removeWarehouse = (): void => {
    if (ownsWarehouse) rmSync(warehouse, { recursive: true, force: true });
  };
  process.once('exit', removeWarehouse);
  return {
    url: `postgres://${user}@${host}:${server.port}/${database}`,
    host,
    port: server.port,
    warehouse,
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        await server.close();
      } finally {
        process.removeListener('exit', removeWarehouse);
        removeWarehouse();
      }
    },
  };
}
