/**
 * BufferWriter.peek / release: a flush hands the socket a view of the buffer without copying; the buffer is
 * reused only when the socket is done with the view, otherwise the view must survive later writes.
 */
import { describe, expect, it } from 'vitest';
import { BufferWriter } from './buffer-writer.ts';

describe('BufferWriter peek/release', () => {
  it('gives a view of the written bytes and, released as reusable, writes over it', () => {
    const w = new BufferWriter(64);
    w.string('hello');
    const view = w.peek();
    expect(view.toString()).toBe('hello');
    w.release(true);
    expect(w.length).toBe(0);
    w.string('HELLO');
    expect(view.toString()).toBe('HELLO'); // same memory: only safe because the consumer was done with it
    expect(w.peek().toString()).toBe('HELLO');
  });

  it('released as not reusable, leaves the view alone and continues in a new buffer', () => {
    const w = new BufferWriter(64);
    w.string('queued');
    const view = w.peek();
    w.release(false);
    w.string('next!!');
    expect(view.toString()).toBe('queued');
    expect(w.peek().toString()).toBe('next!!');
  });

  it('drops a half-written message at release', () => {
    const w = new BufferWriter(64);
    w.startMessage(0x44).i16(1);
    w.peek();
    w.release(true);
    w.abortMessage(); // nothing to abort any more: must not move the position back
    w.startMessage(0x43).cstring('SELECT 1').endMessage();
    expect(w.take()).toEqual(Buffer.from([0x43, 0, 0, 0, 13, ...Buffer.from('SELECT 1'), 0]));
  });
});
