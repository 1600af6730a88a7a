/**
 * SocketWriter over real loopback sockets: bytes arrive complete and in order, a client that does not read makes
 * the writer answer FULL and drained() wait until it reads, and bytes the stream still holds go out first.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FULL, SocketWriter, WRITTEN } from './socket-writer.ts';

let server: Server | null = null;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

/** a connected pair: the accepted socket and a paused client socket collecting what it reads once resumed */
async function pair(): Promise<{ accepted: Socket; client: Socket; received: () => Buffer }> {
  const accepted = new Promise<Socket>((resolve) => {
    server = createServer((s) => resolve(s));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  const port = (server!.address() as { port: number }).port;
  const client = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  client.on('data', (d: Buffer) => chunks.push(d));
  client.pause();
  const s = await accepted;
  sockets.push(s, client);
  return { accepted: s, client, received: () => Buffer.concat(chunks) };
}

/** `n` bytes counting up from `seed` (mod 251): any loss, duplicate or reordering shows */
const pattern = (n: number, seed: number): Buffer => {
  const b = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i++) b[i] = (seed + i) % 251;
  return b;
};

const until = async (cond: () => boolean, ms = 5000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('SocketWriter', () => {
  it('writes small answers at once and the bytes arrive in order', async () => {
    const { accepted, client, received } = await pair();
    const w = SocketWriter.for(accepted);
    expect(w).not.toBeNull();
    const sent: Buffer[] = [];
    for (let i = 0; i < 50; i++) {
      const b = pattern(100 + i, i);
      sent.push(b);
      expect(w!.write(b)).toBe(WRITTEN);
    }
    client.resume();
    const all = Buffer.concat(sent);
    await until(() => received().length >= all.length);
    expect(received().equals(all)).toBe(true);
  });

  it('a client that does not read: FULL, drained() waits for it, nothing is lost', async () => {
    const { accepted, client, received } = await pair();
    const w = SocketWriter.for(accepted)!;
    const sent: Buffer[] = [];
    let outcome: number = WRITTEN;
    for (let i = 0; i < 256 && outcome !== FULL; i++) {
      const b = pattern(256 * 1024, i);
      sent.push(b);
      outcome = w.write(b);
    }
    expect(outcome).toBe(FULL);
    let drained = false;
    const draining = w.drained().then(() => {
      drained = true;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(drained).toBe(false);
    client.resume();
    await draining;
    const all = Buffer.concat(sent);
    await until(() => received().length >= all.length);
    expect(received().equals(all)).toBe(true);
  });

  it('bytes the stream still holds go out before a direct write', async () => {
    const { accepted, client, received } = await pair();
    const w = SocketWriter.for(accepted)!;
    // fill the kernel buffers through the stream, so that it keeps the last chunks queued
    const first: Buffer[] = [];
    for (let i = 0; i < 64 && accepted.writableLength === 0; i++) {
      const b = pattern(256 * 1024, i);
      first.push(b);
      accepted.write(b);
    }
    expect(accepted.writableLength).toBeGreaterThan(0);
    const last = pattern(1000, 7);
    expect(w.write(last)).not.toBe(WRITTEN);
    client.resume();
    const all = Buffer.concat([...first, last]);
    await until(() => received().length >= all.length);
    expect(received().equals(all)).toBe(true);
  });
});
