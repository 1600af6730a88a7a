/**
 * SCRAM-SHA-256 server side (RFC 5802 / RFC 7677) with PostgreSQL-style stored verifiers:
 * `SCRAM-SHA-256$<iterations>:<salt b64>$<StoredKey b64>:<ServerKey b64>`.
 * Over TLS the server also offers SCRAM-SHA-256-PLUS with channel binding type tls-server-end-point
 * (channel-binding.ts), as PostgreSQL does; the checks and their errors are auth-scram.c's.
 * @see https://www.rfc-editor.org/rfc/rfc5802#section-3
 * @see https://www.postgresql.org/docs/current/sasl-authentication.html
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import { GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';

export const SCRAM_SHA_256 = 'SCRAM-SHA-256';
export const SCRAM_SHA_256_PLUS = 'SCRAM-SHA-256-PLUS';

/** the channel binding side of one exchange */
export interface ScramChannelBinding {
  /** the client chose SCRAM-SHA-256-PLUS */
  readonly plus: boolean;
  /** the connection is TLS with a certificate, so the server offered -PLUS (a 'y' flag is then a downgrade) */
  readonly offered: boolean;
  /** tls-server-end-point data: the hash of the server certificate (needed when `plus`) */
  readonly certificateHash?: Buffer;
}

const NO_BINDING: ScramChannelBinding = { plus: false, offered: false };
const DEFAULT_ITERATIONS = 4096;

export interface ScramVerifier {
  readonly iterations: number;
  readonly salt: Buffer;
  readonly storedKey: Buffer;
  readonly serverKey: Buffer;
}

const hmac = (key: Buffer, data: string | Buffer): Buffer => createHmac('sha256', key).update(data).digest();
const sha256 = (data: Buffer): Buffer => createHash('sha256').update(data).digest();

function saltedPassword(password: string, salt: Buffer, iterations: number): Buffer {
  return pbkdf2Sync(password.normalize('NFKC'), salt, iterations, 32, 'sha256');
}

export function deriveScramVerifier(password: string, salt: Buffer, iterations: number): ScramVerifier {
  const salted = saltedPassword(password, salt, iterations);
  return {
    iterations,
    salt,
    storedKey: sha256(hmac(salted, 'Client Key')),
    serverKey: hmac(salted, 'Server Key'),
  };
}

/** `lakegate scram-verifier <password>` uses this; the result goes into the config's users list. */
export function makeScramVerifier(password: string, options: { iterations?: number; salt?: Buffer } = {}): string {
  const v = deriveScramVerifier(password, options.salt ?? randomBytes(16), options.iterations ?? DEFAULT_ITERATIONS);
  return formatScramVerifier(v);
}

export function formatScramVerifier(v: ScramVerifier): string {
  return `${SCRAM_SHA_256}$${v.iterations}:${v.salt.toString('base64')}$${v.storedKey.toString('base64')}:${v.serverKey.toString('base64')}`;
}

/** Parses a stored verifier; null when the text is not one. */
export function parseScramVerifier(text: string): ScramVerifier | null {
  const m = /^SCRAM-SHA-256\$(\d+):([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+):([A-Za-z0-9+/=]+)$/.exec(text);
  if (!m) return null;
  return {
    iterations: Number(m[1]),
    salt: Buffer.from(m[2]!, 'base64'),
    storedKey: Buffer.from(m[3]!, 'base64'),
    serverKey: Buffer.from(m[4]!, 'base64'),
  };
}

/** Checks a cleartext password against a verifier, as PostgreSQL does for password auth with SCRAM secrets. */
export function verifyPasswordAgainstScram(password: string, v: ScramVerifier): boolean {
  const d = deriveScramVerifier(password, v.salt, v.iterations);
  return safeEqual(d.storedKey, v.storedKey) && safeEqual(d.serverKey, v.serverKey);
}

function safeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function malformed(detail: string): GatewayError {
  return new GatewayError(SqlState.protocol_violation, 'malformed SCRAM message', { severity: 'FATAL', detail });
}

function attributes(msg: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of msg.split(',')) {
    const eq = part.indexOf('=');
    if (eq !== 1) throw malformed(`Attribute expected, but found invalid character "${part.slice(0, 1)}".`);
    out.set(part[0]!, part.slice(2));
  }
  return out;
}

