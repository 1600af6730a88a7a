/**
 * WorkerLink: a server process's end of the node:cluster channel to the primary. It is the engine's
 * ClusterPeers (other processes' sessions for pg_stat_activity, pg_cancel_backend / pg_terminate_backend
 * of their pids) and the wire server's cluster hooks (pid range, CancelRequest forwarding, server-wide
 * max_connections), and it answers what the primary relays from the other processes.
 */
import type { Socket } from 'node:net';
import type { ClusterPeers, LocalSessions } from '../../engine/index.ts';
import type { SessionSummary } from '../../catalog/session-view.ts';
import { clockXid, pidRangeOf, type ToPrimary, type ToWorker } from './cluster-protocol.ts';

/** how long pg_stat_activity waits for the other processes' sessions before showing what it has */
const GATHER_TIMEOUT_MS = 500;

export interface IpcChannel {
  send(message: ToPrimary): void;
  /** `handle`: the client socket of a 'connection' message */
  on(event: 'message', listener: (message: ToWorker, handle?: unknown) => void): void;
}

export class WorkerLink implements ClusterPeers {
  private local: LocalSessions | null = null;
  private cancelLocal: ((pid: number, key: number) => void) | null = null;
  private peerSessions: readonly SessionSummary[] = [];
  private nextId = 1;
  private readonly waiting = new Map<number, (message: ToWorker) => void>();
  /** the primary asked this process to stop */
  onShutdown: () => void = () => {};
  /** a client connection the primary accepted and handed to this process (the wire server's accept) */
  private acceptConnection: ((socket: Socket) => void) | null = null;

  constructor(
    readonly index: number,
    readonly processes: number,
    private readonly channel: IpcChannel,
    /** this fork's first transaction id (cluster-protocol.ts); default: the clock's */
    readonly firstXid: bigint = clockXid(),
  ) {
    channel.on('message', (m, handle) => this.receive(m, handle));
  }

  // ---- the wire server's hooks
  get pidRange(): { first: number; size: number } {
    return pidRangeOf(this.index);
  }

  forwardCancel(pid: number, key: number): void {
    this.channel.send({ t: 'cancel-request', pid, key });
  }

  async admit(): Promise<boolean> {
    const reply = await this.request((id) => ({ t: 'admit', id }));
    return reply.t === 'admitted' && reply.ok;
  }

  release(): void {
    this.channel.send({ t: 'release' });
  }

  /**
   * Serves the client connections the primary hands over (it accepts them and gives each to the process with
   * the fewest open ones); each one's close is reported back so the primary's counts stay right.
   */
  serveConnections(accept: (socket: Socket) => void): void {
    this.acceptConnection = (socket) => {
      socket.once('close', () => this.channel.send({ t: 'disconnected' }));
      accept(socket);
    };
  }

  /** the wire server's cancel of one of this process's sessions (CancelRequest relayed by the primary) */
  serveCancelRequests(cancel: (pid: number, key: number) => void): void {
    this.cancelLocal = cancel;
  }

  // ---- ClusterPeers (the engine)
  serve(local: LocalSessions): void {
    this.local = local;
  }

  sessions(): readonly SessionSummary[] {
    return this.peerSessions;
  }

  async gather(): Promise<void> {
    const reply = await this.request((id) => ({ t: 'gather', id }), GATHER_TIMEOUT_MS);
    if (reply !== null && reply.t === 'gathered') this.peerSessions = reply.sessions;
  }

  cancel(pid: number): boolean {
    return this.signal('cancel', pid);
  }

  terminate(pid: number): boolean {
    return this.signal('terminate', pid);
  }

  /** as PostgreSQL: true when the pid is a live backend (here: one the last gather saw) */
  private signal(op: 'cancel' | 'terminate', pid: number): boolean {
    if (!this.peerSessions.some((s) => s.pid === pid)) return false;
    this.channel.send({ t: 'signal-backend', op, pid });
    return true;
  }

  // ---- messages from the primary
  private request(make: (id: number) => ToPrimary): Promise<ToWorker>;
  private request(make: (id: number) => ToPrimary, timeoutMs: number): Promise<ToWorker | null>;
  private request(make: (id: number) => ToPrimary, timeoutMs?: number): Promise<ToWorker | null> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      if (timeoutMs !== undefined) {
        setTimeout(() => {
          if (this.waiting.delete(id)) resolve(null);
        }, timeoutMs).unref();
      }
      this.channel.send(make(id));
    });
  }

  private receive(m: ToWorker, handle?: unknown): void {
    switch (m.t) {
      case 'connection': {
        const socket = handle as Socket | undefined;
        if (socket === undefined || socket === null) return;
        if (this.acceptConnection !== null) this.acceptConnection(socket);
        else {
          socket.destroy();
          this.channel.send({ t: 'disconnected' });
        }
        return;
      }
      case 'gathered':
      case 'admitted': {
        const resolve = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        resolve?.(m);
        return;
      }
      case 'list-sessions':
        this.channel.send({ t: 'sessions', id: m.id, sessions: this.local?.sessions() ?? [] });
        return;
      case 'cancel-request':
        this.cancelLocal?.(m.pid, m.key);
        return;
      case 'signal-backend':
        if (m.op === 'cancel') this.local?.cancel(m.pid);
        else this.local?.terminate(m.pid);
        return;
      case 'shutdown':
        this.onShutdown();
        return;
    }
  }
}
