/** Raw-socket protocol tests: exact message sequences the drivers do not exercise. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fe } from '../../src/wire/testing/test-buffers.ts';
import { errorFields, RawClient, types } from './raw-client.ts';
import { startWire, type WireFixture } from './start-wire.ts';

let fx: WireFixture;
beforeAll(async () => {
  fx = await startWire();
});
afterAll(async () => {
  await fx.close();
});

const int4 = (v: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(v);
  return b;
};

describe('startup', () => {
  it('greets with AuthenticationOk, ParameterStatus*, BackendKeyData, ReadyForQuery(I)', async () => {
    const c = await RawClient.open(fx.port);
    c.send(fe.startup({ user: 'raw', database: 'lakegate', application_name: 'rawtest', some_unknown: 'x' }));
    const msgs = await c.until('Z');
    expect(types(msgs)).toMatch(/^RS+KZ$/);
    expect(msgs[0]!.body.readInt32BE(0)).toBe(0);
    const status = Object.fromEntries(msgs.filter((m) => m.type === 'S').map((m) => m.body.toString().split('\0').slice(0, 2)));
    expect(status['application_name']).toBe('rawtest');
    expect(msgs.at(-1)!.body.toString()).toBe('I');
    expect(fx.handler.sessions.at(-1)!.info.parameters['some_unknown']).toBe('x');
    c.end();
  });

  it('GSSENCRequest → N, then a normal startup', async () => {
    const c = await RawClient.open(fx.port);
    c.send(fe.gssencRequest());
    expect((await c.bytes(1)).toString()).toBe('N');
    c.send(fe.startup({ user: 'raw' }));
    expect(types(await c.until('Z'))).toMatch(/KZ$/);
    c.end();
  });

  it('NegotiateProtocolVersion for 3.2 and _pq_ options', async () => {
    const c = await RawClient.open(fx.port);
    c.send(fe.startup({ user: 'raw', '_pq_.magic': 'on' }, (3 << 16) | 2));
    const msgs = await c.until('Z');
    expect(msgs[0]!.type).toBe('v');
    expect(msgs[0]!.body.readInt32BE(0)).toBe(196608);
    expect(msgs[0]!.body.readInt32BE(4)).toBe(1);
    expect(msgs[0]!.body.subarray(8).toString()).toBe('_pq_.magic\0');
    c.end();
  });

  it('protocol 2.0 is refused with FATAL 0A000; missing user with 28000', async () => {
    const c = await RawClient.open(fx.port);
    c.send(fe.startup({ user: 'raw' }, 2 << 16));
    const [e] = await c.until('E');
    expect(errorFields(e!)).toMatchObject({ S: 'FATAL', C: '0A000', M: 'unsupported frontend protocol 2.0: server supports 3.0 to 3.0' });
    expect(await c.waitClosed()).toBe(true);
    const d = await RawClient.open(fx.port);
    d.send(fe.startup({ database: 'x' }));
    expect(errorFields((await d.until('E'))[0]!)).toMatchObject({ C: '28000' });
    expect(await d.waitClosed()).toBe(true);
  });

  it('a wrong cancel key is ignored and the connection closed without reply', async () => {
    const c = await RawClient.ready(fx.port);
    const k = await RawClient.open(fx.port);
    k.send(fe.cancelRequest(1, 2));
    expect(await k.waitClosed()).toBe(true);
    c.send(fe.query('select 1'));
    expect(types(await c.until('Z'))).toBe('TDCZ');
    c.end();
  });
});

describe('extended protocol', () => {
  it('Parse/Bind/Describe/Execute/Sync pipelined with binary params and results', async () => {
    const c = await RawClient.ready(fx.port);
    c.send(
      fe.parse('s1', 'select $1::int4, $2::text', [23, 0]),
      fe.describe('S', 's1'),
      fe.bind('p1', 's1', [int4(77), 'hi'], [1, 0], [1, 0]),
      fe.describe('P', 'p1'),
      fe.execute('p1', 0),
      fe.sync(),
    );
    const msgs = await c.until('Z');
    expect(types(msgs)).toBe('1tT2TDCZ');
    const pd = msgs[1]!.body;
    expect([pd.readInt16BE(0), pd.readInt32BE(2), pd.readInt32BE(6)]).toEqual([2, 23, 25]);
    const rd = msgs[4]!.body; // Describe P carries the portal's result formats
    const firstFormat = rd.readInt16BE(2 + 3 + 16);
    expect(firstFormat).toBe(1);
    const row = msgs[5]!.body;
    expect(row.readInt16BE(0)).toBe(2);
    expect(row.readInt32BE(2)).toBe(4);
    expect(row.readInt32BE(6)).toBe(77);
    expect(row.subarray(14).toString()).toBe('hi');
    expect(msgs[6]!.body.toString()).toBe('SELECT 1\0');
    c.end();
  });

  it('an error is sent at once, without waiting for Sync (asyncpg: Parse/Describe/Flush)', async () => {
    const c = await RawClient.ready(fx.port);
    c.send(fe.parse('bad', 'select * from missing'), fe.describe('S', 'bad'), fe.flush());
    const [e] = await c.until('E');
    expect(errorFields(e!)).toMatchObject({ C: '42P01' });
    c.send(fe.sync());
    expect(types(await c.until('Z'))).toBe('Z');
    c.end();
  });

  it('pipelining: 300 Bind/Execute pairs before one Sync, answered in order in few writes', async () => {
    const c = await RawClient.ready(fx.port);
    let writes = 0;
    c.socket.on('data', () => writes++);
    const frames = [fe.parse('e', 'select $1::int4')];
    for (let i = 0; i < 300; i++) frames.push(fe.bind('', 'e', [String(i)]), fe.execute(''));
    c.send(Buffer.concat([...frames, fe.sync()]));
    const msgs = await c.until('Z');
    expect(types(msgs)).toBe('1' + '2DC'.repeat(300) + 'Z');
    expect(msgs.filter((m) => m.type === 'D').map((m) => Number(m.body.subarray(6).toString()))).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect(writes).toBeLessThan(20); // buffered, not one write per message
    c.end();
  });

  it('Execute with max rows → PortalSuspended, resumes, then CommandComplete', async () => {
    const c = await RawClient.ready(fx.port);
    c.send(fe.parse('', 'select * from series(5, 2)'), fe.bind('cur', ''), fe.execute('cur', 3), fe.flush());
    expect(types(await c.until('s'))).toBe('12DDDs');
    c.send(fe.execute('cur', 3), fe.flush());
    const rest = await c.until('C');
    expect(types(rest)).toBe('DDC');
    expect(rest[2]!.body.toString()).toBe('SELECT 2\0');
    c.send(fe.execute('cur', 3), fe.sync()); // a finished row portal answers SELECT 0, as PostgreSQL does
    const done = await c.until('Z');
    expect(types(done)).toBe('CZ');
    expect(done[0]!.body.toString()).toBe('SELECT 0\0');
    c.send(fe.parse('', 'begin'), fe.bind('', ''), fe.execute(''), fe.execute(''), fe.sync());
    const twice = await c.until('Z');
    expect(types(twice)).toBe('12CEZ');
    expect(errorFields(twice[3]!)).toMatchObject({ C: '55000', M: 'portal "" cannot be run' });
    c.end();
  });

  it('after an error, messages are skipped until Sync; unknown statement 26000 / portal 34000', async () => {
    const c = await RawClient.ready(fx.port);
    c.send(fe.bind('', 'nope'), fe.execute('', 0), fe.parse('x', 'select 1'), fe.sync());
    const msgs = await c.until('Z');
    expect(types(msgs)).toBe('EZ');
    expect(errorFields(msgs[0]!)).toMatchObject({ S: 'ERROR', C: '26000', M: 'prepared statement "nope" does not exist' });
    c.send(fe.describe('S', 'x'), fe.sync()); // the skipped Parse never happened
    expect(errorFields((await c.until('Z'))[0]!)).toMatchObject({ C: '26000' });
    c.send(fe.execute('ghost', 0), fe.sync());
    expect(errorFields((await c.until('Z'))[0]!)).toMatchObject({ C: '34000', M: 'portal "ghost" does not exist' });
    c.end();
  });

  it('named statements: duplicate → 42P05; unnamed is replaced; Close S/P; NoData', async () => {
    const c = await RawClient.ready(fx.port);
    c.send(fe.parse('a', 'select 1'), fe.parse('a', 'select 2'), fe.sync());
    const m1 = await c.until('Z');
    expect(types(m1)).toBe('1EZ');
    expect(errorFields(m1[1]!)).toMatchObject({ C: '42P05', M: 'prepared statement "a" already exists' });
    c.send(fe.parse('', 'select 1'), fe.parse('', 'begin'), fe.describe('S', ''), fe.close('S', 'a'), fe.close('P', 'zz'), fe.describe('S', 'a'), fe.sync());
    const m2 = await c.until('Z');
    expect(types(m2)).toBe('11tn33EZ');
    c.end();
  });

  it('a named portal and the unnamed one both live over Sync in a block and are gone after COMMIT, suspended or not', async () => {
    const c = await RawClient.ready(fx.port);
    c.send(fe.query('begin'));
    await c.until('Z');
    c.send(fe.parse('s', 'select * from series(5)'), fe.bind('cur', 's'), fe.execute('cur', 2), fe.bind('', 's'), fe.execute('', 1), fe.sync());
    expect(types(await c.until('Z'))).toBe('12DDs2DsZ');
    // status T: both portals stay and resume where they stopped
    c.send(fe.execute('cur', 0), fe.execute('', 0), fe.sync());
    expect(types(await c.until('Z'))).toBe('DDDCDDDDCZ');
    // both suspended when the transaction ends: COMMIT closes them (their row streams released)
    c.send(fe.bind('cur2', 's'), fe.execute('cur2', 1), fe.bind('', 's'), fe.execute('', 1), fe.sync());
    expect(types(await c.until('Z'))).toBe('2Ds2DsZ');
    c.send(fe.query('commit'));
    expect(types(await c.until('Z'))).toBe('CZ');
    for (const name of ['cur2', 'cur', '']) {
      c.send(fe.execute(name, 0), fe.sync());
      expect(errorFields((await c.until('Z'))[0]!)).toMatchObject({ C: '34000', M: `portal "${name}" does not exist` });
    }
    c.end();
  });

  it('Close S also closes the portals built from it', async () => {
    const c = await RawClient.ready(fx.port);
    c.send(fe.parse('s', 'select * from series(5)'), fe.bind('p', 's'), fe.close('S', 's'), fe.execute('p'), fe.sync());
    const msgs = await c.until('Z');
    expect(types(msgs)).toBe('123EZ');
    expect(errorFields(msgs[3]!)).toMatchObject({ C: '34000' });
    c.end();
  });

  it('Bind checks: parameter count, format count, bad format code', async () => {
    const c = await RawClient.ready(fx.port);
    c.send(fe.parse('p', 'select $1::int4'), fe.bind('', 'p', []), fe.sync());
    expect(errorFields((await c.until('Z'))[1]!)).toMatchObject({ C: '08P01', M: 'bind message supplies 0 parameters, but prepared statement "p" requires 1' });
    c.send(fe.bind('', 'p', ['1'], [0, 0]), fe.sync());
    expect(errorFields((await c.until('Z'))[0]!)).toMatchObject({ C: '08P01' });
    c.send(fe.bind('', 'p', ['1'], [7]), fe.sync());
    expect(errorFields((await c.until('Z'))[0]!)).toMatchObject({ C: '22023', M: 'unsupported format code: 7' });
    c.send(fe.bind('', 'p', [Buffer.from([1, 2])], [1]), fe.sync());
    expect(errorFields((await c.until('Z'))[0]!)).toMatchObject({ C: '22P03' });
    c.send(fe.bind('', 'p', [null]), fe.execute(''), fe.sync());
    const ok = await c.until('Z');
    expect(types(ok)).toBe('2DCZ');
    expect(ok[1]!.body.readInt32BE(2)).toBe(-1);
    c.end();
  });

  it('ReadyForQuery reports T and E transaction status', async () => {
    const c = await RawClient.ready(fx.port);
    c.send(fe.query('begin'));
    expect((await c.until('Z')).at(-1)!.body.toString()).toBe('T');
    c.send(fe.query('garbage'));
    expect((await c.until('Z')).at(-1)!.body.toString()).toBe('E');
    c.send(fe.query('rollback'));
    expect((await c.until('Z')).at(-1)!.body.toString()).toBe('I');
    c.end();
  });
});

describe('COPY and violations', () => {
  it('CopyFail → 57014; other messages during COPY IN → 08P01', async () => {
    const c = await RawClient.ready(fx.port);
    c.send(fe.query('copy t from stdin'));
    expect(types(await c.until('G'))).toBe('G');
    c.send(fe.copyData('1\ta\n'), fe.copyFail('stop it'));
    const m = await c.until('Z');
    expect(errorFields(m[0]!)).toMatchObject({ C: '57014', M: 'COPY from stdin failed: stop it' });
    c.send(fe.query('copy t from stdin'));
    await c.until('G');
    c.send(fe.query('select 1'));
    const m2 = await c.until('E', 2);
    expect(errorFields(m2[0]!)).toMatchObject({ S: 'ERROR', C: '08P01', M: 'unexpected message type 0x51 during COPY from stdin' });
    expect(errorFields(m2[1]!)).toMatchObject({ S: 'FATAL', C: '08P01', M: 'terminating connection because protocol synchronization was lost' });
    expect(await c.waitClosed()).toBe(true);
  });

  it('COPY IN of ~3 MB in CopyData messages that span socket reads arrives byte for byte (reused read buffer)', async () => {
    const c = await RawClient.ready(fx.port);
    c.send(fe.query('copy t from stdin'));
    await c.until('G');
    const lines: string[] = [];
    for (let i = 0; i < 60_000; i++) lines.push(`${i}\tvalue ${i} ${'x'.repeat(i % 61)}\n`);
    const text = lines.join('');
    // messages of uneven sizes (some bigger than one 64 KiB read), written in uneven pieces
    const messages: Buffer[] = [];
    for (let at = 0, k = 0; at < text.length; k++) {
      const size = [17, 70_000, 333, 9_000, 131_072][k % 5]!;
      messages.push(fe.copyData(text.slice(at, at + size)));
      at += size;
    }
    const stream = Buffer.concat([...messages, fe.copyDone(), fe.sync()]);
    for (let at = 0, k = 0; at < stream.length; k++) {
      const size = [1, 4_099, 65_536, 100_000, 7][k % 5]!;
      c.send(stream.subarray(at, at + size));
      at += size;
    }
    const m = await c.until('Z', 1, 30_000);
    expect(m.find((x) => x.type === 'C')!.body.toString()).toBe('COPY 60000\0');
    expect(fx.handler.copied.at(-1)).toBe(text);
    c.end();
  });

  it('bad bytes: an invalid length and an unknown type are FATAL 08P01 and close the connection', async () => {
    const c = await RawClient.ready(fx.port);
    c.send(Buffer.from([0x51, 0x7f, 0xff, 0xff, 0xff, 0x00]));
    expect(errorFields((await c.until('E'))[0]!)).toMatchObject({ S: 'FATAL', C: '08P01', M: 'invalid message length' });
    expect(await c.waitClosed()).toBe(true);
    const d = await RawClient.ready(fx.port);
    d.send(Buffer.from([0x7a, 0, 0, 0, 4]));
    expect(errorFields((await d.until('E'))[0]!)).toMatchObject({ S: 'FATAL', C: '08P01', M: 'invalid frontend message type 122' });
    expect(await d.waitClosed()).toBe(true);
  });

  it('Terminate closes; idle_session_timeout closes with 57P05', async () => {
    const c = await RawClient.ready(fx.port);
    c.send(fe.terminate());
    expect(await c.waitClosed()).toBe(true);
    const idle = await startWire({ idleSessionTimeoutMs: 100 });
    const d = await RawClient.ready(idle.port);
    expect(errorFields((await d.until('E'))[0]!)).toMatchObject({ S: 'FATAL', C: '57P05' });
    expect(await d.waitClosed()).toBe(true);
    await idle.close();
  });

  it('a client that stalls in the handshake is disconnected after authentication_timeout', async () => {
    const slow = await startWire({ authenticationTimeoutMs: 100, auth: { method: 'password', users: [{ name: 'p', password: 'x' }] } });
    const a = await RawClient.open(slow.port);
    a.send(fe.startup({ user: 'p' }).subarray(0, 6)); // half a startup packet
    expect(await a.waitClosed()).toBe(true);
    const b = await RawClient.open(slow.port);
    b.send(fe.startup({ user: 'p' })); // never answers the password request
    expect(await b.waitClosed()).toBe(true);
    await expect.poll(() => slow.server.connectionCount).toBe(0);
    await slow.close();
  });

  it('graceful close ends sessions with FATAL 57P01', async () => {
    const other = await startWire();
    const c = await RawClient.ready(other.port);
    await other.close();
    expect(errorFields((await c.until('E'))[0]!)).toMatchObject({ S: 'FATAL', C: '57P01' });
    expect(await c.waitClosed()).toBe(true);
    expect(other.handler.sessions[0]!.closed).toBe(true);
  });
});

describe('backpressure', () => {
  it('a client that stops reading stops the handler stream (socket drain is awaited)', async () => {
    const c = await RawClient.ready(fx.port);
    const session = fx.handler.sessions.at(-1)!;
    c.socket.pause();
    c.send(fe.query('select * from wide(100000)')); // ~100 MB if produced eagerly
    await new Promise((r) => setTimeout(r, 500));
    const produced = session.batchesProduced;
    expect(produced).toBeGreaterThan(0);
    expect(produced).toBeLessThan(300); // bounded by socket buffers, far below the 1000 batches
    await new Promise((r) => setTimeout(r, 300));
    expect(session.batchesProduced).toBe(produced); // still stalled
    c.end();
    await expect.poll(() => session.closed).toBe(true);
  });
});
