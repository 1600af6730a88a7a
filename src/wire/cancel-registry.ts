/**
 * CancelRegistry: backend pid + secret key → running session, for CancelRequest packets that arrive on a
 * separate connection. A wrong secret is ignored silently, as PostgreSQL does.
 * @see https://www.postgresql.org/docs/current/protocol-flow.html#PROTOCOL-FLOW-CANCELING-REQUESTS
 */
import { randomInt } from 'node:crypto';

export interface Cancellable {
  cancel(): void;
}

export class CancelRegistry {
  private readonly entries = new Map<number, { secret: number; target: Cancellable }>();
  private nextPid = 10000 + randomInt(50000);

  /** Allocates a backend pid and a random secret key. */
  allocate(): { processId: number; secretKey: number } {
    let pid = this.nextPid++;
    if (this.nextPid > 0x7fffffff) this.nextPid = 10000;
    while (this.entries.has(pid)) pid = this.nextPid++;
    return { processId: pid, secretKey: randomInt(-0x80000000, 0x7fffffff) };
  }

  register(processId: number, secretKey: number, target: Cancellable): void {
    this.entries.set(processId, { secret: secretKey, target });
  }

  unregister(processId: number): void {
    this.entries.delete(processId);
  }

  /** true when a session matched and was asked to cancel */
  cancel(processId: number, secretKey: number): boolean {
    const e = this.entries.get(processId);
    if (!e || e.secret !== secretKey) return false;
    e.target.cancel();
    return true;
  }
}
