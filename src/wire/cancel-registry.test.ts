import { describe, expect, it } from 'vitest';
import { CancelRegistry } from './cancel-registry.ts';

describe('CancelRegistry', () => {
  it('cancels a registered session only with its secret', () => {
    const r = new CancelRegistry();
    const { processId, secretKey } = r.allocate();
    let cancelled = 0;
    r.register(processId, secretKey, { cancel: () => void cancelled++ });
    expect(r.cancel(processId, secretKey ^ 1)).toBe(false);
    expect(r.cancel(processId, secretKey)).toBe(true);
    expect(cancelled).toBe(1);
    r.unregister(processId);
    expect(r.cancel(processId, secretKey)).toBe(false);
  });

  it('hands out pids from its range only, wrapping around, and forwards other pids to their owner', () => {
    const forwarded: [number, number][] = [];
    const r = new CancelRegistry({ pidRange: { first: 20_000_000, size: 3 }, forward: (pid, key) => forwarded.push([pid, key]) });
    const pids = Array.from({ length: 6 }, () => r.allocate().processId);
    for (const pid of pids) expect(pid >= 20_000_000 && pid < 20_000_003).toBe(true);
    expect(new Set(pids).size).toBe(3);
    // a live pid is skipped
    const held = r.allocate();
    r.register(held.processId, held.secretKey, { cancel: () => {} });
    for (let i = 0; i < 4; i++) expect(r.allocate().processId).not.toBe(held.processId);
    // another process's pid is forwarded, never looked up here; an unknown pid of this range is not
    expect(r.cancel(10_000_005, 42)).toBe(false);
    expect(r.cancel(20_000_002 === held.processId ? 20_000_001 : 20_000_002, 7)).toBe(false);
    expect(forwarded).toEqual([[10_000_005, 42]]);
  });
});
