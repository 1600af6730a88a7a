/**
 * Character-level helpers for the string functions: PostgreSQL counts characters (code points), JS
 * strings count UTF-16 units, so anything positional goes through these.
 */
import { GatewayError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { pgArray, type PgArray } from '../common/pgtypes/values.ts';
import { Oid } from '../common/pgtypes/oids.ts';

const SURROGATE = /[\uD800-\uDFFF]/;

/** The characters of s (code points); plain strings are returned as-is for speed. */
export function chars(s: string): string[] | string {
  return SURROGATE.test(s) ? Array.from(s) : s;
}

export function charCount(s: string): number {
  return SURROGATE.test(s) ? Array.from(s).length : s.length;
}

/** Characters [from, to) by 0-based character index. */
export function sliceChars(s: string, from: number, to = Infinity): string {
  const c = chars(s);
  if (typeof c === 'string') return c.slice(Math.max(from, 0), to === Infinity ? undefined : Math.max(to, 0));
  return c.slice(Math.max(from, 0), to === Infinity ? undefined : Math.max(to, 0)).join('');
}

/** UTF-16 offset → 1-based character position. */
export function charPosition(s: string, unitOffset: number): number {
  return charCount(s.slice(0, unitOffset)) + 1;
}

/** 1-based character position → UTF-16 offset (clamped to the string). */
export function unitOffset(s: string, charPos: number): number {
  if (charPos <= 1) return 0;
  if (!SURROGATE.test(s)) return Math.min(charPos - 1, s.length);
  let i = 0;
  let k = 1;
  while (i < s.length && k < charPos) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
    k++;
  }
  return i;
}

export function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

export function negativeLength(): GatewayError {
  return new GatewayError('22011', 'negative substring length not allowed');
}

/** substr(s, start [, count]) with SQL semantics: positions before 1 eat into the count. */
export function substrChars(s: string, start: number, count?: number): string {
  if (count !== undefined && count < 0) throw negativeLength();
  const from = Math.max(start, 1);
  if (count === undefined) return sliceChars(s, from - 1);
  const end = start + count; // exclusive, 1-based
  if (end <= from) return '';
  return sliceChars(s, from - 1, end - 1);
}

export function tooLarge(): GatewayError {
  return new GatewayError(SqlState.program_limit_exceeded, 'requested length too large');
}

export const MAX_STRING_BYTES = 0x3fffffff;

export function textArray(values: readonly (string | null)[]): PgArray {
  return pgArray(Oid.text, values);
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * upper()/lower() as PostgreSQL does them with a libc ctype: one code point at a time (towupper /
 * towlower), so no expansions (ß stays ß) and no context (final sigma is σ).
 */
export function pgUpper(s: string): string {
  if (ASCII.test(s)) return s.toUpperCase();
  let out = '';
  for (const c of s) {
    const u = c.toUpperCase();
    out += u.length === c.length || [...u].length === 1 ? u : c;
  }
  return out;
}

export function pgLower(s: string): string {
  if (ASCII.test(s)) return s.toLowerCase();
  let out = '';
  for (const c of s) {
    const l = c.toLowerCase();
    out += [...l].length === 1 ? l : String.fromCodePoint(l.codePointAt(0)!);
  }
  return out;
}
