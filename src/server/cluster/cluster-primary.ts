/**
 * The primary of `lakegate serve --processes N`: forks N server processes (node:cluster), accepts the client
 * connections itself and hands each socket to the process with the fewest open connections (node:cluster's
 * round-robin hands a burst of connections to whichever process acknowledges first: pgbench's 8 landed 6/2
 * in 2 of 12 starts, and the busier process then bounds the throughput), relays what must cross processes
 * (CancelRequest and pg_cancel/terminate_backend by pid, pg_stat_activity gathers, server-wide
 * max_connections), restarts a server process that dies, and on close() asks every one to shut down gracefully.
 *
 * Process 1 starts alone first (it writes the sample lakehouse when missing); the others start once it listens.
 * The primary never opens the warehouse.
 */
import cluster, { type Worker } from 'node:cluster';
import { createServer, type Socket } from 'node:net';
import { UnixSocketListeners } from '../../wire/index.ts';
import type { SessionSummary } from '../../catalog/session-view.ts';
import { FIRST_XID_ENV, PROCESS_INDEX_ENV, nextFirstXid, processIndexOfPid, type ToPrimary, type ToWorker } from './cluster-protocol.ts';

export interface PrimaryOptions {
  readonly processes: number;
  /** where clients connect (port 0: a free port) */
  readonly host: string;
  readonly port: number;
  /** max_connections, counted over all processes */
  readonly maxConnections: number;
  /** also accept on `<dir>/.s.PGSQL.<port>` in each (unix_socket_directories); default none */
  readonly unixSocketDirectories?: readonly string[];
  /** written into the socket lock files (the warehouse) */
  readonly dataDir?: string;
  readonly log?: (line: string) => void;
  /** how long a gather waits for slow processes (default 400 ms) */
  readonly gatherTimeoutMs?: number;
}

export interface RunningPrimary {
  readonly host: string;
  readonly port: number;
  readonly restPort?: number;
  /** the Unix-domain socket files it accepts on */
  readonly unixSockets: readonly string[];
  /** the live server processes' OS pids, by index (tests kill one to see it restarted) */
  processPids(): Map<number, number>;
  close(): Promise<void>;
}

type Listening = Extract<ToPrimary, { t: 'listening' }>;

interface Slot {
  worker: Worker;
  /** admitted connections (max_connections) */
  connections: number;
  /** sockets handed to this process and not yet closed (the balance) */
  open: number;
  /** it announced 'listening': it serves handed-over connections */
  ready: boolean;
  startedAt: number;
}

interface Gather {
  readonly requester: number;
  readonly requestId: number;
  readonly pending: Set<number>;
  readonly sessions: SessionSummary[];
  readonly timer: NodeJS.Timeout;
}

