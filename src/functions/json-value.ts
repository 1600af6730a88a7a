/**
 * JSON values for the json/jsonb functions: a parser that keeps number text and source spans (json
 * operators return the input's own text), jsonb normalization (duplicate keys: last wins; keys ordered by
 * length, then bytes; numbers as numeric), PostgreSQL's two text layouts, escaping, and jsonb containment.
 * @see https://www.postgresql.org/docs/15/datatype-json.html
 */
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';

export type JsonValue =
  | { readonly t: 'null' }
  | { readonly t: 'bool'; readonly v: boolean }
  | { readonly t: 'num'; readonly text: string }
  | { readonly t: 'str'; readonly v: string }
  | { readonly t: 'arr'; readonly items: JsonValue[] }
  | { readonly t: 'obj'; readonly entries: Array<[string, JsonValue]> };

/** A parsed value with its [start, end) span in the source text. */
type Spanned = JsonValue & { span?: [number, number]; itemSpans?: Spanned[] };

export const JNULL: JsonValue = { t: 'null' };

function syntaxError(_text: string, detail: string): Error {
  return pgError(SqlState.invalid_text_representation, 'invalid input syntax for type json', { detail });
}

/** Parses JSON text; `keepSpans` records where each value sits so json (not jsonb) can return raw slices. */
export function parseJson(text: string): JsonValue {
  let i = 0;
  const ws = (): void => { while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++; };
  const value = (): Spanned => {
    ws();
    const start = i;
    const c = text[i];
    let v: Spanned;
    if (c === '{') {
      i++;
      const entries: Array<[string, JsonValue]> = [];
      const spans: Spanned[] = [];
      ws();
      if (text[i] === '}') i++;
      else {
        for (;;) {
          ws();
          if (text[i] !== '"') throw syntaxError(text, `Expected string, but found "${text.slice(i, i + 1)}".`);
          const k = str();
          ws();
          if (text[i] !== ':') throw syntaxError(text, `Expected ":", but found "${text.slice(i, i + 1)}".`);
          i++;
          const val = value();
          entries.push([k, val]);
          spans.push(val);
          ws();
          if (text[i] === ',') { i++; continue; }
          if (text[i] === '}') { i++; break; }
          throw syntaxError(text, `Expected "," or "}", but found "${text.slice(i, i + 1)}".`);
        }
      }
      v = { t: 'obj', entries, itemSpans: spans };
    } else if (c === '[') {
      i++;
      const items: Spanned[] = [];
      ws();
      if (text[i] === ']') i++;
      else {
        for (;;) {
          items.push(value());
          ws();
          if (text[i] === ',') { i++; continue; }
          if (text[i] === ']') { i++; break; }
          throw syntaxError(text, `Expected "," or "]", but found "${text.slice(i, i + 1)}".`);
        }
      }
      v = { t: 'arr', items };
    } else if (c === '"') {
      v = { t: 'str', v: str() };
    } else if (text.startsWith('true', i)) { i += 4; v = { t: 'bool', v: true }; }
    else if (text.startsWith('false', i)) { i += 5; v = { t: 'bool', v: false }; }
    else if (text.startsWith('null', i)) { i += 4; v = { t: 'null' }; }
    else {
      const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
      if (!m) throw syntaxError(text, `Token "${text.slice(i).split(/[\s,\]}]/)[0]}" is invalid.`);
      i += m[0].length;
      v = { t: 'num', text: m[0] };
    }
    v.span = [start, i];
    return v;
  };
  const str = (): string => {
    i++;
    let out = '';
    for (;;) {
      const ch = text[i];
      if (ch === undefined) throw syntaxError(text, 'The input string ended unexpectedly.');
      if (ch === '"') { i++; return out; }
      if (ch === '\\') {
        const e = text[i + 1];
        i += 2;
        switch (e) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case 'r': out += '\r'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'u': out += String.fromCharCode(parseInt(text.slice(i, i + 4), 16)); i += 4; break;
          default: out += e ?? ''; break;
        }
        continue;
      }
      out += ch;
      i++;
    }
  };
  const v = value();
  ws();
  if (i < text.length) throw syntaxError(text, `Expected end of input, but found "${text.slice(i, i + 1)}".`);
  return v;
}

/** The source text of each element/member value (json keeps its input formatting). */
export function rawSlices(text: string, v: JsonValue): string[] {
  const s = v as Spanned;
  const parts = s.t === 'arr' ? (s.items as Spanned[]) : s.t === 'obj' ? (s.itemSpans ?? []) : [];
  return parts.map((p) => (p.span ? text.slice(p.span[0], p.span[1]) : ''));
}

/** PostgreSQL's escape_json. */
export function escapeJson(s: string): string {
  let out = '"';
  for (const ch of s) {
    switch (ch) {
      case '"': out += '\\"'; break;
      case '\\': out += '\\\\'; break;
      case '\n': out += '\\n'; break;
      case '\r': out += '\\r'; break;
      case '\t': out += '\\t'; break;
      case '\b': out += '\\b'; break;
      case '\f': out += '\\f'; break;
      default:
        out += ch < ' ' ? '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0') : ch;
    }
  }
  return out + '"';
}