/** One SCRAM exchange: client-first → server-first, client-final → server-final (or failure). */
export class ScramServerExchange {
  private clientFirstBare = '';
  private serverFirst = '';
  private gs2Header = '';
  private nonce = '';

  constructor(
    private readonly verifier: ScramVerifier,
    private readonly makeNonce: () => string = () => randomBytes(18).toString('base64'),
    private readonly binding: ScramChannelBinding = NO_BINDING,
  ) {}

  /** Returns server-first-message. */
  clientFirst(message: string): string {
    const m = /^([ny]|p=[^,]*),([^,]*),(.*)$/.exec(message);
    if (!m) throw malformed('Unexpected SCRAM client-first-message.');
    const flag = m[1]!;
    if (flag.startsWith('p=')) {
      if (!this.binding.plus) {
        throw malformed('The client selected SCRAM-SHA-256 without channel binding, but the SCRAM message includes channel binding data.');
      }
      const type = flag.slice(2);
      if (type !== 'tls-server-end-point') {
        throw new GatewayError(SqlState.protocol_violation, `unsupported SCRAM channel-binding type "${type}"`, { severity: 'FATAL' });
      }
    } else if (this.binding.plus) {
      throw malformed('The client selected SCRAM-SHA-256-PLUS, but the SCRAM message does not include channel binding data.');
    } else if (flag === 'y' && this.binding.offered) {
      throw new GatewayError(SqlState.protocol_violation, 'SCRAM channel binding negotiation error', {
        severity: 'FATAL',
        detail: 'The client supports SCRAM channel binding but thinks the server does not.  However, this server does support channel binding.',
      });
    }
    this.gs2Header = `${flag},${m[2]},`;
    this.clientFirstBare = m[3]!;
    const clientNonce = attributes(this.clientFirstBare).get('r');
    if (!clientNonce) throw malformed('client-first-message has no nonce');
    this.nonce = clientNonce + this.makeNonce();
    this.serverFirst = `r=${this.nonce},s=${this.verifier.salt.toString('base64')},i=${this.verifier.iterations}`;
    return this.serverFirst;
  }

  /** Returns server-final-message (`v=…`), or null when the proof is wrong. */
  clientFinal(message: string): string | null {
    const proofAt = message.lastIndexOf(',p=');
    if (proofAt < 0) throw malformed('client-final-message has no proof');
    const withoutProof = message.slice(0, proofAt);
    const attrs = attributes(withoutProof);
    if (this.binding.plus) {
      const expected = Buffer.concat([Buffer.from(this.gs2Header), this.binding.certificateHash ?? Buffer.alloc(0)]).toString('base64');
      if (attrs.get('c') !== expected) {
        throw new GatewayError(SqlState.invalid_authorization_specification, 'SCRAM channel binding check failed', { severity: 'FATAL' });
      }
    } else if (attrs.get('c') !== Buffer.from(this.gs2Header).toString('base64')) {
      throw new GatewayError(SqlState.protocol_violation, 'unexpected SCRAM channel-binding attribute in client-final-message', { severity: 'FATAL' });
    }
    if (attrs.get('r') !== this.nonce) throw malformed('Nonce does not match.');
    const proof = Buffer.from(message.slice(proofAt + 3), 'base64');
    const authMessage = `${this.clientFirstBare},${this.serverFirst},${withoutProof}`;
    const clientSignature = hmac(this.verifier.storedKey, authMessage);
    if (proof.length !== clientSignature.length) return null;
    const clientKey = Buffer.alloc(proof.length);
    for (let i = 0; i < proof.length; i++) clientKey[i] = proof[i]! ^ clientSignature[i]!;
    if (!safeEqual(sha256(clientKey), this.verifier.storedKey)) return null;
    return `v=${hmac(this.verifier.serverKey, authMessage).toString('base64')}`;
  }
}
