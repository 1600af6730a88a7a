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
});
