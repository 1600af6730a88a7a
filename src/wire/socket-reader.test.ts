import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readIntoReusedBuffer } from './socket-reader.ts';

let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (server === null ? resolve() : server.close(() => resolve())));
  server = null;
});

/** a server whose first accepted socket is handed to `onSocket`; returns a connected client */
async function pair(onSocket: (s: Socket) => void): Promise<Socket> {
  server = createServer(onSocket);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
  const client = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => client.once('connect', resolve));
  return client;
}

const until = async (cond: () => boolean): Promise<void> => {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('readIntoReusedBuffer', () => {
  it('delivers every byte through one reused buffer, then close on EOF', async () => {
    const chunks: Buffer[] = [];
    const backing = new Set<ArrayBufferLike>();
    let closed = false;
    let switched = false;
    const client = await pair((s) => {
      switched = readIntoReusedBuffer(s, (chunk) => {
        backing.add(chunk.buffer);
        chunks.push(Buffer.from(chunk)); // the view is valid only during the call
      });
      s.on('close', () => (closed = true));
    });
    const sent: Buffer[] = [];
    for (let i = 0; i < 20; i++) {
      const piece = Buffer.alloc(1 + i * 97, i);
      sent.push(piece);
      client.write(piece);
      await new Promise((r) => setTimeout(r, 2));
    }
    const big = Buffer.alloc(300_000, 7); // more than one read
    sent.push(big);
    client.end(big);
    await until(() => closed);
    expect(switched).toBe(true);
    expect(Buffer.concat(chunks).equals(Buffer.concat(sent))).toBe(true);
    expect(chunks.length).toBeGreaterThan(5);
    expect(backing.size).toBe(1);
    expect(closed).toBe(true);
  });

  it('hands out one view per short read length, each showing the bytes of its read', async () => {
    const seen: { view: Buffer; bytes: string }[] = [];
    const client = await pair((s) => {
      readIntoReusedBuffer(s, (chunk) => {
        seen.push({ view: chunk, bytes: chunk.toString('latin1') });
      });
    });
    const sent = ['abc', 'xyz', 'hello', 'abcd', 'q'.repeat(300), 'r'.repeat(300), 'pqr'];
    let got = 0;
    for (const piece of sent) {
      client.write(piece);
      got += piece.length;
      await until(() => seen.reduce((n, c) => n + c.bytes.length, 0) === got);
    }
    client.destroy();
    expect(seen.map((c) => c.bytes)).toEqual(sent);
    const byLength = (n: number) => seen.filter((c) => c.view.length === n).map((c) => c.view);
    // three reads of 3 bytes share one view; reads past 256 bytes get their own
    expect(new Set(byLength(3)).size).toBe(1);
    expect(byLength(3)).toHaveLength(3);
    expect(new Set(byLength(300)).size).toBe(2);
  });

  it('pause() stops the callbacks until resume(); a second switch is refused', async () => {
    let received = 0;
    let socket: Socket | null = null;
    let second: boolean | null = null;
    const client = await pair((s) => {
      socket = s;
      readIntoReusedBuffer(s, (chunk) => {
        received += chunk.length;
      });
      second = readIntoReusedBuffer(s, () => {});
    });
    client.write(Buffer.alloc(10));
    await until(() => received === 10);
    socket!.pause();
    client.write(Buffer.alloc(5));
    await new Promise((r) => setTimeout(r, 50));
    expect(received).toBe(10);
    socket!.resume();
    await until(() => received === 15);
    expect(received).toBe(15);
    expect(second).toBe(false);
    client.destroy();
  });

  it('hands over bytes the stream buffered before the switch', async () => {
    const chunks: Buffer[] = [];
    let socket: Socket | null = null;
    const client = await pair((s) => {
      socket = s;
      s.pause();
    });
    client.write('before');
    await until(() => socket !== null && socket.readableLength > 0);
    expect(readIntoReusedBuffer(socket!, (c) => chunks.push(Buffer.from(c)))).toBe(true);
    socket!.resume();
    client.write('after');
    await until(() => Buffer.concat(chunks).length === 11);
    expect(Buffer.concat(chunks).toString()).toBe('beforeafter');
    client.destroy();
  });

  it('refuses a socket without a native handle (test doubles keep their data events)', () => {
    const fake = { read: () => null } as unknown as Socket;
    expect(readIntoReusedBuffer(fake, () => {})).toBe(false);
  });
});
