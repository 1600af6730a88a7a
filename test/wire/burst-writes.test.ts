/**
 * Answers held to the end of a delivery run (after-reads.ts writeAfterDeliveries, connection.ts flushNow): every
 * answer of one check phase leaves after all of that phase's statements ran. Pins what must not change with it:
 * several connections answered in the same phase each get their own answers, in order; a pipeline whose answers
 * pass the flush threshold (64 KiB) within one read still gets every answer, in order (the buffer goes out when
 * full instead of growing until the run's end); an error's answer and the ReadyForQuery after it arrive.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LakegateServer } from '../helpers/lakegate-server.ts';
import { firstColumns, startWireFixture, type WireFixture } from '../helpers/wire-fixture.ts';
import { RawClient, types } from './raw-client.ts';
import { fe } from '../../src/wire/testing/test-buffers.ts';
import type { FakeSession } from '../../src/wire/testing/fake-handler.ts';
import type { HandlerSession, StatementResult } from '../../src/wire/handler.ts';
import { startWire } from './start-wire.ts';
import { setBurstWrites } from '../../src/wire/connection.ts';

let fixture: WireFixture;
let server: LakegateServer;

beforeAll(async () => {
  setBurstWrites(true); // off by default (connection.ts): these tests pin its behaviour for when it is on
  fixture = await startWireFixture('bw', ['CREATE TABLE bw.kv (id int, v text)', `INSERT INTO bw.kv SELECT g, 'v' || g FROM generate_series(1, 100) g`]);
  ({ server } = fixture);
}, 60_000);
afterAll(async () => {
  setBurstWrites(false);
  await fixture?.close();
});

async function preparedLookup(): Promise<RawClient> {
  const raw = await RawClient.ready(server.port, { user: 'postgres' });
  raw.send(fe.parse('s', 'SELECT v FROM bw.kv WHERE id = $1', [23]), fe.sync());
  expect(types(await raw.until('Z'))).toBe('1Z');
  return raw;
}

/** blocks this thread (the in-process server's event loop) so that what the clients sent is read in one poll */
function holdEventLoop(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('answers written at the end of a delivery run', () => {
  it('connections read in the same poll each get their own answers, in order', async () => {
    const clients = await Promise.all(Array.from({ length: 6 }, preparedLookup));
    try {
      for (let round = 0; round < 3; round++) {
        clients.forEach((raw, i) => raw.send(fe.bind('', 's', [String(i * 10 + round + 1)]), fe.execute(''), fe.sync()));
        holdEventLoop(30);
        const answers = await Promise.all(clients.map((raw) => raw.until('Z')));
        answers.forEach((msgs, i) => {
          expect(types(msgs)).toBe('2DCZ');
          expect(firstColumns(msgs)).toEqual([`v${i * 10 + round + 1}`]);
        });
      }
    } finally {
      for (const raw of clients) raw.end();
    }
  });

  it('a pipeline whose answers pass 64 KiB in one read gets every answer in order', async () => {
    const raw = await preparedLookup();
    try {
      const n = 1500; // ≈ 45 bytes of answer each: past the flush threshold within one delivery
      const chunks: Buffer[] = [];
      for (let i = 0; i < n; i++) chunks.push(fe.bind('', 's', [String((i % 100) + 1)]), fe.execute(''), fe.sync());
      raw.send(Buffer.concat(chunks));
      const msgs = await raw.until('Z', n, 20_000);
      expect(msgs.filter((m) => m.type === 'Z')).toHaveLength(n);
      expect(firstColumns(msgs)).toEqual(Array.from({ length: n }, (_, i) => `v${(i % 100) + 1}`));
    } finally {
      raw.end();
    }
  });

  it('an error in a run is answered, with its ReadyForQuery, and the next round trip works', async () => {
    const raw = await preparedLookup();
    try {
      raw.send(fe.bind('', 's', ['not a number']), fe.execute(''), fe.sync(), fe.bind('', 's', ['4']), fe.execute(''), fe.sync());
      const msgs = await raw.until('Z', 2);
      expect(types(msgs)).toBe('EZ2DCZ');
      expect(firstColumns(msgs)).toEqual(['v4']);
    } finally {
      raw.end();
    }
  });

  it('every statement of the run runs before the first answer is written (fake handler answering at once)', async () => {
    const wire = await startWire();
    const log: string[] = [];
    // the libuv handle method every socket write ends in (socket-writer.ts); only answers starting with
    // CommandComplete ('C') are the server's, the clients' writes start with 'Q'
    const tcp = (process as unknown as { binding(n: string): { TCP: { prototype: Record<string, unknown> } } }).binding('tcp_wrap').TCP.prototype;
    const own = Object.prototype.hasOwnProperty.call(tcp, 'writeBuffer');
    const inherited = tcp['writeBuffer'] as (this: unknown, req: unknown, data: Uint8Array) => number;
    const clients = await Promise.all(Array.from({ length: 3 }, () => RawClient.ready(wire.port)));
    try {
      // the fake sessions answer a Query at once (the engine's fast path: HandlerSession.simpleQueryNow)
      wire.handler.sessions.forEach((s: FakeSession, i) => {
        (s as FakeSession & Pick<HandlerSession, 'simpleQueryNow'>).simpleQueryNow = (): StatementResult => (log.push(`run ${i}`), { kind: 'command', tag: 'SELECT 0' });
      });
      tcp['writeBuffer'] = function (this: unknown, req: unknown, data: Uint8Array): number {
        if (data[0] === 0x43) log.push('write');
        return inherited.call(this, req, data);
      };
      for (const raw of clients) raw.send(fe.query('SELECT 0'));
      holdEventLoop(30);
      const answers = await Promise.all(clients.map((raw) => raw.until('Z')));
      for (const msgs of answers) expect(types(msgs)).toBe('CZ');
      // the runs' order is the order the poll read the sockets in; every run comes before every write
      expect(log.map((e) => (e === 'write' ? e : 'run'))).toEqual(['run', 'run', 'run', 'write', 'write', 'write']);
      expect([...log.slice(0, 3)].sort()).toEqual(['run 0', 'run 1', 'run 2']);
    } finally {
      if (own) tcp['writeBuffer'] = inherited;
      else delete tcp['writeBuffer'];
      for (const raw of clients) raw.end();
      await wire.close();
    }
  });
});