export async function startPrimary(options: PrimaryOptions): Promise<RunningPrimary> {
  const log = options.log ?? ((line: string) => process.stderr.write(`lakegate: ${line}\n`));
  cluster.setupPrimary({ serialization: 'advanced' });
  const slots = new Map<number, Slot>();
  const gathers = new Map<number, Gather>();
  let nextGather = 1;
  /** the first transaction id of the latest fork (restarts included): each fork starts a block above it */
  let lastFirstXid: bigint | null = null;
  let connections = 0;
  let shuttingDown = false;

  const send = (index: number, m: ToWorker): void => {
    const slot = slots.get(index);
    if (slot !== undefined && slot.worker.isConnected()) slot.worker.send(m);
  };

  const finishGather = (id: number): void => {
    const g = gathers.get(id);
    if (g === undefined) return;
    gathers.delete(id);
    clearTimeout(g.timer);
    send(g.requester, { t: 'gathered', id: g.requestId, sessions: g.sessions });
  };

  const onMessage = (index: number, m: ToPrimary): void => {
    switch (m.t) {
      case 'cancel-request':
        send(processIndexOfPid(m.pid), m);
        return;
      case 'signal-backend':
        send(processIndexOfPid(m.pid), m);
        return;
      case 'gather': {
        const others = [...slots.keys()].filter((i) => i !== index && slots.get(i)!.worker.isConnected());
        const id = nextGather++;
        const timer = setTimeout(() => finishGather(id), options.gatherTimeoutMs ?? 400);
        gathers.set(id, { requester: index, requestId: m.id, pending: new Set(others), sessions: [], timer });
        for (const i of others) send(i, { t: 'list-sessions', id });
        if (others.length === 0) finishGather(id);
        return;
      }
      case 'sessions': {
        const g = gathers.get(m.id);
        if (g === undefined || !g.pending.delete(index)) return;
        g.sessions.push(...m.sessions);
        if (g.pending.size === 0) finishGather(m.id);
        return;
      }
      case 'admit': {
        const ok = !shuttingDown && connections < options.maxConnections;
        if (ok) {
          connections++;
          slots.get(index)!.connections++;
        }
        send(index, { t: 'admitted', id: m.id, ok });
        return;
      }
      case 'release': {
        const slot = slots.get(index);
        if (slot !== undefined && slot.connections > 0) {
          slot.connections--;
          connections--;
        }
        return;
      }
      case 'disconnected': {
        const slot = slots.get(index);
        if (slot !== undefined && slot.open > 0) slot.open--;
        return;
      }
      case 'listening':
        return;
    }
  };

  /** the ready process with the fewest open connections; among equals the next one after the last chosen */
  let lastChosen = 0;
  const leastBusy = (): [number, Slot] | null => {
    let best: [number, Slot] | null = null;
    let bestRank = Infinity;
    for (const [i, slot] of slots) {
      if (!slot.ready || !slot.worker.isConnected()) continue;
      // indexes are 1…MAX_PROCESSES (< 256): the rotation after lastChosen breaks ties
      const rank = slot.open * 256 + ((i - lastChosen - 1 + 256) % 256);
      if (rank < bestRank) {
        best = [i, slot];
        bestRank = rank;
      }
    }
    return best;
  };

  /** hands a client socket (accepted paused: no byte read here) to the least busy server process */
  const handOver = (socket: Socket): void => {
    const chosen = shuttingDown ? null : leastBusy();
    if (chosen === null) {
      socket.destroy();
      return;
    }
    const [index, slot] = chosen;
    lastChosen = index;
    slot.open++;
    slot.worker.send({ t: 'connection' } satisfies ToWorker, socket, (e: Error | null) => {
      if (e === null) return;
      // the process went away meanwhile: the client sees its connection closed, as with a crash
      if (slot.open > 0) slot.open--;
      socket.destroy();
    });
  };
  const listener = createServer({ pauseOnConnect: true }, handOver);
  listener.on('error', (e) => log(`listener error: ${e.message}`));

  /** forks process `index`; resolves when it listens, rejects when it exits first */
  const fork = (index: number): Promise<Listening> =>
    new Promise((resolve, reject) => {
      lastFirstXid = nextFirstXid(lastFirstXid);
      const worker = cluster.fork({ [PROCESS_INDEX_ENV]: String(index), [FIRST_XID_ENV]: String(lastFirstXid) });
      const slot: Slot = { worker, connections: 0, open: 0, ready: false, startedAt: Date.now() };
      slots.set(index, slot);
      let listening = false;
      worker.on('message', (m: ToPrimary) => {
        if (m.t === 'listening' && !listening) {
          listening = true;
          slot.ready = true;
          resolve(m);
        }
        onMessage(index, m);
      });
      worker.on('exit', (code, signal) => {
        if (slots.get(index) === slot) slots.delete(index);
        connections -= slot.connections;
        for (const [id, g] of gathers) if (g.pending.delete(index) && g.pending.size === 0) finishGather(id);
        if (!listening) {
          reject(new Error(`server process ${index} exited during startup (${signal ?? `code ${code}`})`));
          return;
        }
        if (shuttingDown) return;
        // a process that dies right after starting is restarted after a pause, not in a tight loop
        const delay = Date.now() - slot.startedAt < 5000 ? 2000 : 200;
        log(`server process ${index} (pid ${worker.process.pid}) exited (${signal ?? `code ${code}`}); restarting it`);
        setTimeout(() => {
          if (shuttingDown) return;
          fork(index).then(
            () => log(`server process ${index} restarted`),
            (e: unknown) => log(`server process ${index} could not be restarted: ${e instanceof Error ? e.message : String(e)}`),
          );
        }, delay).unref();
      });
    });

  let unixListeners: UnixSocketListeners | null = null;
  const close = async (): Promise<void> => {
    shuttingDown = true;
    // the socket files go before the TCP port is free (unix-socket-listeners.ts close)
    const unixClosed = unixListeners?.close();
    const listenerClosed = new Promise<void>((resolve) => listener.close(() => resolve()));
    const exits = [...slots.values()].map(
      ({ worker }) =>
        new Promise<void>((resolve) => {
          if (worker.isDead()) return resolve();
          worker.once('exit', () => resolve());
          // graceful first (sessions get 57P01), then the hard way
          if (worker.isConnected()) worker.send({ t: 'shutdown' } satisfies ToWorker);
          setTimeout(() => {
            if (!worker.isDead()) worker.process.kill('SIGKILL');
          }, 10_000).unref();
        }),
    );
    await Promise.all([...exits, listenerClosed, unixClosed]);
  };

  let first: Listening;
  let address: { host: string; port: number };
  try {
    first = await fork(1);
    await Promise.all(Array.from({ length: options.processes - 1 }, (_, i) => fork(i + 2)));
    address = await new Promise((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(options.port, options.host, () => {
        listener.off('error', reject);
        const a = listener.address();
        resolve({ host: options.host, port: typeof a === 'object' && a !== null ? a.port : options.port });
      });
    });
    const dirs = options.unixSocketDirectories ?? [];
    if (dirs.length > 0) {
      unixListeners = await UnixSocketListeners.open(dirs, address.port, handOver, {
        dataDir: options.dataDir ?? '',
        pauseOnConnect: true,
        onError: (e) => log(`listener error: ${e.message}`),
        warn: (m) => log(`WARNING: ${m}`),
      });
    }
  } catch (e) {
    await close();
    throw e;
  }
  return {
    host: address.host,
    port: address.port,
    unixSockets: unixListeners?.paths ?? [],
    ...(first.restPort === undefined ? {} : { restPort: first.restPort }),
    processPids: () => new Map([...slots].map(([i, s]) => [i, s.worker.process.pid ?? 0])),
    close,
  };
}
