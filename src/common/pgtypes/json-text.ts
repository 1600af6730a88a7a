/**
 * json and jsonb text input/output. json is validated and kept as written; jsonb is parsed and printed in
 * PostgreSQL's normalized form: `{"a": 1, "b": [1, 2]}`, object keys sorted by length then bytewise,
 * duplicate keys resolved last-wins, numbers re-printed as numeric (1e2 → 100, 2.50 stays 2.50).
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/jsonb.c (JsonbToCString)
 */
import { GatewayError } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';
import { Numeric } from './numeric.ts';

/** A parsed jsonb value. Numbers keep their numeric text form; objects are already normalized. */
export type JsonbValue = null | boolean | string | { readonly num: string } | JsonbValue[] | JsonbObject;
export interface JsonbObject {
  readonly keys: string[];
  readonly values: JsonbValue[];
}

class JsonParser {
  i = 0;
  constructor(readonly s: string, readonly jsonb: boolean) {}

  fail(detail: string): GatewayError {
    return new GatewayError(SqlState.invalid_text_representation, 'invalid input syntax for type json', { detail });
  }

  ws(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.i++;
      else break;
    }
  }

  value(): JsonbValue {
    this.ws();
    const s = this.s;
    if (this.i >= s.length) throw this.fail('The input string ended unexpectedly.');
    const c = s.charCodeAt(this.i);
    if (c === 123) return this.object();
    if (c === 91) return this.array();
    if (c === 34) return this.string();
    if (c === 45 || (c >= 48 && c <= 57)) return this.number();
    for (const [word, v] of [['true', true], ['false', false], ['null', null]] as const) {
      if (s.startsWith(word, this.i) && !isIdentChar(s.charCodeAt(this.i + word.length))) {
        this.i += word.length;
        return v;
      }
    }
    if (c === 125 || c === 93 || c === 44 || c === 58) throw this.fail(`Expected JSON value, but found "${s[this.i]}".`);
    throw this.fail(`Token "${this.token()}" is invalid.`);
  }

  token(): string {
    let j = this.i;
    while (j < this.s.length && isIdentChar(this.s.charCodeAt(j))) j++;
    return this.s.slice(this.i, Math.max(j, this.i + 1));
  }

  object(): JsonbObject {
    this.i++;
    const map = new Map<string, JsonbValue>();
    this.ws();
    if (this.s.charCodeAt(this.i) === 125) { this.i++; return normalizeObject(map); }
    for (;;) {
      this.ws();
      if (this.i >= this.s.length) throw this.fail('The input string ended unexpectedly.');
      if (this.s.charCodeAt(this.i) !== 34) throw this.fail(`Expected string, but found "${this.token()}".`);
      const key = this.string();
      this.ws();
      if (this.i >= this.s.length) throw this.fail('The input string ended unexpectedly.');
      if (this.s.charCodeAt(this.i) !== 58) throw this.fail(`Expected ":", but found "${this.token()}".`);
      this.i++;
      const v = this.value();
      map.delete(key); // last wins
      map.set(key, v);
      this.ws();
      if (this.i >= this.s.length) throw this.fail('The input string ended unexpectedly.');
      const c = this.s.charCodeAt(this.i++);
      if (c === 125) return normalizeObject(map);
      if (c !== 44) { this.i--; throw this.fail(`Expected "," or "}", but found "${this.token()}".`); }
    }
  }

  array(): JsonbValue[] {
    this.i++;
    const out: JsonbValue[] = [];
    this.ws();
    if (this.s.charCodeAt(this.i) === 93) { this.i++; return out; }
    for (;;) {
      out.push(this.value());
      this.ws();
      if (this.i >= this.s.length) throw this.fail('The input string ended unexpectedly.');
      const c = this.s.charCodeAt(this.i++);
      if (c === 93) return out;
      if (c !== 44) { this.i--; throw this.fail(`Expected "," or "]", but found "${this.token()}".`); }
    }
  }

  string(): string {
    const s = this.s;
    const open = this.i;
    let i = ++this.i;
    let out = '';
    let start = i;
    let high = 0; // a pending \uD800–\uDBFF (jsonb decodes escapes, so the pair must be complete)
    for (;;) {
      if (i >= s.length) throw this.fail(`Token "${s.slice(open)}" is invalid.`);
      const c = s.charCodeAt(i);
      if (high !== 0 && !(c === 92 && s[i + 1] === 'u')) throw this.fail('Unicode low surrogate must follow a high surrogate.');
      if (c === 34) break;
      if (c < 0x20) throw this.fail(`Character with value 0x${c.toString(16).padStart(2, '0')} must be escaped.`);
      if (c !== 92) { i++; continue; }
      out += s.slice(start, i);
      const e = s[i + 1];
      i += 2;
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          const hex = s.slice(i, i + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw this.fail('"\\u" must be followed by four hexadecimal digits.');
          const code = parseInt(hex, 16);
          if (code === 0 && this.jsonb) {
            throw new GatewayError('22P05' /* untranslatable_character */, 'unsupported Unicode escape sequence', { detail: '\\u0000 cannot be converted to text.' });
          }
          i += 4;
          if (this.jsonb && code >= 0xd800 && code <= 0xdbff) {
            if (high !== 0) throw this.fail('Unicode high surrogate must not follow a high surrogate.');
            high = code;
            break;
          }
          if (this.jsonb && code >= 0xdc00 && code <= 0xdfff) {
            if (high === 0) throw this.fail('Unicode low surrogate must follow a high surrogate.');
            out += String.fromCharCode(high, code);
            high = 0;
            break;
          }
          if (high !== 0) throw this.fail('Unicode low surrogate must follow a high surrogate.');
          out += String.fromCharCode(code);
          break;
        }
        default:
          throw this.fail(`Escape sequence "\\${e ?? ''}" is invalid.`);
      }
      start = i;
    }
    out += s.slice(start, i);
    this.i = i + 1;
    return out;
  }

  number(): { num: string } {
    const s = this.s;
    const start = this.i;
    let i = this.i;
    if (s.charCodeAt(i) === 45) i++;
    const d0 = i;
    while (isDigit(s.charCodeAt(i))) i++;
    let ok = i > d0 && !(s.charCodeAt(d0) === 48 && i - d0 > 1);
    if (s.charCodeAt(i) === 46) { i++; const f = i; while (isDigit(s.charCodeAt(i))) i++; ok &&= i > f; }
    if ((s.charCodeAt(i) | 32) === 101) {
      i++;
      if (s.charCodeAt(i) === 43 || s.charCodeAt(i) === 45) i++;
      const e = i;
      while (isDigit(s.charCodeAt(i))) i++;
      ok &&= i > e;
    }
    while (isIdentChar(s.charCodeAt(i))) { i++; ok = false; }
    if (!ok) throw this.fail(`Token "${s.slice(start, i)}" is invalid.`);
    this.i = i;
    const text = s.slice(start, i);
    return { num: this.jsonb ? Numeric.parse(text).toString() : text };
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isIdentChar(c: number): boolean {
  return (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122) || c === 95 || c === 43 || c === 45 || c === 46 || c >= 0x80;
}

const utf8 = new TextEncoder();

/** jsonb key order: shorter first, then memcmp of the UTF-8 bytes. */
function compareKeys(a: string, b: string): number {
  // ASCII keys (nearly all): UTF-8 bytes are the UTF-16 code units, no encoding needed
  if (isAscii(a) && isAscii(b)) {
    if (a.length !== b.length) return a.length - b.length;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const ea = utf8.encode(a), eb = utf8.encode(b);
  if (ea.length !== eb.length) return ea.length - eb.length;
  for (let i = 0; i < ea.length; i++) if (ea[i] !== eb[i]) return ea[i]! - eb[i]!;
  return 0;
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

function normalizeObject(map: Map<string, JsonbValue>): JsonbObject {
  const keys = [...map.keys()].sort(compareKeys);
  return { keys, values: keys.map((k) => map.get(k) as JsonbValue) };
}

function parse(text: string, jsonb: boolean): JsonbValue {
  const p = new JsonParser(text, jsonb);
  const v = p.value();
  p.ws();
  if (p.i < text.length) throw p.fail(`Expected end of input, but found "${p.token()}".`);
  return v;
}

/** json_in: validates and returns the text unchanged. */
export function jsonIn(text: string): string {
  parse(text, false);
  return text;
}

/** jsonb_in → normalized text (the JS representation of jsonb). */
export function jsonbIn(text: string): string {
  return jsonbToText(parse(text, true));
}

export function parseJsonb(text: string): JsonbValue {
  return parse(text, true);
}

/** JsonbToCString */
export function jsonbToText(v: JsonbValue): string {
  if (v === null) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (typeof v === 'string') return escapeJson(v);
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) s += (i > 0 ? ', ' : '') + jsonbToText(v[i]!);
    return s + ']';
  }
  if ('num' in v) return v.num;
  let s = '{';
  for (let i = 0; i < v.keys.length; i++) s += (i > 0 ? ', ' : '') + escapeJson(v.keys[i]!) + ': ' + jsonbToText(v.values[i]!);
  return s + '}';
}

/** escape_json */
export function escapeJson(s: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 34 && c !== 92) continue;
    out += s.slice(start, i);
    switch (c) {
      case 8: out += '\\b'; break;
      case 12: out += '\\f'; break;
      case 10: out += '\\n'; break;
      case 13: out += '\\r'; break;
      case 9: out += '\\t'; break;
      case 34: out += '\\"'; break;
      case 92: out += '\\\\'; break;
      default: out += '\\u' + c.toString(16).padStart(4, '0');
    }
    start = i + 1;
  }
  return out + s.slice(start) + '"';
}
