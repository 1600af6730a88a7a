/**
 * PostgreSQL's MD5 password authentication (AuthenticationMD5Password), which psqlODBC and old drivers still use:
 * the stored secret is `md5` + md5(password + user name), as pg_authid keeps it under `password_encryption = md5`;
 * the server sends a random 4-byte salt and the client answers `md5` + md5(md5hex(password + user) + salt).
 * @see https://www.postgresql.org/docs/15/auth-password.html
 * @see https://www.postgresql.org/docs/15/protocol-flow.html#id-1.10.6.7.3 (AuthenticationMD5Password)
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { AuthCode, BackendCode } from '../protocol/message-codes.ts';
import type { BufferWriter } from '../protocol/buffer-writer.ts';

const md5Hex = (data: string | Buffer): string => createHash('md5').update(data).digest('hex');

/** the secret pg_authid stores for `password` of `user` with password_encryption = md5 */
export function md5Verifier(password: string, user: string): string {
  return `md5${md5Hex(password + user)}`;
}

/** true when `text` is an MD5 secret (`md5` and 32 lower-case hex digits), as PostgreSQL recognizes one */
export function isMd5Verifier(text: string): boolean {
  return /^md5[0-9a-f]{32}$/.test(text);
}

/** what a client that knows the password answers to `salt` (libpq's pg_md5_encrypt twice) */
export function md5Response(verifier: string, salt: Uint8Array): string {
  return `md5${md5Hex(Buffer.concat([Buffer.from(verifier.slice(3), 'ascii'), salt]))}`;
}

/** checks the client's PasswordMessage text against the stored secret and the salt sent */
export function checkMd5Response(response: string, verifier: string, salt: Uint8Array): boolean {
  const expected = Buffer.from(md5Response(verifier, salt));
  const got = Buffer.from(response);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** a cleartext password (`method: password`) against an MD5 secret */
export function checkPasswordAgainstMd5(password: string, user: string, verifier: string): boolean {
  const expected = Buffer.from(verifier);
  const got = Buffer.from(md5Verifier(password, user));
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** AuthenticationMD5Password: code 5 and the 4-byte salt */
export function AuthenticationMD5Password(w: BufferWriter, salt: Uint8Array): void {
  w.startMessage(BackendCode.Authentication).i32(AuthCode.MD5Password).bytes(salt).endMessage();
}
