import { describe, expect, it } from 'vitest';
import { HeldMessages } from './held-messages.ts';
import { FrontendParser } from './protocol/frontend-parser.ts';
import { fe } from './testing/test-buffers.ts';

describe('HeldMessages', () => {
  it('collects what the parser completes over several reads, in order, and reuses its slots once cleared', () => {
    const p = new FrontendParser();
    p.push(fe.startup({ user: 'u' }));
    const held = new HeldMessages();
    const slots = (): readonly unknown[] => (held as unknown as { items: readonly unknown[] }).items;
    for (let trip = 0; trip < 3; trip++) {
      const roundTrip = Buffer.concat([fe.bind('', 's', ['7']), fe.describe('P', ''), fe.execute('', 0), fe.sync()]);
      // one round trip cut over two reads of the same poll
      p.parseInto(roundTrip.subarray(0, 9), true, held);
      p.parseInto(roundTrip.subarray(9), true, held);
      expect(held.count).toBe(4);
      expect([0, 1, 2, 3].map((i) => held.at(i).type)).toEqual(['Bind', 'Describe', 'Execute', 'Sync']);
      const before = slots();
      held.clear();
      expect(held.count).toBe(0);
      expect(slots()).toBe(before);
      expect(slots().every((x) => x === undefined)).toBe(true);
    }
    // a burst's slots are let go
    const many = Buffer.concat(Array.from({ length: 100 }, () => fe.sync()));
    p.parseInto(many, false, held);
    expect(held.count).toBe(100);
    held.clear();
    expect([held.count, slots().length]).toEqual([0, 0]);
  });
});
