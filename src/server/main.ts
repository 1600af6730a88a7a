/**
 * Composition root: config → query engine (src/engine) + wire server (src/wire) → a running server.
 * `startServer(config)` is what the CLI and the test harness call; port 0 picks a free port.
 */
import type { QueryEngine } from '../engine/index.ts';
import { loadPgtypesCodec, parseSocketDirectories, PgWireServer, type QueryHandler, type ValueCodec, type WireLogger } from '../wire/index.ts';
import { type Config, type ConfigInput, parseConfig } from './config.ts';
import { loadTlsContext } from './tls.ts';
import { availableParallelism } from 'node:os';
import { acquireSharedScanPool } from '../iceberg/parallel/scan-pool.ts';
import { startRestCatalogEndpoint, type RestCatalogEndpoint } from './rest-catalog-endpoint.ts';
import type { WorkerLink } from './cluster/worker-link.ts';
import { clockXid } from './cluster/cluster-protocol.ts';

export interface RunningServer {
  readonly port: number;
  readonly host: string;
  /** the Unix-domain socket files it listens on (unix_socket_directories), empty when none */
  readonly unixSockets: readonly string[];
  readonly config: Config;
  /** the Iceberg REST catalog's port when `rest_port` is set */
  readonly restPort?: number;
  /** graceful: stops accepting, ends sessions, closes the engine */
  close(): Promise<void>;
}

export interface StartOptions {
  /** value codec; default: src/common/pgtypes */
  readonly codec?: ValueCodec;
  readonly log?: WireLogger;
  /** this is server process i of `processes: N` (cluster/cluster-worker.ts) */
  readonly cluster?: WorkerLink;
}

/** Loaded lazily so that tests passing their own handler do not load the whole engine. (`lakegate sample` uses it too.) */
export async function createEngine(cfg: Config, peers?: WorkerLink): Promise<QueryEngine> {
  const { createQueryEngine } = await import('../engine/index.ts');
  const engine = await createQueryEngine({
    databases: cfg.databases,
    serverVersion: cfg.server_version,
    warehouse: cfg.warehouse,
    settings: cfg.settings,
    pathMap: cfg.path_map,
    // txid_current() keeps growing across restarts (cluster-protocol.ts); a forked process has its own first id
    ...(peers === undefined ? { firstXid: clockXid() } : { peers }),
    ...(cfg.catalog_uri === undefined ? {} : { catalogUri: cfg.catalog_uri }),
    ...(cfg.catalog_token === undefined ? {} : { catalogToken: cfg.catalog_token }),
    ...(cfg.catalog_credential === undefined ? {} : { catalogCredential: cfg.catalog_credential }),
    s3: {
      ...(cfg.s3.endpoint === undefined ? {} : { endpoint: cfg.s3.endpoint }),
      ...(cfg.s3.region === undefined ? {} : { region: cfg.s3.region }),
      ...(cfg.s3.force_path_style === undefined ? {} : { forcePathStyle: cfg.s3.force_path_style }),
      ...(cfg.s3.access_key_id === undefined ? {} : { accessKeyId: cfg.s3.access_key_id }),
      ...(cfg.s3.secret_access_key === undefined ? {} : { secretAccessKey: cfg.s3.secret_access_key }),
    },
  });
  if (cfg.sample_data) {
    // first start on a warehouse: write the sample lakehouse before listening (later starts find it)
    const { ensureSampleLakehouse } = await import('./startup-sample.ts');
    try {
      await ensureSampleLakehouse(engine, cfg);
    } catch (e) {
      await engine.close();
      throw e;
    }
  }
  return engine;
}

/**
 * Starts lakegate. Without `handler`, the engine is created with
 * `createQueryEngine({ databases, serverVersion, warehouse })` and closed with the server.
 */
export async function startServer(config: Config | ConfigInput = {}, handler?: QueryHandler, options: StartOptions = {}): Promise<RunningServer> {
  const cfg = parseConfig(config);
  const engine = handler ? null : await createEngine(cfg, options.cluster);
  // the process-wide scan worker pool (threads start on the first big scan); released on close
  const releaseWorkers = engine === null ? async () => {} : acquireSharedScanPool({ size: cfg.workers ?? availableParallelism() });
  const tls = loadTlsContext(cfg.tls);
  const server = new PgWireServer({
    handler: handler ?? engine!,
    codec: options.codec ?? (await loadPgtypesCodec()),
    auth: { method: cfg.auth, users: cfg.users },
    maxConnections: cfg.max_connections,
    ...(cfg.idle_session_timeout > 0 && { idleSessionTimeoutMs: cfg.idle_session_timeout }),
    ...(tls && { tls }),
    ...(options.log && { log: options.log }),
    ...(options.cluster && { cluster: options.cluster }),
  });
  options.cluster?.serveCancelRequests((pid, key) => void server.cancelLocal(pid, key));
  let addr: { port: number; host: string };
  let unixSockets: string[] = [];
  try {
    // a server process of `processes: N` does not listen: the primary accepts and hands connections over
    if (options.cluster !== undefined) {
      options.cluster.serveConnections((socket) => server.accept(socket));
      addr = { port: cfg.port, host: cfg.host };
    } else {
      addr = await server.listen(cfg.port, cfg.host);
      // the socket files carry the TCP port's number (port 0: the one picked)
      unixSockets = await server.listenUnix(parseSocketDirectories(cfg.unix_socket_directories), addr.port, cfg.warehouse);
    }
  } catch (e) {
    // a socket that could not be created leaves the TCP listener open: close it (PostgreSQL does not start)
    if (options.cluster === undefined) await server.close().catch(() => {});
    await engine?.close();
    await releaseWorkers();
    throw e;
  }
  let rest: RestCatalogEndpoint | null = null;
  try {
    rest = engine === null ? null : await startRestCatalogEndpoint(cfg, engine);
  } catch (e) {
    await server.close();
    await engine?.close();
    await releaseWorkers();
    throw e;
  }
  let closing: Promise<void> | null = null;
  return {
    port: addr.port,
    host: addr.host,
    unixSockets,
    config: cfg,
    ...(rest === null ? {} : { restPort: rest.port }),
    close: () =>
      (closing ??= (async () => {
        await rest?.close();
        await server.close();
        await engine?.close();
        await releaseWorkers();
      })()),
  };
}
