/**
 * The `lakegate` command (bin/lakegate.mjs loads this file):
 *   lakegate serve [--host H] [--port P] [--warehouse DIR] [--config FILE] [--no-sample]
 *   lakegate sample [--scale N] [--warehouse DIR] [--config FILE]
 *   lakegate scram-verifier <password>
 *   lakegate --help
 */
import { parseArgs } from 'node:util';
import { makeScramVerifier, parseSocketDirectories } from '../wire/index.ts';
import cluster from 'node:cluster';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { startPrimary } from './cluster/cluster-primary.ts';
import { runClusterWorker } from './cluster/cluster-worker.ts';
import { startServer } from './main.ts';
import { runSampleCommand } from './sample-command.ts';

const HELP = `lakegate: a PostgreSQL-protocol SQL gateway over Apache Iceberg tables

Usage:
  lakegate serve [--host HOST] [--port PORT] [--warehouse DIR] [--config FILE] [--path-map FROM=TO ...]
                 [--unix-socket-directories DIRS]  also listen on DIR/.s.PGSQL.PORT for each comma-separated DIR
                                      (LAKEGATE_UNIX_SOCKET_DIRECTORIES, unix_socket_directories:; default /tmp,
                                      '' = TCP only); psql -h DIR, or PGHOST=DIR
                 [--rest-port PORT]   also serve the Iceberg REST catalog API (LAKEGATE_REST_PORT, LAKEGATE_REST_TOKEN)
                 [--workers N]        threads decoding Parquet for scans (LAKEGATE_WORKERS; default: CPU count, 0 = none)
                 [--processes N]      server processes sharing the port (LAKEGATE_PROCESSES, processes:; default 1);
                                      with N > 1 tables and views must be Iceberg (memory ones are refused)
                 [--no-sample]        do not create the sample dataset (LAKEGATE_SAMPLE=false, sample_data: false)
                 [--sample-scale N]   its size when it is created (default 1: about 1.08 million rows)
  lakegate sample [--scale N] [--warehouse DIR] [--config FILE]
                                      drop and rebuild the sample dataset (Iceberg schema "sample": customers,
                                      products, orders partitioned by day, order_items) with a progress bar
  lakegate scram-verifier <password>    print a SCRAM-SHA-256 verifier for the config's users list
  lakegate --help

Defaults: host 127.0.0.1, port 5433, warehouse ./warehouse. Flags win over LAKEGATE_* environment
variables (LAKEGATE_HOST, LAKEGATE_PORT, LAKEGATE_WAREHOUSE, LAKEGATE_CONFIG, ...), which win over the YAML file.
`;

export async function runCli(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(HELP);
    return command === undefined ? 1 : 0;
  }
  if (command === 'scram-verifier') {
    const password = rest[0];
    if (password === undefined) {
      process.stderr.write('usage: lakegate scram-verifier <password>\n');
      return 2;
    }
    process.stdout.write(`${makeScramVerifier(password)}\n`);
    return 0;
  }
  if (command === 'sample') return runSampleCommand(rest);
  if (command !== 'serve') {
    process.stderr.write(`lakegate: unknown command "${command}"\n\n${HELP}`);
    return 2;
  }
  const { values } = parseArgs({
    args: [...rest],
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'unix-socket-directories': { type: 'string' },
      warehouse: { type: 'string' },
      config: { type: 'string' },
      'path-map': { type: 'string', multiple: true },
      'rest-port': { type: 'string' },
      workers: { type: 'string' },
      processes: { type: 'string' },
      'no-sample': { type: 'boolean' },
      'sample-scale': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const config = await loadConfig({
    ...(values.host !== undefined && { host: values.host }),
    ...(values.port !== undefined && { port: values.port }),
    ...(values['unix-socket-directories'] !== undefined && { unixSocketDirectories: values['unix-socket-directories'] }),
    ...(values.warehouse !== undefined && { warehouse: values.warehouse }),
    ...(values.config !== undefined && { config: values.config }),
    ...(values['path-map'] !== undefined && { pathMap: values['path-map'] }),
    ...(values['rest-port'] !== undefined && { restPort: values['rest-port'] }),
    ...(values.workers !== undefined && { workers: values.workers }),
    ...(values.processes !== undefined && { processes: values.processes }),
    ...(values['no-sample'] === true && { sample: false }),
    ...(values['sample-scale'] !== undefined && { sampleScale: values['sample-scale'] }),
  });
  if (config.processes > 1) return serveProcesses(config);
  const server = await startServer(config);
  console.log(`lakegate listening on ${server.host}:${server.port}`);
  for (const path of server.unixSockets) console.log(`lakegate listening on Unix socket "${path}"`);
  if (server.restPort !== undefined) console.log(`lakegate Iceberg REST catalog on http://${server.host}:${server.restPort}`);
  return await closeOnSignal(server);
}

/** serves until SIGINT or SIGTERM, then closes (sessions end with 57P01) and exits 0 */
function closeOnSignal(running: { close(): Promise<void> }): Promise<number> {
  return new Promise<number>((resolve) => {
    const stop = (signal: string): void => {
      console.log(`lakegate: ${signal} received, shutting down`);
      void running.close().then(() => resolve(0), () => resolve(0));
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}

/** `processes: N`: the primary forks and supervises; a forked server process runs runClusterWorker */
async function serveProcesses(config: Config): Promise<number> {
  if (cluster.isWorker) {
    await runClusterWorker(config);
    await new Promise<void>((resolve) => process.once('beforeExit', () => resolve()));
    return 0;
  }
  const primary = await startPrimary({ processes: config.processes, host: config.host, port: config.port, maxConnections: config.max_connections, unixSocketDirectories: parseSocketDirectories(config.unix_socket_directories), dataDir: config.warehouse });
  console.log(`lakegate listening on ${primary.host}:${primary.port} (${config.processes} processes)`);
  for (const path of primary.unixSockets) console.log(`lakegate listening on Unix socket "${path}"`);
  if (primary.restPort !== undefined) console.log(`lakegate Iceberg REST catalog on http://${primary.host}:${primary.restPort}`);
  return await closeOnSignal(primary);
}

try {
  process.exitCode = await runCli(process.argv.slice(2));
  // after a shutdown, leftover handles (e.g. engine workers) must not keep the process alive
  setTimeout(() => process.exit(), 2000).unref();
} catch (e) {
  if (e instanceof ConfigError || (e instanceof Error && 'code' in e && e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')) {
    process.stderr.write(`lakegate: ${e.message}\n`);
  } else {
    process.stderr.write(`lakegate: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  }
  process.exitCode = 1;
}
