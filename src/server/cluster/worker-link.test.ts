import { describe, expect, it } from 'vitest';
import { WorkerLink, type IpcChannel } from './worker-link.ts';
import type { ToPrimary, ToWorker } from './cluster-protocol.ts';
import type { SessionSummary } from '../../catalog/session-view.ts';

function fakeChannel(answer: (m: ToPrimary) => ToWorker | null): { channel: IpcChannel; sent: ToPrimary[]; deliver: (m: ToWorker) => void } {
  const sent: ToPrimary[] = [];
  let listener: (m: ToWorker) => void = () => {};
  const channel: IpcChannel = {
    send: (m) => {
      sent.push(m);
      const reply = answer(m);
      if (reply !== null) queueMicrotask(() => listener(reply));
    },
    on: (_e, l) => void (listener = l),
  };
  return { channel, sent, deliver: (m) => listener(m) };
}

const session = (pid: number): SessionSummary => ({
  pid, user: 'u', database: 'd', applicationName: '', clientAddr: '127.0.0.1', clientPort: 1, backendStart: 1n, xactStart: null, queryStart: null, state: 'idle', query: '',
});

describe('WorkerLink', () => {
  it('gathers the peers\' sessions and signals only pids it saw', async () => {
    const { channel, sent } = fakeChannel((m) => (m.t === 'gather' ? { t: 'gathered', id: m.id, sessions: [session(20_000_001)] } : null));
    const link = new WorkerLink(1, 2, channel);
    expect(link.pidRange).toEqual({ first: 10_000_000, size: 10_000_000 });
    expect(link.cancel(20_000_001)).toBe(false);
    await link.gather();
    expect(link.sessions().map((s) => s.pid)).toEqual([20_000_001]);
    expect(link.terminate(20_000_001)).toBe(true);
    expect(link.cancel(20_000_002)).toBe(false);
    expect(sent.filter((m) => m.t === 'signal-backend')).toEqual([{ t: 'signal-backend', op: 'terminate', pid: 20_000_001 }]);
  });

  it('a gather the primary does not answer ends after its timeout with the sessions it had', async () => {
    const { channel } = fakeChannel(() => null);
    const link = new WorkerLink(1, 2, channel);
    const t0 = Date.now();
    await link.gather();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(450);
    expect(link.sessions()).toEqual([]);
  });

  it('answers the primary: its sessions, cancel requests and signals for its own sessions, shutdown', async () => {
    const { channel, sent, deliver } = fakeChannel((m) => (m.t === 'admit' ? { t: 'admitted', id: m.id, ok: m.id === 1 } : null));
    const link = new WorkerLink(2, 2, channel);
    const calls: string[] = [];
    link.serve({ sessions: () => [session(20_000_005)], cancel: (pid) => (calls.push(`cancel ${pid}`), true), terminate: (pid) => (calls.push(`terminate ${pid}`), true) });
    link.serveCancelRequests((pid, key) => void calls.push(`request ${pid} ${key}`));
    link.onShutdown = () => void calls.push('shutdown');
    deliver({ t: 'list-sessions', id: 9 });
    deliver({ t: 'cancel-request', pid: 20_000_005, key: 77 });
    deliver({ t: 'signal-backend', op: 'cancel', pid: 20_000_005 });
    deliver({ t: 'signal-backend', op: 'terminate', pid: 20_000_005 });
    deliver({ t: 'shutdown' });
    expect(sent).toEqual([{ t: 'sessions', id: 9, sessions: [session(20_000_005)] }]);
    expect(calls).toEqual(['request 20000005 77', 'cancel 20000005', 'terminate 20000005', 'shutdown']);
    expect(await link.admit()).toBe(true);
    expect(await link.admit()).toBe(false);
    link.release();
    expect(sent.at(-1)).toEqual({ t: 'release' });
  });
});
