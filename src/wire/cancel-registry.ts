/**
 * CancelRegistry: backend pid + secret key → running session, for CancelRequest packets that arrive on a
 * separate connection. A wrong secret is ignored silently, as PostgreSQL does.
 *
 * With several server processes (src/server/cluster/) the CancelRequest's new connection may land on a
 * process other than the session's: each process hands out pids from its own range (`pidRange`), so the
 * pid names the owner, and a pid from another range is passed to `forward` (the primary routes it).
 * @see https://www.postgresql.org/docs/current/protocol-flow.html#PROTOCOL-FLOW-CANCELING-REQUESTS
 */
import { randomInt } from 'node:crypto';

export interface Cancellable {
  cancel(): void;
}

export interface CancelRegistryOptions {
  /** pids [first, first + size) belong to this process (default: 10000 … 2^31 − 1) */
  readonly pidRange?: { readonly first: number; readonly size: number };
  /** a CancelRequest for a pid outside the range: hand it to its owner */
  readonly forward?: (processId: number, secretKey: number) => void;
}

export class CancelRegistry {
  private readonly entries = new Map<number, { secret: number; target: Cancellable }>();
  private readonly first: number;
  private readonly end: number;
  private nextPid: number;

  constructor(private readonly options: CancelRegistryOptions = {}) {
    this.first = options.pidRange?.first ?? 10000;
    this.end = options.pidRange === undefined ? 0x80000000 : options.pidRange.first + options.pidRange.size;
    this.nextPid = this.first + randomInt(Math.min(50000, this.end - this.first));
  }

  /** Allocates a backend pid and a random secret key. */
  allocate(): { processId: number; secretKey: number } {
    let pid = this.take();
    while (this.entries.has(pid)) pid = this.take();
    return { processId: pid, secretKey: randomInt(-0x80000000, 0x7fffffff) };
  }

  private take(): number {
    const pid = this.nextPid++;
    if (this.nextPid >= this.end) this.nextPid = this.first;
    return pid;
  }

  register(processId: number, secretKey: number, target: Cancellable): void {
    this.entries.set(processId, { secret: secretKey, target });
  }

  unregister(processId: number): void {
    this.entries.delete(processId);
  }

  /** true when a session of this process matched and was asked to cancel; another process's pid is forwarded */
  cancel(processId: number, secretKey: number): boolean {
    const forward = this.options.forward;
    if (forward !== undefined && (processId < this.first || processId >= this.end)) {
      forward(processId, secretKey);
      return false;
    }
    const e = this.entries.get(processId);
    if (!e || e.secret !== secretKey) return false;
    e.target.cancel();
    return true;
  }
}
