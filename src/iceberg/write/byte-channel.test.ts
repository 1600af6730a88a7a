/**
 * ByteChannel: chunks come out in order; a push waits while more than the high water mark is queued or being
 * written (until the consumer is back for the next chunk); fail() rejects waiting and later pushes and ends the
 * consumer with the error.
 */
import { describe, expect, it } from 'vitest';
import { ByteChannel } from './byte-channel.ts';

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

describe('ByteChannel', () => {
  it('delivers chunks in order and ends', async () => {
    const ch = new ByteChannel(1024);
    const got: number[] = [];
    const consumer = (async () => {
      for await (const c of ch) got.push(c[0]!);
    })();
    for (let i = 0; i < 20; i++) await ch.push(new Uint8Array([i, 0, 0]));
    ch.end();
    await consumer;
    expect(got).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('a push waits until the consumer has written what is over the high water mark', async () => {
    const ch = new ByteChannel(10);
    const it = ch[Symbol.asyncIterator]();
    let done = false;
    const p = ch.push(new Uint8Array(100)).then(() => {
      done = true;
    });
    await tick();
    expect(done).toBe(false);
    await it.next(); // the consumer takes the chunk and is writing it
    await tick();
    expect(done).toBe(false);
    const next = it.next(); // back for the next one: the chunk is written
    await p;
    expect(done).toBe(true);
    ch.end();
    expect((await next).done).toBe(true);
  });

  it('fail rejects the waiting push, later pushes and the consumer', async () => {
    const ch = new ByteChannel(10);
    const it = ch[Symbol.asyncIterator]();
    const waiting = ch.push(new Uint8Array(100));
    ch.fail(new Error('store gave up'));
    await expect(waiting).rejects.toThrow('store gave up');
    await expect(ch.push(new Uint8Array(1))).rejects.toThrow('store gave up');
    await expect(it.next()).rejects.toThrow('store gave up');
  });
});
