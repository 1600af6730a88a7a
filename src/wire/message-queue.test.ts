import { describe, expect, it } from 'vitest';
import { MessageQueue } from './message-queue.ts';

describe('MessageQueue', () => {
  it('delivers in order, pauses above the high-water mark and resumes when drained', async () => {
    const events: string[] = [];
    const q = new MessageQueue(
      () => events.push('pause'),
      () => events.push('resume'),
    );
    for (let i = 0; i < 1100; i++) q.push({ type: 'Query', sql: String(i) });
    expect(events).toEqual(['pause']);
    for (let i = 0; i < 1100; i++) expect(await q.next()).toEqual({ type: 'Query', sql: String(i) });
    expect(events).toEqual(['pause', 'resume']);
    const waiting = q.next();
    q.push({ type: 'Sync' });
    expect(await waiting).toEqual({ type: 'Sync' });
    const pending = q.next();
    q.end();
    expect(await pending).toBeNull();
    expect(await q.next()).toBeNull();
  });

  it('counts messages received and handed out (the arrival order the connection compares with a Parse)', async () => {
    const q = new MessageQueue(() => {}, () => {});
    q.push({ type: 'Sync' });
    q.push({ type: 'Flush' });
    expect([q.received, q.pulled]).toEqual([2, 0]);
    await q.next();
    expect([q.received, q.pulled]).toEqual([2, 1]);
    await q.next();
    const waiting = q.next();
    q.push({ type: 'Sync' });
    await waiting;
    expect([q.received, q.pulled]).toEqual([3, 3]);
    q.end();
    q.push({ type: 'Sync' });
    expect(q.received).toBe(3);
  });

  it('take() hands out queued messages synchronously, in order with next(), and resumes a paused socket', async () => {
    const events: string[] = [];
    const q = new MessageQueue(() => events.push('pause'), () => events.push('resume'));
    expect(q.take()).toBeUndefined();
    for (let i = 0; i < 1030; i++) q.push({ type: 'Query', sql: String(i) });
    expect(await q.next()).toEqual({ type: 'Query', sql: '0' });
    expect(q.take()).toEqual({ type: 'Query', sql: '1' });
    expect(await q.next()).toEqual({ type: 'Query', sql: '2' });
    for (let i = 3; i < 1030; i++) expect(q.take()).toEqual({ type: 'Query', sql: String(i) });
    expect(events).toEqual(['pause', 'resume']);
    expect([q.received, q.pulled, q.size]).toEqual([1030, 1030, 0]);
    expect(q.take()).toBeUndefined();
    q.push({ type: 'Sync' });
    expect(q.take()).toEqual({ type: 'Sync' });
  });

  it('peek() shows the next queued message without taking it (an Execute asks whether Sync follows)', async () => {
    const q = new MessageQueue(() => {}, () => {});
    expect(q.peek()).toBeUndefined();
    q.push({ type: 'Flush' });
    q.push({ type: 'Sync' });
    expect(q.peek()).toEqual({ type: 'Flush' });
    expect([q.pulled, q.size]).toEqual([0, 2]);
    expect(q.take()).toEqual({ type: 'Flush' });
    expect(q.peek()).toEqual({ type: 'Sync' });
    expect(await q.next()).toEqual({ type: 'Sync' });
    expect(q.peek()).toBeUndefined();
  });

  it('keeps its slots between round trips and lets go of every message it handed out', () => {
    const q = new MessageQueue(() => {}, () => {});
    // white-box: the array behind the queue (V8 trims an array emptied by `length = 0`, so each round trip reallocated it)
    const slots = (): readonly unknown[] => (q as unknown as { items: readonly unknown[] }).items;
    const roundTrip = [{ type: 'Bind' }, { type: 'Describe' }, { type: 'Execute' }, { type: 'Sync' }] as const;
    for (let trip = 0; trip < 3; trip++) {
      for (const m of roundTrip) q.push(m as never);
      const before = slots();
      expect(q.take()).toBe(roundTrip[0]);
      // the message taken is no longer referenced by the queue; the others wait in order
      expect(slots()[0]).toBeUndefined();
      expect(q.peek()).toBe(roundTrip[1]);
      for (let i = 1; i < roundTrip.length; i++) expect(q.take()).toBe(roundTrip[i]);
      expect(q.size).toBe(0);
      expect(slots()).toBe(before);
      expect(slots().length).toBe(roundTrip.length);
      expect(slots().every((x) => x === undefined)).toBe(true);
    }
    // a burst's slots are not kept for the connection's life
    for (let i = 0; i < 100; i++) q.push({ type: 'Sync' });
    for (let i = 0; i < 100; i++) q.take();
    expect(slots().length).toBe(0);
    q.push({ type: 'Flush' });
    expect([q.size, q.take()?.type, q.size]).toEqual([1, 'Flush', 0]);
  });
});
