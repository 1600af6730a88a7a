import { describe, expect, it } from 'vitest';
import { fe } from '../testing/test-buffers.ts';
import type { FrontendMessage } from './frontend-messages.ts';
import { FrontendParser } from './frontend-parser.ts';

function normal(): FrontendParser {
  const p = new FrontendParser();
  p.push(fe.startup({ user: 'u' }));
  return p;
}

/** every typed message with the value it must parse to */
const cases: Array<[string, Buffer, FrontendMessage]> = [
  ['Query', fe.query('select 1'), { type: 'Query', sql: 'select 1' }],
  ['Query utf8', fe.query("select 'héllo ✓'"), { type: 'Query', sql: "select 'héllo ✓'" }],
  ['Parse', fe.parse('s1', 'select $1', [23]), { type: 'Parse', name: 's1', sql: 'select $1', paramTypes: [23] }],
  ['Parse big oid', fe.parse('', 'x', [0x80000001]), { type: 'Parse', name: '', sql: 'x', paramTypes: [0x80000001] }],
  [
    'Bind',
    fe.bind('p', 's', ['42', null, Buffer.from([0, 0, 0, 7])], [0, 0, 1], [1]),
    { type: 'Bind', portal: 'p', statement: 's', paramFormats: [0, 0, 1], params: [Buffer.from('42'), null, Buffer.from([0, 0, 0, 7])], resultFormats: [1] },
  ],
  [
    // an empty value and one past buffer-reader's small-copy length: both copied out of a borrowed chunk
    'Bind empty and long params',
    fe.bind('', 's', ['', 'x'.repeat(40)], [0], [0]),
    { type: 'Bind', portal: '', statement: 's', paramFormats: [0], params: [Buffer.from(''), Buffer.from('x'.repeat(40))], resultFormats: [0] },
  ],
  ['Describe S', fe.describe('S', 'st'), { type: 'Describe', target: 'S', name: 'st' }],
  ['Describe P', fe.describe('P', ''), { type: 'Describe', target: 'P', name: '' }],
  ['Execute', fe.execute('p', 10), { type: 'Execute', portal: 'p', maxRows: 10 }],
  ['Close', fe.close('S', 'st'), { type: 'Close', target: 'S', name: 'st' }],
  ['Sync', fe.sync(), { type: 'Sync' }],
  ['Flush', fe.flush(), { type: 'Flush' }],
  ['Terminate', fe.terminate(), { type: 'Terminate' }],
  ['CopyData', fe.copyData('1\t2\n'), { type: 'CopyData', data: Buffer.from('1\t2\n') }],
  ['CopyDone', fe.copyDone(), { type: 'CopyDone' }],
  ['CopyFail', fe.copyFail('nope'), { type: 'CopyFail', message: 'nope' }],
  ['PasswordMessage', fe.password('secret'), { type: 'PasswordMessage', data: Buffer.from('secret\0') }],
];

const startupCases: Array<[string, Buffer, FrontendMessage]> = [
  ['StartupMessage', fe.startup({ user: 'alice', database: 'db', options: '-c x=1' }), { type: 'StartupMessage', protocolVersion: 196608, parameters: { user: 'alice', database: 'db', options: '-c x=1' } }],
  ['SSLRequest', fe.sslRequest(), { type: 'SSLRequest' }],
  ['GSSENCRequest', fe.gssencRequest(), { type: 'GSSENCRequest' }],
  ['CancelRequest', fe.cancelRequest(1234, -5), { type: 'CancelRequest', processId: 1234, secretKey: -5 }],
];

const norm = (msgs: FrontendMessage[]): unknown => JSON.parse(JSON.stringify(msgs, (_k, v: unknown) => (v instanceof Uint8Array ? [...v] : v)));

