/**
 * A server process of `processes: N` (forked by cluster-primary.ts): the ordinary server with the
 * WorkerLink hooks, announcing its address to the primary once it listens. It shuts down when the primary
 * says so or on SIGTERM; SIGINT (a terminal's Ctrl-C reaches the whole process group) is left to the primary.
 */
import { startServer, type RunningServer } from '../main.ts';
import type { Config } from '../config.ts';
import { FIRST_XID_ENV, PROCESS_INDEX_ENV, firstXidFromEnv, type ToPrimary, type ToWorker } from './cluster-protocol.ts';
import { WorkerLink } from './worker-link.ts';

export async function runClusterWorker(cfg: Config): Promise<RunningServer> {
  const index = Number(process.env[PROCESS_INDEX_ENV]);
  if (!Number.isInteger(index) || index < 1 || process.send === undefined) {
    throw new Error(`a lakegate server process needs ${PROCESS_INDEX_ENV} and an IPC channel (it is started by the primary)`);
  }
  const send = process.send.bind(process);
  const link = new WorkerLink(index, cfg.processes, {
    // after the primary is gone (disconnect) a send would emit an unhandled 'error': drop it instead
    send: (m: ToPrimary) => void (process.connected && send(m)),
    on: (_event, listener: (m: ToWorker, handle?: unknown) => void) => void process.on('message', listener as (m: unknown, handle: unknown) => void),
  }, firstXidFromEnv(process.env[FIRST_XID_ENV]));
  // the sample lakehouse is written by process 1 only (the others start after it listens)
  const server = await startServer(index === 1 ? cfg : { ...cfg, sample_data: false }, undefined, { cluster: link });
  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> =>
    (stopping ??= server.close().finally(() => {
      process.disconnect?.();
      setTimeout(() => process.exit(0), 100).unref();
    }));
  link.onShutdown = () => void stop();
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => {});
  // the primary is gone (killed): do not outlive it
  process.on('disconnect', () => void stop());
  send({ t: 'listening', host: server.host, port: server.port, ...(server.restPort === undefined ? {} : { restPort: server.restPort }) } satisfies ToPrimary);
  return server;
}
