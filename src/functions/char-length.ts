/**
 * Length coercions of the character types: varchar(n) and bpchar(n) (varchar(), bpchar() in varchar.c)
 * and name's 63-byte limit. Explicit casts truncate; assignment raises 22001 unless only blanks are cut.
 * @see https://www.postgresql.org/docs/15/datatype-character.html
 */
import { GatewayError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';

const NAMEDATALEN = 64;

/** Number of characters (code points), as PostgreSQL counts them in UTF-8. */
export function charLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) i++;
    n++;
  }
  return n;
}

/** The first `n` characters (code points) of s. */
export function firstChars(s: string, n: number): string {
  if (n <= 0) return '';
  let i = 0;
  let k = 0;
  while (i < s.length && k < n) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? 2 : 1;
    k++;
  }
  return s.slice(0, i);
}

function tooLong(type: string, n: number): GatewayError {
  return new GatewayError(SqlState.string_data_right_truncation, `value too long for type ${type}(${n})`);
}

/** varchar(s, typmod, isExplicit) */
export function varcharLength(s: string, typmod: number, explicit: boolean): string {
  if (typmod < 4) return s;
  const max = typmod - 4;
  if (s.length <= max || charLength(s) <= max) return s;
  const head = firstChars(s, max);
  if (!explicit && s.slice(head.length).replace(/ +$/, '') !== '') throw tooLong('character varying', max);
  return head;
}

/** bpchar(s, typmod, isExplicit): blank-pads to n, or cuts (blanks only unless explicit). */
export function bpcharLength(s: string, typmod: number, explicit: boolean): string {
  if (typmod < 4) return s;
  const max = typmod - 4;
  const len = charLength(s);
  if (len === max) return s;
  if (len < max) return s + ' '.repeat(max - len);
  const head = firstChars(s, max);
  if (!explicit && s.slice(head.length).replace(/ +$/, '') !== '') throw tooLong('character', max);
  return head;
}

/** namein: cut to NAMEDATALEN-1 bytes at a character boundary. */
export function toName(s: string): string {
  if (s.length < NAMEDATALEN / 3) return s;
  const bytes = Buffer.from(s, 'utf8');
  if (bytes.length < NAMEDATALEN) return s;
  let end = NAMEDATALEN - 1;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/** bpchar → text drops trailing blanks (rtrim1). */
export function bpcharToText(s: string): string {
  let e = s.length;
  while (e > 0 && s.charCodeAt(e - 1) === 32) e--;
  return s.slice(0, e);
}
