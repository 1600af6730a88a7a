/** MessageQueue pauses the socket on queued CopyData bytes too, not only on the message count (COPY input backpressure). */
import { describe, expect, it } from 'vitest';
import { HIGH_WATER_BYTES, MessageQueue } from './message-queue.ts';

describe('MessageQueue: CopyData bytes', () => {
  it('a few big CopyData messages pause the socket; it resumes once they are taken', () => {
    const events: string[] = [];
    const q = new MessageQueue(() => events.push('pause'), () => events.push('resume'));
    const chunk = 256 * 1024;
    const n = HIGH_WATER_BYTES / chunk;
    for (let i = 0; i < n - 1; i++) q.push({ type: 'CopyData', data: new Uint8Array(chunk) });
    expect(events).toEqual([]);
    q.push({ type: 'CopyData', data: new Uint8Array(chunk) });
    // 32 messages of 256 KiB: far below the message count's high water, at the bytes' one
    expect(events).toEqual(['pause']);
    // resumed at 1 MiB left (4 messages), not before
    for (let i = 0; i < n - 5; i++) q.take();
    expect(events).toEqual(['pause']);
    q.take();
    expect(events).toEqual(['pause', 'resume']);
    for (let i = 0; i < 4; i++) q.take();
    expect(q.size).toBe(0);
  });
});
