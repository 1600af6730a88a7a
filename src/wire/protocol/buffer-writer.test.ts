/**
 * BufferWriter.peek / release: a flush hands the socket a view of the buffer without copying; the buffer is
 * reused only when the socket is done with the view, otherwise the view must survive later writes.
 */
import { describe, expect, it, vi } from 'vitest';
import { BufferWriter, SHORT_ASCII } from './buffer-writer.ts';

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

describe('BufferWriter strings', () => {
  const encodings = (write: (w: BufferWriter, s: string) => void, s: string): Buffer => {
    const w = new BufferWriter(8);
    w.u8(0x7e); // not at offset 0
    write(w, s);
    return w.take().subarray(1);
  };
  const samples = ['', '1', 'SELECT 1', 'sixteen chars ok', 'seventeen chars!!', 'c4ca4238a0b923820dcc509a6f75849b', 'héllo', '日本', '😀', 'ok\ud800', 'x'.repeat(15) + 'é', '\u007f\u0080'];

  it('string, cstring and lengthPrefixedString write UTF-8 as Buffer does, short ASCII or not', () => {
    for (const s of samples) {
      const utf8 = Buffer.from(s, 'utf8');
      expect(encodings((w, v) => w.string(v), s)).toEqual(utf8);
      expect(encodings((w, v) => w.cstring(v), s)).toEqual(Buffer.concat([utf8, Buffer.from([0])]));
      const prefixed = Buffer.alloc(4 + utf8.length);
      prefixed.writeInt32BE(utf8.length, 0);
      utf8.copy(prefixed, 4);
      expect(encodings((w, v) => w.lengthPrefixedString(v), s)).toEqual(prefixed);
    }
  });

  it('copies short ASCII strings without a Buffer#write call (C++ per call), longer or non-ASCII ones with it', () => {
    const write = vi.spyOn(Buffer.prototype, 'write');
    try {
      const w = new BufferWriter(64);
      w.cstring('SELECT 1').lengthPrefixedString('1').string('x'.repeat(SHORT_ASCII));
      expect(write).not.toHaveBeenCalled();
      w.lengthPrefixedString('x'.repeat(SHORT_ASCII + 1)).cstring('né');
      expect(write).toHaveBeenCalledTimes(2);
    } finally {
      write.mockRestore();
    }
  });
});
