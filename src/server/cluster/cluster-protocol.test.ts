import { describe, expect, it } from 'vitest';
import { clockXid, firstXidFromEnv, nextFirstXid, XID_BLOCK_SIZE, XIDS_PER_MS } from './cluster-protocol.ts';

const NOW = Date.UTC(2026, 11, 1, 6, 0, 0);

describe('first transaction ids', () => {
  it('come from the clock, so a later start begins above what an earlier process handed out', () => {
    const earlier = clockXid(NOW);
    // an earlier process that handed out a million ids a second for a day is still below a start one day later
    const handedOut = 1_000_000n * 86_400n;
    expect(earlier + handedOut).toBeLessThan(clockXid(NOW + 86_400_000));
    // and fits int8 for centuries
    expect(clockXid(Date.UTC(2200, 0, 1))).toBeLessThan(2n ** 63n - 1n);
  });

  it('forks of one primary are at least a block apart, even when forked in the same millisecond', () => {
    const a = nextFirstXid(null, NOW);
    const b = nextFirstXid(a, NOW);
    const c = nextFirstXid(b, NOW + 1);
    expect(a).toBe(clockXid(NOW));
    expect(b - a).toBe(XID_BLOCK_SIZE);
    expect(c - b).toBe(XID_BLOCK_SIZE);
    // once the clock passed the last block, forks follow the clock again
    const later = NOW + Number((4n * XID_BLOCK_SIZE) / XIDS_PER_MS);
    expect(nextFirstXid(c, later)).toBe(clockXid(later));
  });

  it('read the primary\'s value from the environment, else the clock', () => {
    expect(firstXidFromEnv('4503599627370496')).toBe(4503599627370496n);
    const before = clockXid();
    expect(firstXidFromEnv(undefined)).toBeGreaterThanOrEqual(before);
    expect(firstXidFromEnv('nonsense')).toBeGreaterThanOrEqual(before);
  });
});