/** jsonb key order: shorter keys first, then bytewise (UTF-8 order = code point order). */
export function compareKeys(a: string, b: string): number {
  const la = Buffer.byteLength(a), lb = Buffer.byteLength(b);
  if (la !== lb) return la - lb;
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** jsonb's canonical form of a value. */
export function normalize(v: JsonValue): JsonValue {
  switch (v.t) {
    case 'num': return { t: 'num', text: Numeric.parse(v.text).toString() };
    case 'arr': return { t: 'arr', items: v.items.map(normalize) };
    case 'obj': {
      const m = new Map<string, JsonValue>();
      for (const [k, x] of v.entries) m.set(k, normalize(x));
      return { t: 'obj', entries: [...m.entries()].sort((a, b) => compareKeys(a[0], b[0])) };
    }
    default: return v;
  }
}

/** jsonb output: `{"a": 1, "b": [1, 2]}` */
export function jsonbText(v: JsonValue): string {
  switch (v.t) {
    case 'null': return 'null';
    case 'bool': return v.v ? 'true' : 'false';
    case 'num': return v.text;
    case 'str': return escapeJson(v.v);
    case 'arr': return '[' + v.items.map(jsonbText).join(', ') + ']';
    case 'obj': return '{' + v.entries.map(([k, x]) => escapeJson(k) + ': ' + jsonbText(x)).join(', ') + '}';
  }
}

/** Parses and normalizes jsonb text. */
export function parseJsonb(text: string): JsonValue {
  return normalize(parseJson(text));
}

/** jsonb_pretty: four-space indentation, empty containers split over two lines as PostgreSQL does. */
export function prettyText(v: JsonValue, indent = 0): string {
  const pad = (n: number): string => '    '.repeat(n);
  switch (v.t) {
    case 'arr':
      return '[\n' + v.items.map((x) => pad(indent + 1) + prettyText(x, indent + 1)).join(',\n') + (v.items.length ? '\n' : '') + pad(indent) + ']';
    case 'obj':
      return '{\n' + v.entries.map(([k, x]) => pad(indent + 1) + escapeJson(k) + ': ' + prettyText(x, indent + 1)).join(',\n') + (v.entries.length ? '\n' : '') + pad(indent) + '}';
    default:
      return jsonbText(v);
  }
}

export function typeofJson(v: JsonValue): string {
  return { null: 'null', bool: 'boolean', num: 'number', str: 'string', arr: 'array', obj: 'object' }[v.t];
}

export function jsonEquals(a: JsonValue, b: JsonValue): boolean {
  if (a.t !== b.t) return false;
  switch (a.t) {
    case 'null': return true;
    case 'bool': return a.v === (b as typeof a).v;
    case 'num': return Numeric.parse(a.text).compare(Numeric.parse((b as typeof a).text)) === 0;
    case 'str': return a.v === (b as typeof a).v;
    case 'arr': { const y = (b as typeof a).items; return a.items.length === y.length && a.items.every((x, i) => jsonEquals(x, y[i]!)); }
    case 'obj': {
      const y = (b as typeof a).entries;
      return a.entries.length === y.length && a.entries.every(([k, x]) => y.some(([k2, x2]) => k === k2 && jsonEquals(x, x2)));
    }
  }
}

/** jsonb @>: PostgreSQL's JsonbDeepContains, including "a top-level array contains a scalar it holds". */
export function jsonbContains(a: JsonValue, b: JsonValue, top = true): boolean {
  if (a.t === 'obj') {
    if (b.t !== 'obj') return false;
    return b.entries.every(([k, bv]) => {
      const av = a.entries.find(([ak]) => ak === k)?.[1];
      if (av === undefined) return false;
      if (av.t === 'obj' || av.t === 'arr') return av.t === bv.t && jsonbContains(av, bv, false);
      return jsonEquals(av, bv);
    });
  }
  if (a.t === 'arr') {
    if (b.t === 'arr') {
      return b.items.every((bv) => a.items.some((av) => {
        if (bv.t === 'obj' || bv.t === 'arr') return av.t === bv.t && jsonbContains(av, bv, false);
        return jsonEquals(av, bv);
      }));
    }
    if (top && b.t !== 'obj') return a.items.some((av) => jsonEquals(av, b));
    return false;
  }
  return jsonEquals(a, b);
}

/** jsonb ? key: an object key, or a string element of an array, or an equal string scalar. */
export function jsonbExists(v: JsonValue, key: string): boolean {
  if (v.t === 'obj') return v.entries.some(([k]) => k === key);
  if (v.t === 'arr') return v.items.some((x) => x.t === 'str' && x.v === key);
  return v.t === 'str' && v.v === key;
}
