import { describe, expect, it } from 'vitest';
import { afterReads, writeAfterDeliveries } from './after-reads.ts';

/** the uncaught errors thrown while `body` runs, instead of the test runner's handler seeing them */
async function catchingUncaught(body: () => Promise<void>): Promise<unknown[]> {
  const caught: unknown[] = [];
  const others = process.listeners('uncaughtException');
  process.removeAllListeners('uncaughtException');
  const mine = (e: unknown): void => void caught.push(e);
  process.on('uncaughtException', mine);
  try {
    await body();
  } finally {
    process.off('uncaughtException', mine);
    for (const l of others) process.on('uncaughtException', l);
  }
  return caught;
}

const nextCheckPhase = (): Promise<void> => new Promise((r) => setImmediate(r));

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

  it('a delivery that throws does not drop the ones after it: they run next, before those asked meanwhile', async () => {
    const seen: string[] = [];
    const boom = new Error('delivery failed');
    const caught = await catchingUncaught(async () => {
      afterReads(() => seen.push('a'));
      afterReads(() => {
        seen.push('b');
        afterReads(() => seen.push('e'));
        throw boom;
      });
      afterReads(() => seen.push('c'));
      afterReads(() => seen.push('d'));
      for (let i = 0; i < 4 && seen.length < 5; i++) await nextCheckPhase();
    });
    expect(caught).toEqual([boom]);
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e']);
    // and the queue keeps working afterwards
    afterReads(() => seen.push('f'));
    await nextCheckPhase();
    expect(seen.at(-1)).toBe('f');
  });

  it('writes asked for during a run go out once every delivery of the run has run, in the order asked', async () => {
    const seen: string[] = [];
    expect(writeAfterDeliveries(() => seen.push('never'))).toBe(false); // outside a run: the caller writes now
    afterReads(() => {
      seen.push('deliver a');
      expect(writeAfterDeliveries(() => seen.push('write a'))).toBe(true);
    });
    afterReads(() => {
      seen.push('deliver b');
      expect(writeAfterDeliveries(() => seen.push('write b'))).toBe(true);
    });
    await nextCheckPhase();
    expect(seen).toEqual(['deliver a', 'deliver b', 'write a', 'write b']);
  });

  it('a write that throws does not keep the others back, and the writes of a run cut short by a throw still go', async () => {
    const seen: string[] = [];
    const boom = new Error('write failed');
    const late = new Error('delivery failed');
    const caught = await catchingUncaught(async () => {
      afterReads(() => {
        writeAfterDeliveries(() => {
          throw boom;
        });
        writeAfterDeliveries(() => seen.push('write 2'));
      });
      afterReads(() => {
        writeAfterDeliveries(() => seen.push('write 3'));
        throw late;
      });
      afterReads(() => writeAfterDeliveries(() => seen.push('write 4')));
      for (let i = 0; i < 4 && seen.length < 3; i++) await nextCheckPhase();
    });
    expect(caught).toEqual([late]); // the delivery's error goes on up; the write's is not lost ahead of it
    expect(seen).toEqual(['write 2', 'write 3', 'write 4']);
  });
});
