import { describe, expect, it } from 'vitest';
import { BufferWriter } from '../protocol/buffer-writer.ts';
import { authenticate, type AuthConfig, type AuthIO, type AuthPeer } from './authenticator.ts';
import { md5Response, md5Verifier } from './md5-password.ts';
import { makeScramVerifier } from './scram-sha-256.ts';

/** an AuthIO whose client answers each server request with `answer(request body)` */
function client(answer: (code: number, body: Buffer) => Buffer | null): AuthIO & { codes: number[]; bodies: Buffer[] } {
  const pending: Buffer[] = [];
  const io = {
    codes: [] as number[],
    bodies: [] as Buffer[],
    async send(write: (w: BufferWriter) => void): Promise<void> {
      const w = new BufferWriter();
      write(w);
      const msg = w.take();
      const code = msg.readInt32BE(5);
      io.codes.push(code);
      io.bodies.push(msg.subarray(9));
      const reply = answer(code, msg.subarray(9));
      if (reply !== null) pending.push(reply);
    },
    async receive(): Promise<Uint8Array> {
      const next = pending.shift();
      if (next === undefined) throw new Error('client has nothing to say');
      return next;
    },
  };
  return io;
}

const cstring = (s: string): Buffer => Buffer.from(`${s}\0`);
const peer = (user: string, extra: Partial<AuthPeer> = {}): AuthPeer => ({ user, database: 'db', remoteAddress: '10.0.0.1', ssl: false, ...extra });
const users = [
  { name: 'alice', verifier: md5Verifier('pencil', 'alice') },
  { name: 'bob', password: 'pw' },
  { name: 'carol', verifier: makeScramVerifier('s3cret') },
  { name: 'dave', verifier: 'md5nothex' },
];
const cfg = (method: AuthConfig['method']): AuthConfig => ({ method, users });

describe('authenticate', () => {
  it('md5: the MD5 challenge for an MD5 secret and for a password, with a fresh salt each time', async () => {
    for (const [user, secret] of [['alice', md5Verifier('pencil', 'alice')], ['bob', md5Verifier('pw', 'bob')]] as const) {
      const io = client((code, body) => (code === 5 ? cstring(md5Response(secret, body.subarray(0, 4))) : null));
      await authenticate(cfg('md5'), peer(user), io);
      expect(io.codes).toEqual([5]);
    }
    const wrong = client((code, body) => (code === 5 ? cstring(md5Response(md5Verifier('nope', 'alice'), body.subarray(0, 4))) : null));
    await expect(authenticate(cfg('md5'), peer('alice'), wrong)).rejects.toMatchObject({ code: '28P01', severity: 'FATAL' });
  });

  it('password: cleartext checked against an MD5 secret', async () => {
    await authenticate(cfg('password'), peer('alice'), client((code) => (code === 3 ? cstring('pencil') : null)));
    await expect(authenticate(cfg('password'), peer('alice'), client((code) => (code === 3 ? cstring('pencil2') : null))))
      .rejects.toMatchObject({ code: '28P01' });
  });

  it('md5 with a SCRAM verifier asks for SASL; a malformed secret fails as a wrong password', async () => {
    const io = client(() => null);
    await expect(authenticate(cfg('md5'), peer('carol'), io)).rejects.toThrow(/nothing to say/);
    expect(io.codes).toEqual([10]);
    await expect(authenticate(cfg('md5'), peer('dave'), client(() => null))).rejects.toMatchObject({ code: '28P01' });
  });

  it('offers SCRAM-SHA-256-PLUS first only over TLS with a certificate; -PLUS without it is an invalid mechanism', async () => {
    const mechanisms = async (p: AuthPeer): Promise<string[]> => {
      const io = client(() => null);
      await authenticate(cfg('scram-sha-256'), p, io).catch(() => undefined);
      return io.bodies[0]!.toString('utf8').split('\0').filter((m) => m !== '');
    };
    expect(await mechanisms(peer('carol'))).toEqual(['SCRAM-SHA-256']);
    expect(await mechanisms(peer('carol', { ssl: true }))).toEqual(['SCRAM-SHA-256']);
    expect(await mechanisms(peer('carol', { ssl: true, serverCertificate: Buffer.from('cert') }))).toEqual(['SCRAM-SHA-256-PLUS', 'SCRAM-SHA-256']);
    const plus = Buffer.concat([cstring('SCRAM-SHA-256-PLUS'), Buffer.from([0, 0, 0, 0])]);
    await expect(authenticate(cfg('scram-sha-256'), peer('carol'), client((code) => (code === 10 ? plus : null))))
      .rejects.toMatchObject({ code: '08P01', message: 'client selected an invalid SASL authentication mechanism' });
  });
});
