/**
 * Authentication exchange after StartupMessage. The method is chosen per user:
 * a user listed with a password or verifier → SCRAM-SHA-256 (cleartext when `method: password`, MD5 when
 * `method: md5` and the user's secret is an MD5 one or a password — a SCRAM verifier still gets SCRAM, as in
 * PostgreSQL); an unlisted user → trust from loopback addresses only (anywhere when `method: trust`).
 * Over TLS SCRAM offers SCRAM-SHA-256-PLUS too (channel binding tls-server-end-point).
 * Failures are FATAL with PostgreSQL's wording (28P01 `password authentication failed for user "x"`).
 * @see https://www.postgresql.org/docs/current/protocol-flow.html#PROTOCOL-FLOW-START-UP
 * @see https://www.postgresql.org/docs/15/auth-password.html
 */
import { randomBytes } from 'node:crypto';
import { GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import {
  AuthenticationCleartextPassword,
  AuthenticationSASL,
  AuthenticationSASLContinue,
  AuthenticationSASLFinal,
} from '../protocol/backend-serializer.ts';
import { BufferReader } from '../protocol/buffer-reader.ts';
import type { BufferWriter } from '../protocol/buffer-writer.ts';
import { certificateHash } from './channel-binding.ts';
import {
  AuthenticationMD5Password, checkMd5Response, checkPasswordAgainstMd5, isMd5Verifier, md5Verifier,
} from './md5-password.ts';
import {
  deriveScramVerifier,
  parseScramVerifier,
  SCRAM_SHA_256,
  SCRAM_SHA_256_PLUS,
  ScramServerExchange,
  type ScramVerifier,
  verifyPasswordAgainstScram,
} from './scram-sha-256.ts';

export const AuthMethod = { trust: 'trust', password: 'password', md5: 'md5', scram: 'scram-sha-256' } as const;
export type AuthMethod = (typeof AuthMethod)[keyof typeof AuthMethod];

export interface AuthUser {
  readonly name: string;
  /** cleartext password (kept in memory only; prefer `verifier`) */
  readonly password?: string;
  /** `SCRAM-SHA-256$<iter>:<salt>$<StoredKey>:<ServerKey>`, or `md5` + md5(password + name) as pg_authid keeps them */
  readonly verifier?: string;
}

export interface AuthConfig {
  readonly method: AuthMethod;
  readonly users: readonly AuthUser[];
}

export interface AuthPeer {
  readonly user: string;
  readonly database: string;
  readonly remoteAddress: string;
  readonly ssl: boolean;
  /** over TLS: the DER of the certificate the server presented (SCRAM-SHA-256-PLUS binds to it) */
  readonly serverCertificate?: Uint8Array;
}

/** How the exchange talks to the client: send (and flush) a message, receive the next 'p' payload. */
export interface AuthIO {
  send(write: (w: BufferWriter) => void): Promise<void>;
  receive(): Promise<Uint8Array>;
}

export function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.') || address === '';
}

export function passwordFailed(user: string): GatewayError {
  return new GatewayError(SqlState.invalid_password, `password authentication failed for user "${user}"`, { severity: 'FATAL' });
}

/** Runs the exchange; resolves when the client is authenticated (the caller then sends AuthenticationOk). */
export async function authenticate(cfg: AuthConfig, peer: AuthPeer, io: AuthIO): Promise<void> {
  if (cfg.method === AuthMethod.trust) return;
  const user = cfg.users.find((u) => u.name === peer.user);
  if (!user || (user.password === undefined && user.verifier === undefined)) {
    if (isLoopback(peer.remoteAddress)) return;
    const enc = peer.ssl ? 'SSL encryption' : 'no encryption';
    throw new GatewayError(
      SqlState.invalid_authorization_specification,
      `no pg_hba.conf entry for host "${peer.remoteAddress}", user "${peer.user}", database "${peer.database}", ${enc}`,
      { severity: 'FATAL' },
    );
  }
  const md5 = user.verifier !== undefined && isMd5Verifier(user.verifier) ? user.verifier : null;
  const verifier = user.verifier === undefined || md5 !== null ? null : parseScramVerifier(user.verifier);
  if (user.verifier !== undefined && verifier === null && md5 === null) throw passwordFailed(peer.user);
  if (cfg.method === AuthMethod.password) {
    await io.send(AuthenticationCleartextPassword);
    const password = new BufferReader(Buffer.from(await io.receive())).cstring();
    const ok = verifier ? verifyPasswordAgainstScram(password, verifier)
      : md5 !== null ? checkPasswordAgainstMd5(password, peer.user, md5) : password === user.password;
    if (!ok) throw passwordFailed(peer.user);
    return;
  }
  // md5 with a SCRAM secret authenticates by SCRAM (PostgreSQL's rule); scram-sha-256 with an MD5 secret runs a
  // doomed exchange against a random verifier, so the client learns only that the password was wrong
  if (cfg.method === AuthMethod.md5 && verifier === null) {
    await md5Exchange(md5 ?? md5Verifier(user.password!, peer.user), peer.user, io);
    return;
  }
  const scramVerifier = verifier ?? (md5 !== null ? deriveScramVerifier(randomBytes(16).toString('hex'), randomBytes(16), 4096) : verifierFromPassword(user));
  await scram(scramVerifier, peer, io);
}

async function md5Exchange(secret: string, user: string, io: AuthIO): Promise<void> {
  const salt = randomBytes(4);
  await io.send((w) => AuthenticationMD5Password(w, salt));
  const response = new BufferReader(Buffer.from(await io.receive())).cstring();
  if (!checkMd5Response(response, secret, salt)) throw passwordFailed(user);
}

/** Users configured with a cleartext password get a verifier with a random salt, derived once. */
const derived = new WeakMap<AuthUser, ScramVerifier>();
function verifierFromPassword(user: AuthUser): ScramVerifier {
  let v = derived.get(user);
  if (!v) {
    v = deriveScramVerifier(user.password!, randomBytes(16), 4096);
    derived.set(user, v);
  }
  return v;
}

async function scram(verifier: ScramVerifier, peer: AuthPeer, io: AuthIO): Promise<void> {
  const user = peer.user;
  // PostgreSQL offers -PLUS first on a TLS connection
  const offered = peer.ssl && peer.serverCertificate !== undefined;
  await io.send((w) => AuthenticationSASL(w, offered ? [SCRAM_SHA_256_PLUS, SCRAM_SHA_256] : [SCRAM_SHA_256]));
  const initial = new BufferReader(Buffer.from(await io.receive()));
  const mechanism = initial.cstring();
  const plus = offered && mechanism === SCRAM_SHA_256_PLUS;
  if (mechanism !== SCRAM_SHA_256 && !plus) {
    throw new GatewayError(SqlState.protocol_violation, 'client selected an invalid SASL authentication mechanism', { severity: 'FATAL' });
  }
  const len = initial.i32();
  const clientFirst = Buffer.from(initial.bytes(len < 0 ? 0 : len)).toString('utf8');
  const binding = plus ? { plus, offered, certificateHash: certificateHash(peer.serverCertificate!) } : { plus, offered };
  const exchange = new ScramServerExchange(verifier, undefined, binding);
  const serverFirst = exchange.clientFirst(clientFirst);
  await io.send((w) => AuthenticationSASLContinue(w, serverFirst));
  const clientFinal = Buffer.from(await io.receive()).toString('utf8');
  const serverFinal = exchange.clientFinal(clientFinal);
  if (serverFinal === null) throw passwordFailed(user);
  await io.send((w) => AuthenticationSASLFinal(w, serverFinal));
}
