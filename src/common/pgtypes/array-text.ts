/**
 * Array text I/O (array_in / array_out): `{1,2,3}`, `{{1,2},{3,4}}`, `[0:1]={a,b}`, quoted elements with
 * backslash escapes, unquoted NULL, `{}`. Element conversion is delegated to the caller so that this file
 * knows only the array syntax.
 * @see https://www.postgresql.org/docs/15/arrays.html#ARRAYS-IO
 */
import { GatewayError } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';
import type { PgArray } from './values.ts';

function malformed(text: string, detail: string): GatewayError {
  return new GatewayError(SqlState.invalid_text_representation, `malformed array literal: "${text}"`, { detail });
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** array_in: parses the literal; `elemIn` converts each non-NULL element text. */
export function arrayIn(text: string, elementOid: number, elemIn: (s: string) => unknown, delim = ','): PgArray {
  let i = 0;
  const n = text.length;
  const d = delim.charCodeAt(0);
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  // optional dimension decoration [lo:hi][lo:hi]=
  const givenLower: number[] = [], givenDims: number[] = [];
  while (text.charCodeAt(i) === 91 /* [ */) {
    const close = text.indexOf(']', i);
    if (close < 0) throw malformed(text, 'Missing "]" after array dimensions.');
    const spec = text.slice(i + 1, close);
    const colon = spec.indexOf(':');
    const lo = colon < 0 ? 1 : Number(spec.slice(0, colon));
    const hi = Number(colon < 0 ? spec : spec.slice(colon + 1));
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || spec.trim() === '') throw malformed(text, '"[" must introduce explicitly-specified array dimensions.');
    if (hi < lo) throw new GatewayError(SqlState.array_subscript_error, 'upper bound cannot be less than lower bound');
    givenLower.push(lo);
    givenDims.push(hi - lo + 1);
    i = close + 1;
  }
  if (givenDims.length > 0) {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) !== 61 /* = */) throw malformed(text, 'Missing "=" after array dimensions.');
    i++;
    while (i < n && isSpace(text.charCodeAt(i))) i++;
  }
  if (text.charCodeAt(i) !== 123 /* { */) throw malformed(text, 'Array value must start with "{" or dimension information.');

  const values: unknown[] = [];
  const dims: number[] = [];
  const counts: number[] = []; // elements seen at each open level
  let depth = 0;
  let expectElement = true; // after '{' or delimiter
  let leafDepth = -1;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) { i++; continue; }
    if (c === 123) {
      if (!expectElement || (leafDepth >= 0 && depth >= leafDepth)) throw malformed(text, 'Unexpected "{" character.');
      if (depth > 0) counts[depth - 1]!++;
      depth++;
      if (depth > 6) throw new GatewayError(SqlState.program_limit_exceeded, 'number of array dimensions (7) exceeds the maximum allowed (6)');
      counts[depth - 1] = 0;
      expectElement = true;
      i++;
      continue;
    }
    if (c === 125) {
      if (depth === 0) throw malformed(text, 'Unexpected "}" character.');
      const cnt = counts[depth - 1]!;
      if (expectElement && cnt > 0) throw malformed(text, 'Unexpected "}" character.');
      if (leafDepth < 0 && cnt > 0) leafDepth = depth;
      if (cnt > 0) {
        const k = depth - 1;
        if (dims[k] === undefined) dims[k] = cnt;
        else if (dims[k] !== cnt) throw malformed(text, 'Multidimensional arrays must have sub-arrays with matching dimensions.');
      }
      depth--;
      expectElement = false;
      i++;
      if (depth === 0) break;
      continue;
    }
    if (c === d) {
      if (expectElement || depth === 0) throw malformed(text, `Unexpected "${delim}" character.`);
      expectElement = true;
      i++;
      continue;
    }
    if (depth === 0 || !expectElement) throw malformed(text, 'Unexpected array element.');
    if (leafDepth >= 0 && depth !== leafDepth) throw malformed(text, 'Multidimensional arrays must have sub-arrays with matching dimensions.');
    // an element: quoted or unquoted, with backslash escapes
    let s = '';
    let quoted = false, anyQuoted = false;
    let lastNonSpace = 0; // length of s up to the last non-space or escaped char (trailing spaces trimmed)
    for (; i < n; i++) {
      const e = text.charCodeAt(i);
      if (e === 92 /* \ */) {
        if (i + 1 >= n) throw malformed(text, 'Unexpected end of input.');
        s += text[++i];
        lastNonSpace = s.length;
        continue;
      }
      if (e === 34 /* " */) { quoted = !quoted; anyQuoted = true; lastNonSpace = s.length; continue; }
      if (!quoted && (e === d || e === 125 || e === 123)) break;
      if (!quoted && e === 34) break;
      s += text[i];
      if (quoted || !isSpace(e)) lastNonSpace = s.length;
    }
    if (quoted) throw malformed(text, 'Unexpected end of input.');
    s = s.slice(0, lastNonSpace);
    if (text.charCodeAt(i) === 123) throw malformed(text, 'Unexpected "{" character.');
    if (leafDepth < 0) leafDepth = depth;
    counts[depth - 1]!++;
    values.push(!anyQuoted && s.length === 4 && s.toLowerCase() === 'null' ? null : elemIn(s));
    expectElement = false;
  }
  if (depth !== 0) throw malformed(text, 'Unexpected end of input.');
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  if (i < n) throw malformed(text, 'Junk after closing right brace.');
  if (values.length === 0) return { kind: 'array', elementOid, dims: [], lowerBounds: [], values };
  const outDims = dims.slice(0, leafDepth);
  if (givenDims.length > 0) {
    if (givenDims.length !== outDims.length || givenDims.some((g, k) => g !== outDims[k])) {
      throw malformed(text, 'Specified array dimensions do not match array contents.');
    }
    return { kind: 'array', elementOid, dims: outDims, lowerBounds: givenLower, values };
  }
  return { kind: 'array', elementOid, dims: outDims, lowerBounds: outDims.map(() => 1), values };
}

/** array_out: `elemOut` prints each non-null element; quoting follows array_out's rules. */
export function arrayOut(a: PgArray, elemOut: (v: unknown) => string, delim = ','): string {
  if (a.dims.length === 0 || a.values.length === 0) return '{}';
  let prefix = '';
  if (a.lowerBounds.some((lb) => lb !== 1)) {
    for (let k = 0; k < a.dims.length; k++) prefix += `[${a.lowerBounds[k]}:${a.lowerBounds[k]! + a.dims[k]! - 1}]`;
    prefix += '=';
  }
  let pos = 0;
  const level = (k: number): string => {
    let out = '{';
    const len = a.dims[k]!;
    for (let j = 0; j < len; j++) {
      if (j > 0) out += delim;
      if (k + 1 < a.dims.length) out += level(k + 1);
      else {
        const v = a.values[pos++];
        out += v === null || v === undefined ? 'NULL' : quoteElement(elemOut(v), delim);
      }
    }
    return out + '}';
  };
  return prefix + level(0);
}

function quoteElement(s: string, delim: string): string {
  if (s.length === 0) return '""';
  const d = delim.charCodeAt(0);
  let needQuote = s.length === 4 && s.toLowerCase() === 'null';
  let needEscape = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 34 || c === 92) { needQuote = true; needEscape = true; break; }
    if (c === 123 || c === 125 || c === d || isSpace(c)) needQuote = true;
  }
  if (!needQuote) return s;
  if (!needEscape) return '"' + s + '"';
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 34 || c === 92) out += '\\';
    out += s[i];
  }
  return out + '"';
}
