import { describe, expect, it } from 'vitest';
import { BufferWriter } from '../protocol/buffer-writer.ts';
import { AuthenticationMD5Password, checkMd5Response, checkPasswordAgainstMd5, isMd5Verifier, md5Response, md5Verifier } from './md5-password.ts';

// PostgreSQL: SET password_encryption = md5; CREATE ROLE alice PASSWORD 'pencil'; SELECT rolpassword FROM pg_authid
const ALICE = 'md5ee69efad287c7423caf0b3229d71f567';
const SALT = Uint8Array.of(1, 2, 3, 4);

describe('MD5 password authentication', () => {
  it("stores md5(password || user) as PostgreSQL's pg_authid does", () => {
    expect(md5Verifier('pencil', 'alice')).toBe(ALICE);
    expect(isMd5Verifier(ALICE)).toBe(true);
    expect(isMd5Verifier('md5EE69EFAD287C7423CAF0B3229D71F567')).toBe(false);
    expect(isMd5Verifier('SCRAM-SHA-256$4096:abc$def:ghi')).toBe(false);
  });

  it("checks libpq's salted answer", () => {
    expect(md5Response(ALICE, SALT)).toBe('md537cba386e8b90f1e3941a0e792722253');
    expect(checkMd5Response('md537cba386e8b90f1e3941a0e792722253', ALICE, SALT)).toBe(true);
    expect(checkMd5Response('md537cba386e8b90f1e3941a0e792722254', ALICE, SALT)).toBe(false);
    expect(checkMd5Response('md537cba386e8b90f1e3941a0e792722253', ALICE, Uint8Array.of(1, 2, 3, 5))).toBe(false);
    expect(checkMd5Response('', ALICE, SALT)).toBe(false);
  });

  it('checks a cleartext password against the secret (method password)', () => {
    expect(checkPasswordAgainstMd5('pencil', 'alice', ALICE)).toBe(true);
    expect(checkPasswordAgainstMd5('pencil', 'bob', ALICE)).toBe(false);
  });

  it('AuthenticationMD5Password is R, length 12, code 5 and the salt', () => {
    const w = new BufferWriter();
    AuthenticationMD5Password(w, SALT);
    expect([...w.take()]).toEqual([0x52, 0, 0, 0, 12, 0, 0, 0, 5, 1, 2, 3, 4]);
  });
});
