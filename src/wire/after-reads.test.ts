import { describe, expect, it } from 'vitest';
import { afterReads } from './after-reads.ts';

describe('afterReads', () => {
  it('runs deliveries in the order asked, together, after the current turn; one asked during a run comes in a later turn', async () => {
    const seen: string[] = [];
    afterReads(() => seen.push('a'));
    afterReads(() => {
      seen.push('b');
      afterReads(() => seen.push('d'));
      queueMicrotask(() => seen.push('micro after b'));
    });
    afterReads(() => seen.push('c'));
    expect(seen).toEqual([]);
    await new Promise((r) => setImmediate(r));
    // a, b, c in one macrotask: the microtask b queued runs after c
    expect(seen.slice(0, 4)).toEqual(['a', 'b', 'c', 'micro after b']);
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(['a', 'b', 'c', 'micro after b', 'd']);
  });
});
