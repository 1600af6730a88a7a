/**
 * SCRAM channel binding type tls-server-end-point (RFC 5929 section 4.1): the hash of the server's certificate
 * (DER), with the hash function of the certificate's signature algorithm — SHA-256 when that is MD5 or SHA-1 —
 * which libpq (`channel_binding=require`), pgJDBC 42.7 and node-postgres send in SCRAM-SHA-256-PLUS, so a man in
 * the middle with another certificate cannot relay the exchange. PostgreSQL's be_tls_get_certificate_hash.
 * @see https://www.rfc-editor.org/rfc/rfc5929#section-4.1
 */
import { createHash } from 'node:crypto';
import { GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';

/** signatureAlgorithm OIDs (DER content, hex) → the hash tls-server-end-point uses */
const HASH_OF_SIGNATURE: Readonly<Record<string, string>> = {
  '2a864886f70d010104': 'sha256', // md5WithRSAEncryption
  '2a864886f70d010105': 'sha256', // sha1WithRSAEncryption
  '2a864886f70d01010e': 'sha224', // sha224WithRSAEncryption
  '2a864886f70d01010b': 'sha256', // sha256WithRSAEncryption
  '2a864886f70d01010c': 'sha384', // sha384WithRSAEncryption
  '2a864886f70d01010d': 'sha512', // sha512WithRSAEncryption
  '2a8648ce3d0401': 'sha256', // ecdsa-with-SHA1
  '2a8648ce3d040301': 'sha224', // ecdsa-with-SHA224
  '2a8648ce3d040302': 'sha256', // ecdsa-with-SHA256
  '2a8648ce3d040303': 'sha384', // ecdsa-with-SHA384
  '2a8648ce3d040304': 'sha512', // ecdsa-with-SHA512
  '2a8648ce380403': 'sha256', // dsa-with-sha1
  '608648016503040302': 'sha256', // dsa-with-sha256
};

/** one DER element at `at`: where its content starts and ends */
function element(der: Uint8Array, at: number, tag: number): { start: number; end: number } {
  if (der[at] !== tag) throw new Error(`DER tag ${tag} expected at ${at}`);
  let len = der[at + 1] ?? 0;
  let start = at + 2;
  if (len & 0x80) {
    const bytes = len & 0x7f;
    len = 0;
    for (let i = 0; i < bytes; i++) len = len * 256 + (der[start + i] ?? 0);
    start += bytes;
  }
  if (start + len > der.length) throw new Error('DER length past the end');
  return { start, end: start + len };
}

/** the certificate's signatureAlgorithm OID (hex of its DER content) */
export function signatureAlgorithmOid(der: Uint8Array): string {
  const cert = element(der, 0, 0x30);
  const tbs = element(der, cert.start, 0x30);
  const algorithm = element(der, tbs.end, 0x30);
  const oid = element(der, algorithm.start, 0x06);
  return Buffer.from(der.subarray(oid.start, oid.end)).toString('hex');
}

/** tls-server-end-point's channel binding data for the server certificate `der` */
export function certificateHash(der: Uint8Array): Buffer {
  let hash: string | undefined;
  try {
    hash = HASH_OF_SIGNATURE[signatureAlgorithmOid(der)];
  } catch {
    hash = undefined;
  }
  if (hash === undefined) {
    throw new GatewayError(SqlState.internal_error, 'could not determine server certificate signature algorithm', { severity: 'FATAL' });
  }
  return createHash(hash).update(der).digest();
}

/** the first certificate of a PEM text (a chain's leaf) as DER */
export function pemCertificateDer(pem: string): Buffer | null {
  const m = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/.exec(pem);
  return m === null ? null : Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64');
}
