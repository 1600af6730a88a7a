import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { certificateHash, pemCertificateDer, signatureAlgorithmOid } from './channel-binding.ts';
import { hasOpenssl } from '../../../test/helpers/openssl.ts';

/** a self-signed certificate made by openssl with key type `key` and digest `digest` */
function certificate(key: string[], digest: string): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'lakegate-cb-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', ...key, '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    `-${digest}`, '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
  return pemCertificateDer(readFileSync(join(dir, 'cert.pem'), 'utf8'))!;
}

describe.skipIf(!hasOpenssl)('tls-server-end-point (RFC 5929)', () => {
  it("hashes the DER with the signature's hash, SHA-256 for SHA-1 (as OpenSSL reports the algorithm)", () => {
    const rsa256 = certificate(['rsa:2048'], 'sha256');
    expect(signatureAlgorithmOid(rsa256)).toBe('2a864886f70d01010b');
    expect(certificateHash(rsa256)).toEqual(createHash('sha256').update(rsa256).digest());
    const ec384 = certificate(['ec', '-pkeyopt', 'ec_paramgen_curve:P-384'], 'sha384');
    expect(certificateHash(ec384)).toEqual(createHash('sha384').update(ec384).digest());
    const rsa512 = certificate(['rsa:2048'], 'sha512');
    expect(certificateHash(rsa512)).toEqual(createHash('sha512').update(rsa512).digest());
    const rsa1 = certificate(['rsa:2048'], 'sha1');
    expect(certificateHash(rsa1)).toEqual(createHash('sha256').update(rsa1).digest());
  });

  it('fails as PostgreSQL does for a signature it cannot name, and on garbage', () => {
    const ed = certificate(['ed25519'], 'sha256');
    expect(() => certificateHash(ed)).toThrowError(/could not determine server certificate signature algorithm/);
    expect(() => certificateHash(Buffer.from('not a certificate'))).toThrowError(/could not determine/);
  });
});