describe('FrontendParser', () => {
  it.each(cases)('%s: whole, and split at every offset', (_name, bytes, expected) => {
    expect(norm(normal().push(bytes))).toEqual(norm([expected]));
    for (let cut = 1; cut < bytes.length; cut++) {
      const p = normal();
      const first = p.push(bytes.subarray(0, cut));
      expect(first).toEqual([]);
      expect(norm(p.push(bytes.subarray(cut)))).toEqual(norm([expected]));
    }
  });

  it.each(startupCases)('%s (startup phase): split at every offset', (_name, bytes, expected) => {
    for (let cut = 0; cut <= bytes.length; cut++) {
      const p = new FrontendParser();
      const got = [...p.push(bytes.subarray(0, cut)), ...p.push(bytes.subarray(cut))];
      expect(norm(got)).toEqual(norm([expected]));
    }
  });

  it('byte-at-a-time over all messages in one stream', () => {
    const stream = Buffer.concat(cases.map((c) => c[1]));
    const p = normal();
    const got: FrontendMessage[] = [];
    for (const byte of stream) got.push(...p.push(Buffer.from([byte])));
    expect(norm(got)).toEqual(norm(cases.map((c) => c[2])));
  });

  it('several messages in one chunk, then the rest split at every offset', () => {
    const stream = Buffer.concat([fe.parse('', 'select 1'), fe.bind('', ''), fe.describe('P', ''), fe.execute('', 0), fe.sync()]);
    for (let cut = 0; cut <= stream.length; cut++) {
      const p = normal();
      const got = [...p.push(stream.subarray(0, cut)), ...p.push(stream.subarray(cut))];
      expect(got.map((m) => m.type)).toEqual(['Parse', 'Bind', 'Describe', 'Execute', 'Sync']);
      expect(p.pendingBytes).toBe(0);
    }
  });

  it('startup then typed messages in the same chunk', () => {
    const p = new FrontendParser();
    const got = p.push(Buffer.concat([fe.startup({ user: 'u' }), fe.password('pw'), fe.query('x')]));
    expect(got.map((m) => m.type)).toEqual(['StartupMessage', 'PasswordMessage', 'Query']);
    expect(p.inStartupPhase).toBe(false);
  });

  it('SSLRequest keeps the parser in the startup phase', () => {
    const p = new FrontendParser();
    expect(p.push(fe.sslRequest())[0]?.type).toBe('SSLRequest');
    expect(p.inStartupPhase).toBe(true);
    expect(p.push(fe.startup({ user: 'u' }))[0]?.type).toBe('StartupMessage');
  });

  it('rejects a huge declared length without buffering it (08P01 invalid message length)', () => {
    const p = new FrontendParser(1024);
    p.push(fe.startup({ user: 'u' }));
    const head = Buffer.from([0x51, 0x7f, 0xff, 0xff, 0xff]);
    expect(() => p.push(head)).toThrowError(expect.objectContaining({ code: '08P01', message: 'invalid message length', severity: 'FATAL' }));
  });

  it('rejects a length below 4 and a bad startup length', () => {
    expect(() => normal().push(Buffer.from([0x51, 0, 0, 0, 3]))).toThrowError(/invalid message length/);
    expect(() => new FrontendParser().push(Buffer.from([0, 0, 0, 2]))).toThrowError(/invalid length of startup packet/);
    expect(() => new FrontendParser().push(Buffer.from([0x7f, 0, 0, 2]))).toThrowError(/invalid length of startup packet/);
  });

  it('a malformed body is reported as Malformed (framing stays intact)', () => {
    const p = normal();
    const bad = Buffer.from([0x51, 0, 0, 0, 7, 0x61, 0x62, 0x63]); // Query without NUL
    const got = p.push(Buffer.concat([bad, fe.sync()]));
    expect(got[0]).toMatchObject({ type: 'Malformed', error: { code: '08P01' } });
    expect(got[1]).toEqual({ type: 'Sync' });
  });

  it('trailing garbage in a body is Malformed; unknown type bytes are Unknown', () => {
    const p = normal();
    const sync = Buffer.from([0x53, 0, 0, 0, 5, 0x00]);
    const unknown = Buffer.from([0x7a, 0, 0, 0, 4]);
    const got = p.push(Buffer.concat([sync, unknown]));
    expect(got[0]).toMatchObject({ type: 'Malformed' });
    expect(got[1]).toEqual({ type: 'Unknown', code: 0x7a });
  });

  it('Bind with a negative length other than -1 is Malformed', () => {
    const p = normal();
    const bad = fe.bind('', '', ['x']);
    // patch the parameter length (after portal\0 stmt\0 int16 nformats int16 nparams) to -7
    bad.writeInt32BE(-7, 5 + 2 + 2 + 2);
    expect(p.push(bad)[0]).toMatchObject({ type: 'Malformed' });
  });

  describe('borrowed chunks (a reused socket read buffer)', () => {
    /** feeds `pieces` through one buffer that is overwritten after every push, as the socket reader does */
    function throughReusedBuffer(p: FrontendParser, pieces: Buffer[]): FrontendMessage[] {
      const reused = Buffer.alloc(Math.max(1, ...pieces.map((x) => x.length)));
      const got: FrontendMessage[] = [];
      for (const piece of pieces) {
        piece.copy(reused);
        got.push(...p.push(reused.subarray(0, piece.length), true));
        reused.fill(0xee);
      }
      return got;
    }

    it.each(cases)('%s: byte fields and partial messages survive the buffer being reused, at every split', (_name, bytes, expected) => {
      expect(norm(throughReusedBuffer(normal(), [bytes]))).toEqual(norm([expected]));
      for (let cut = 1; cut < bytes.length; cut++) {
        expect(norm(throughReusedBuffer(normal(), [bytes.subarray(0, cut), bytes.subarray(cut)]))).toEqual(norm([expected]));
      }
    });

    it('all messages byte at a time and in three uneven pieces', () => {
      const stream = Buffer.concat(cases.map((c) => c[1]));
      const bytewise = [...stream].map((b) => Buffer.from([b]));
      expect(norm(throughReusedBuffer(normal(), bytewise))).toEqual(norm(cases.map((c) => c[2])));
      const a = Math.floor(stream.length / 3);
      const pieces = [stream.subarray(0, a), stream.subarray(a, a + 7), stream.subarray(a + 7)];
      expect(norm(throughReusedBuffer(normal(), pieces))).toEqual(norm(cases.map((c) => c[2])));
    });

    it('CopyData messages longer than a read, cut at 64 KiB as the socket reader cuts them, come out whole', () => {
      const payloads = [200_000, 65_536, 70_000, 3, 1_500_000].map((n, k) => Buffer.alloc(n, 97 + k));
      const stream = Buffer.concat([...payloads.map((d) => fe.copyData(d)), fe.copyDone()]);
      const pieces: Buffer[] = [];
      for (let at = 0; at < stream.length; at += 65_536) pieces.push(stream.subarray(at, at + 65_536));
      const got = throughReusedBuffer(normal(), pieces);
      expect(got.map((m) => m.type)).toEqual(['CopyData', 'CopyData', 'CopyData', 'CopyData', 'CopyData', 'CopyDone']);
      got.slice(0, 5).forEach((m, k) => expect(Buffer.from((m as { data: Uint8Array }).data).equals(payloads[k]!)).toBe(true));
    });

    it('a borrowed chunk without byte fields yields the same messages as an owned one', () => {
      const stream = Buffer.concat([fe.parse('', 'select 1'), fe.bind('', ''), fe.describe('P', ''), fe.execute('', 0), fe.sync()]);
      expect(throughReusedBuffer(normal(), [stream])).toEqual(normal().push(stream));
    });
  });
});
