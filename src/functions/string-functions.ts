/**
 * The text functions of PostgreSQL 15 (length, lower, substr, trim, lpad, split_part, concat, ...).
 * Positions and lengths count characters, as PostgreSQL does in UTF-8. format/quote/encode live in
 * string-format.ts, the regexp_* family in regex-functions.ts, operators in string-operators.ts.
 * @see https://www.postgresql.org/docs/15/functions-string.html
 */
import { Oid } from '../common/pgtypes/oids.ts';
import { GatewayError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { RoutineDef, ScalarFunctionDef, SetFunctionDef } from './registry-types.ts';
import { bpcharToText } from './char-length.ts';
import { similarToEscape, likeEscape } from './like.ts';
import { compileRegex } from './regex.ts';
import {
  MAX_STRING_BYTES, byteLength, charCount, chars, pgLower, pgUpper, sliceChars, substrChars, textArray, tooLarge,
} from './string-support.ts';
import { textOutput } from './text-io.ts';

const { text, int4, bpchar, bool, bytea } = Oid;
const _text = Oid._text;

type Impl = ScalarFunctionDef['impl'];

function fn(oid: number, name: string, args: number[], returns: number, impl: Impl, extra: Partial<ScalarFunctionDef> = {}): ScalarFunctionDef {
  return { kind: 'scalar', oid, name, args, returns, volatility: 'i', impl, ...extra };
}

const s0 = (a: unknown[]): string => a[0] as string;
const n = (a: unknown[], i: number): number => a[i] as number;

function trimChars(s: string, set: string, left: boolean, right: boolean): string {
  const cs = chars(s);
  const arr = typeof cs === 'string' ? [...cs] : cs;
  const del = new Set(chars(set));
  let b = 0;
  let e = arr.length;
  if (left) while (b < e && del.has(arr[b]!)) b++;
  if (right) while (e > b && del.has(arr[e - 1]!)) e--;
  return arr.slice(b, e).join('');
}

function pad(s: string, len: number, fill: string, left: boolean): string {
  if (len <= 0) return '';
  if (len * 4 > MAX_STRING_BYTES) throw tooLarge();
  const have = charCount(s);
  if (have >= len) return sliceChars(s, 0, len);
  if (fill === '') return s;
  const f = [...fill];
  let padding = '';
  for (let i = 0; i < len - have; i++) padding += f[i % f.length];
  return left ? padding + s : s + padding;
}

/** initcap: upper-case the first letter of each alphanumeric run, lower-case the rest. */
function initcap(s: string): string {
  let out = '';
  let inWord = false;
  for (const c of s) {
    const alnum = /[\p{L}\p{N}]/u.test(c);
    out += alnum ? (inWord ? pgLower(c) : pgUpper(c)) : c;
    inWord = alnum;
  }
  return out;
}

function splitPart(s: string, delim: string, field: number): string {
  if (field === 0) throw new GatewayError(SqlState.invalid_parameter_value, 'field position must not be zero');
  const parts = delim === '' ? (s === '' ? [] : [s]) : s.split(delim);
  const idx = field > 0 ? field - 1 : parts.length + field;
  return parts[idx] ?? '';
}

function translate(s: string, from: string, to: string): string {
  const f = [...from];
  const t = [...to];
  const map = new Map<string, string>();
  for (let i = 0; i < f.length; i++) if (!map.has(f[i]!)) map.set(f[i]!, t[i] ?? '');
  let out = '';
  for (const c of s) out += map.get(c) ?? c;
  return out;
}

function overlay(s: string, r: string, from: number, count?: number): string {
  const cnt = count ?? charCount(r);
  if (from <= 0) throw new GatewayError('22011', 'negative substring length not allowed');
  const head = substrChars(s, 1, from - 1);
  const tail = from + cnt < 1 ? s : substrChars(s, from + cnt);
  return head + r + tail;
}

function position(s: string, sub: string): number {
  if (sub === '') return 1;
  const i = s.indexOf(sub);
  return i < 0 ? 0 : charCount(s.slice(0, i)) + 1;
}

function repeat(s: string, count: number): string {
  if (count <= 0 || s === '') return '';
  if (byteLength(s) * count > MAX_STRING_BYTES) throw tooLarge();
  return s.repeat(count);
}

function leftRight(s: string, k: number, left: boolean): string {
  const len = charCount(s);
  if (left) return k >= 0 ? sliceChars(s, 0, k) : sliceChars(s, 0, len + k);
  return k >= 0 ? sliceChars(s, Math.max(len - k, 0)) : sliceChars(s, -k);
}

/** string_to_array(s, delim [, null_string]): NULL delimiter splits into characters. */
function stringToArray(s: string, delim: string | null, nullStr: string | null): Array<string | null> {
  if (s === '') return [];
  let parts: string[];
  if (delim === null) parts = [...s];
  else if (delim === '') parts = [s];
  else parts = s.split(delim);
  return parts.map((p) => (nullStr !== null && p === nullStr ? null : p));
}

/** substring(s from pattern): the first parenthesized subexpression's match, or the whole match. */
function substringRegex(s: string, pattern: string): string | null {
  const { re } = compileRegex(pattern, '', 'substring');
  re.lastIndex = 0;
  const m = re.exec(s);
  if (m === null) return null;
  return m.length > 1 ? (m[1] ?? null) : m[0];
}

/** substring(s similar pattern escape esc) */
function substringSimilar(s: string, pattern: string, esc: string): string | null {
  return substringRegex(s, similarToEscape(pattern, esc));
}

/** unicode_norm_form_from_string: NFC, NFD, NFKC, NFKD (case-insensitive), else 22023. */
function normForm(form: string): 'NFC' | 'NFD' | 'NFKC' | 'NFKD' {
  const f = form.toUpperCase();
  if (f === 'NFC' || f === 'NFD' || f === 'NFKC' || f === 'NFKD') return f;
  throw new GatewayError(SqlState.invalid_parameter_value, `invalid normalization form: ${form}`);
}

const stringToTable: SetFunctionDef[] = [
  { kind: 'set', oid: 6160, name: 'string_to_table', args: [text, text], returns: text, strict: false, volatility: 'i',
    impl: (a) => (a[0] === null ? [] : stringToArray(a[0] as string, a[1] as string | null, null)) },
  { kind: 'set', oid: 6161, name: 'string_to_table', args: [text, text, text], returns: text, strict: false, volatility: 'i',
    impl: (a) => (a[0] === null ? [] : stringToArray(a[0] as string, a[1] as string | null, a[2] as string | null)) },
];

const lengthOf: Impl = (a) => charCount(s0(a));
const bpLength: Impl = (a) => charCount(bpcharToText(s0(a)));

export const stringFunctions: readonly RoutineDef[] = [
  fn(1317, 'length', [text], int4, lengthOf),
  fn(1318, 'length', [bpchar], int4, bpLength),
  fn(2010, 'length', [bytea], int4, (a) => (a[0] as Uint8Array).length),
  fn(1381, 'char_length', [text], int4, lengthOf),
  fn(1372, 'char_length', [bpchar], int4, bpLength),
  fn(1369, 'character_length', [text], int4, lengthOf),
  fn(1367, 'character_length', [bpchar], int4, bpLength),
  fn(1257, 'textlen', [text], int4, lengthOf),
  fn(1374, 'octet_length', [text], int4, (a) => byteLength(s0(a))),
  fn(1375, 'octet_length', [bpchar], int4, (a) => byteLength(s0(a))),
  fn(720, 'octet_length', [bytea], int4, (a) => (a[0] as Uint8Array).length),
  fn(1811, 'bit_length', [text], int4, (a) => byteLength(s0(a)) * 8),
  fn(1810, 'bit_length', [bytea], int4, (a) => (a[0] as Uint8Array).length * 8),
  fn(870, 'lower', [text], text, (a) => pgLower(s0(a))),
  fn(871, 'upper', [text], text, (a) => pgUpper(s0(a))),
  fn(872, 'initcap', [text], text, (a) => initcap(s0(a))),
  fn(883, 'substr', [text, int4], text, (a) => substrChars(s0(a), n(a, 1))),
  fn(877, 'substr', [text, int4, int4], text, (a) => substrChars(s0(a), n(a, 1), n(a, 2))),
  fn(937, 'substring', [text, int4], text, (a) => substrChars(s0(a), n(a, 1))),
  fn(936, 'substring', [text, int4, int4], text, (a) => substrChars(s0(a), n(a, 1), n(a, 2))),
  fn(2073, 'substring', [text, text], text, (a) => substringRegex(s0(a), a[1] as string)),
  fn(2074, 'substring', [text, text, text], text, (a) => substringSimilar(s0(a), a[1] as string, a[2] as string)),
  fn(2086, 'substr', [bytea, int4], bytea, (a) => byteaSubstr(a[0] as Uint8Array, n(a, 1))),
  fn(2085, 'substr', [bytea, int4, int4], bytea, (a) => byteaSubstr(a[0] as Uint8Array, n(a, 1), n(a, 2))),
  fn(2013, 'substring', [bytea, int4], bytea, (a) => byteaSubstr(a[0] as Uint8Array, n(a, 1))),
  fn(2012, 'substring', [bytea, int4, int4], bytea, (a) => byteaSubstr(a[0] as Uint8Array, n(a, 1), n(a, 2))),
  fn(849, 'position', [text, text], int4, (a) => position(s0(a), a[1] as string)),
  fn(868, 'strpos', [text, text], int4, (a) => position(s0(a), a[1] as string)),
  fn(1404, 'overlay', [text, text, int4, int4], text, (a) => overlay(s0(a), a[1] as string, n(a, 2), n(a, 3))),
  fn(1405, 'overlay', [text, text, int4], text, (a) => overlay(s0(a), a[1] as string, n(a, 2))),
  fn(884, 'btrim', [text, text], text, (a) => trimChars(s0(a), a[1] as string, true, true)),
  fn(885, 'btrim', [text], text, (a) => trimChars(s0(a), ' ', true, true)),
  fn(875, 'ltrim', [text, text], text, (a) => trimChars(s0(a), a[1] as string, true, false)),
  fn(881, 'ltrim', [text], text, (a) => trimChars(s0(a), ' ', true, false)),
  fn(876, 'rtrim', [text, text], text, (a) => trimChars(s0(a), a[1] as string, false, true)),
  fn(882, 'rtrim', [text], text, (a) => trimChars(s0(a), ' ', false, true)),
  fn(873, 'lpad', [text, int4, text], text, (a) => pad(s0(a), n(a, 1), a[2] as string, true)),
  fn(879, 'lpad', [text, int4], text, (a) => pad(s0(a), n(a, 1), ' ', true)),
  fn(874, 'rpad', [text, int4, text], text, (a) => pad(s0(a), n(a, 1), a[2] as string, false)),
  fn(880, 'rpad', [text, int4], text, (a) => pad(s0(a), n(a, 1), ' ', false)),
  fn(3060, 'left', [text, int4], text, (a) => leftRight(s0(a), n(a, 1), true)),
  fn(3061, 'right', [text, int4], text, (a) => leftRight(s0(a), n(a, 1), false)),
  fn(1622, 'repeat', [text, int4], text, (a) => repeat(s0(a), n(a, 1))),
  fn(3062, 'reverse', [text], text, (a) => [...s0(a)].reverse().join('')),
  fn(2087, 'replace', [text, text, text], text, (a) => (a[1] === '' ? s0(a) : s0(a).split(a[1] as string).join(a[2] as string))),
  fn(878, 'translate', [text, text, text], text, (a) => translate(s0(a), a[1] as string, a[2] as string)),
  fn(2088, 'split_part', [text, text, int4], text, (a) => splitPart(s0(a), a[1] as string, n(a, 2))),
  fn(3696, 'starts_with', [text, text], bool, (a) => s0(a).startsWith(a[1] as string)),
  fn(394, 'string_to_array', [text, text], _text, (a) => (a[0] === null ? null : textArray(stringToArray(s0(a), a[1] as string | null, null))), { strict: false }),
  fn(376, 'string_to_array', [text, text, text], _text, (a) => (a[0] === null ? null : textArray(stringToArray(s0(a), a[1] as string | null, a[2] as string | null))), { strict: false }),
  fn(3058, 'concat', [Oid.any], text, (a, ctx, t) => a.map((v, i) => (v === null ? '' : textOutput(t[i]?.oid ?? text, v, ctx))).join(''), { variadic: Oid.any, strict: false, volatility: 's' }),
  fn(3059, 'concat_ws', [text, Oid.any], text, (a, ctx, t) => {
    if (a[0] === null) return null;
    return a.slice(1).flatMap((v, i) => (v === null ? [] : [textOutput(t[i + 1]?.oid ?? text, v, ctx)])).join(a[0] as string);
  }, { variadic: Oid.any, strict: false, volatility: 's' }),
  fn(1637, 'like_escape', [text, text], text, (a) => likeEscape(s0(a), a[1] as string)),
  fn(1986, 'similar_to_escape', [text, text], text, (a) => similarToEscape(s0(a), a[1] as string)),
  fn(1987, 'similar_to_escape', [text], text, (a) => similarToEscape(s0(a))),
  fn(1623, 'similar_escape', [text, text], text, (a) => (a[0] === null ? null : similarToEscape(s0(a), a[1] === null ? '\\' : (a[1] as string))), { strict: false }),
  fn(4350, 'normalize', [text, text], text, (a) => s0(a).normalize(normForm((a[1] as string | undefined) ?? 'NFC')), { defaults: 1 }),
  fn(4351, 'is_normalized', [text, text], bool, (a) => {
    const form = normForm((a[1] as string | undefined) ?? 'NFC');
    return s0(a).normalize(form) === s0(a);
  }, { defaults: 1 }),
  ...stringToTable,
];

function byteaSubstr(b: Uint8Array, start: number, count?: number): Uint8Array {
  if (count !== undefined && count < 0) throw new GatewayError('22011', 'negative substring length not allowed');
  const from = Math.max(start, 1) - 1;
  const end = count === undefined ? b.length : Math.max(start + count - 1, from);
  return b.slice(from, Math.min(end, b.length));
}
