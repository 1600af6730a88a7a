/**
 * Bounded protocol fuzz: fixed seed, ~2000 random and mutated frames over several connections.
 * The server must never crash, must not fail inside wire/ code, and must still serve a fresh connection.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fe } from '../../src/wire/testing/test-buffers.ts';
import { RawClient, types } from './raw-client.ts';
import { startWire, type WireFixture } from './start-wire.ts';
import { mulberry32 } from '../../src/common/prng.ts';

let fx: WireFixture;
beforeAll(async () => {
  fx = await startWire();
});
afterAll(async () => {
  await fx.close();
});

const rnd = mulberry32(0x1a4e6a7e);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const int = (n: number): number => Math.floor(rnd() * n);

const valid: Array<() => Buffer> = [
  () => fe.query(pick(['select 1', 'select * from series(20, 3)', 'begin', 'commit', '', 'select * from missing', 'boom', 'copy t to stdout 4', 'copy t from stdin', 'notice'])),
  () => fe.parse(pick(['', 's', 't']), pick(['select $1::int4', 'select 2', 'select * from series(9, 2)', 'select $1::int8, $2::bool']), pick([[], [23], [0, 0]])),
  () => fe.bind(pick(['', 'p']), pick(['', 's', 't']), pick([[], ['1'], [null], [Buffer.from([0, 0, 0, 5])], ['x', 'y']]), pick([[], [0], [1], [1, 0]]), pick([[], [1], [0, 1]])),
  () => fe.describe(pick(['S', 'P']), pick(['', 's', 'p'])),
  () => fe.execute(pick(['', 'p']), int(4)),
  () => fe.close(pick(['S', 'P']), pick(['', 's', 'p'])),
  () => fe.sync(),
  () => fe.flush(),
  () => fe.copyData('1\tx\n'),
  () => fe.copyDone(),
  () => fe.copyFail('fuzz'),
  () => fe.password('pw'),
];

function mutate(b: Buffer): Buffer {
  const out = Buffer.from(b);
  switch (int(5)) {
    case 0: // flip bytes
      for (let i = 0, n = 1 + int(3); i < n; i++) out[int(out.length)] = int(256);
      return out;
    case 1: // truncate the body (the length is now a lie)
      return out.subarray(0, Math.max(1, int(out.length)));
    case 2: // rewrite the length field
      if (out.length >= 5) out.writeInt32BE(int(3) === 0 ? -int(1000) : int(64), 1);
      return out;
    case 3: // random type byte
      out[0] = int(256);
      return out;
    default: // random garbage
      return Buffer.from(Array.from({ length: 1 + int(40) }, () => int(256)));
  }
}

function frame(): Buffer {
  const r = rnd();
  if (r < 0.55) return valid[int(valid.length)]!();
  return mutate(valid[int(valid.length)]!());
}

async function fuzzConnection(frames: number, garbageStartup: boolean): Promise<number> {
  const socket = connect(fx.port, fx.host);
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  let sent = 0;
  socket.write(garbageStartup ? pick([mutate(fe.startup({ user: 'fuzz' })), fe.sslRequest(), fe.gssencRequest(), fe.cancelRequest(int(99999), int(99999))]) : fe.startup({ user: 'fuzz' }));
  sent++;
  for (; sent < frames && !socket.destroyed; sent++) {
    const f = frame();
    // split some frames in two writes to exercise reassembly
    if (f.length > 2 && rnd() < 0.3) {
      const cut = 1 + int(f.length - 1);
      socket.write(f.subarray(0, cut));
      await new Promise((r) => setImmediate(r));
      socket.write(f.subarray(cut));
    } else socket.write(f);
    if (sent % 8 === 0) await new Promise((r) => setImmediate(r));
  }
  await new Promise((r) => setTimeout(r, 20));
  socket.destroy();
  return sent;
}

it('survives ~2000 random and mutated frames, then serves a fresh connection', async () => {
  let total = 0;
  for (let round = 0; round < 40 && total < 2000; round++) {
    const batch = await Promise.all([fuzzConnection(10, true), fuzzConnection(60, false), fuzzConnection(60, false), fuzzConnection(60, false)]);
    total += batch.reduce((a, b) => a + b, 0);
  }
  expect(total).toBeGreaterThan(1500);
  if (process.env['FUZZ_DEBUG']) console.log(fx.errors.map((e) => String(e).slice(0, 80)));

  const fresh = await RawClient.ready(fx.port);
  fresh.send(fe.query('select 5'));
  expect(types(await fresh.until('Z'))).toBe('TDCZ');
  fresh.end();

  // nothing inside wire/ threw an unexpected error (handler-double failures are allowed)
  const wireBugs = fx.errors.filter((e) => e instanceof Error && /\/src\/wire\/(?!testing\/)/.test((e.stack ?? '').split('\n')[1] ?? ''));
  expect(wireBugs).toEqual([]);
  await expect.poll(() => fx.server.connectionCount, { timeout: 5000 }).toBe(0);
}, 60000);
