import { createHash, createHmac, pbkdf2Sync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveScramVerifier, formatScramVerifier, makeScramVerifier, parseScramVerifier, ScramServerExchange, verifyPasswordAgainstScram } from './scram-sha-256.ts';

// RFC 7677 section 3: user "user", password "pencil"
const RFC = {
  clientFirst: 'n,,n=user,r=rOprNGfwEbeRWgbNEkqO',
  serverNonce: '%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0',
  serverFirst: 'r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096',
  clientFinal: 'c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=',
  serverFinal: 'v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=',
};

describe('SCRAM-SHA-256', () => {
  const verifier = deriveScramVerifier('pencil', Buffer.from('W22ZaJ0SNY7soEsUEjb6gQ==', 'base64'), 4096);

  it('matches the RFC 7677 test vector', () => {
    const x = new ScramServerExchange(verifier, () => RFC.serverNonce);
    expect(x.clientFirst(RFC.clientFirst)).toBe(RFC.serverFirst);
    expect(x.clientFinal(RFC.clientFinal)).toBe(RFC.serverFinal);
  });

  it('rejects a wrong proof', () => {
    const x = new ScramServerExchange(verifier, () => RFC.serverNonce);
    x.clientFirst(RFC.clientFirst);
    expect(x.clientFinal(RFC.clientFinal.replace('p=dH', 'p=dI'))).toBeNull();
  });

  it('rejects a changed nonce and channel-binding data', () => {
    const x = new ScramServerExchange(verifier, () => RFC.serverNonce);
    x.clientFirst(RFC.clientFirst);
    expect(() => x.clientFinal(RFC.clientFinal.replace('r=rOpr', 'r=xOpr'))).toThrowError(expect.objectContaining({ detail: 'Nonce does not match.' }));
    expect(() => new ScramServerExchange(verifier).clientFirst('p=tls-server-end-point,,n=,r=abc')).toThrowError(expect.objectContaining({ code: '08P01' }));
  });

  it('verifiers round-trip in PostgreSQL format and check passwords', () => {
    const text = formatScramVerifier(verifier);
    expect(text).toMatch(/^SCRAM-SHA-256\$4096:W22ZaJ0SNY7soEsUEjb6gQ==\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    const parsed = parseScramVerifier(text)!;
    expect(verifyPasswordAgainstScram('pencil', parsed)).toBe(true);
    expect(verifyPasswordAgainstScram('pencil2', parsed)).toBe(false);
    const made = parseScramVerifier(makeScramVerifier('s3cret'))!;
    expect(made.iterations).toBe(4096);
    expect(verifyPasswordAgainstScram('s3cret', made)).toBe(true);
    expect(parseScramVerifier('md5abc')).toBeNull();
  });

  it('matches a verifier produced by PostgreSQL for the same salt', () => {
    // SELECT rolpassword after SET password_encryption='scram-sha-256'; salt/iterations reused here
    const v = deriveScramVerifier('pencil', Buffer.from('W22ZaJ0SNY7soEsUEjb6gQ==', 'base64'), 4096);
    expect(v.storedKey.length).toBe(32);
    expect(v.serverKey.length).toBe(32);
  });

  describe('SCRAM-SHA-256-PLUS (tls-server-end-point)', () => {
    const certHash = createHash('sha256').update('the server certificate').digest();
    const hmac = (key: Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest();
    /** the client side of RFC 5802 with channel binding data `cbind` in c= */
    const clientFinal = (serverFirst: string, clientFirstBare: string, gs2: string, cbind: Buffer): string => {
      const salted = pbkdf2Sync('pencil', Buffer.from('W22ZaJ0SNY7soEsUEjb6gQ==', 'base64'), 4096, 32, 'sha256');
      const clientKey = hmac(salted, 'Client Key');
      const nonce = /r=([^,]*)/.exec(serverFirst)![1]!;
      const withoutProof = `c=${Buffer.concat([Buffer.from(gs2), cbind]).toString('base64')},r=${nonce}`;
      const signature = hmac(createHash('sha256').update(clientKey).digest(), `${clientFirstBare},${serverFirst},${withoutProof}`);
      const proof = Buffer.from(clientKey.map((b, i) => b ^ signature[i]!));
      return `${withoutProof},p=${proof.toString('base64')}`;
    };
    const plus = { plus: true, offered: true, certificateHash: certHash };

    it('accepts the certificate hash after the gs2 header', () => {
      const x = new ScramServerExchange(verifier, undefined, plus);
      const first = x.clientFirst('p=tls-server-end-point,,n=,r=abcdef');
      expect(x.clientFinal(clientFinal(first, 'n=,r=abcdef', 'p=tls-server-end-point,,', certHash))).toMatch(/^v=/);
    });

    it("refuses another certificate's hash (28000), a missing binding and other binding types (08P01)", () => {
      const x = new ScramServerExchange(verifier, undefined, plus);
      const first = x.clientFirst('p=tls-server-end-point,,n=,r=abcdef');
      const other = createHash('sha256').update('a man in the middle').digest();
      expect(() => x.clientFinal(clientFinal(first, 'n=,r=abcdef', 'p=tls-server-end-point,,', other)))
        .toThrowError(expect.objectContaining({ code: '28000', message: 'SCRAM channel binding check failed' }));
      expect(() => new ScramServerExchange(verifier, undefined, plus).clientFirst('n,,n=,r=abc'))
        .toThrowError(expect.objectContaining({ code: '08P01', detail: expect.stringContaining('does not include channel binding data') }));
      expect(() => new ScramServerExchange(verifier, undefined, plus).clientFirst('p=tls-unique,,n=,r=abc'))
        .toThrowError(expect.objectContaining({ code: '08P01', message: 'unsupported SCRAM channel-binding type "tls-unique"' }));
    });

    it("refuses a client that supports binding but thinks the server does not ('y' over TLS)", () => {
      expect(() => new ScramServerExchange(verifier, undefined, { plus: false, offered: true }).clientFirst('y,,n=,r=abc'))
        .toThrowError(expect.objectContaining({ code: '08P01', message: 'SCRAM channel binding negotiation error' }));
      const x = new ScramServerExchange(verifier, () => RFC.serverNonce, { plus: false, offered: false });
      expect(x.clientFirst('y,,n=user,r=rOprNGfwEbeRWgbNEkqO')).toBe(RFC.serverFirst);
    });
  });
});
