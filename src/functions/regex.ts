/**
 * PostgreSQL's POSIX "advanced regular expressions" (ARE) translated to JS RegExp (unicode mode), with
 * a compiled-pattern cache. Covers bracket classes ([[:alpha:]] ..., C-locale/ASCII as the C collation),
 * \m \M \y \Y \A \Z, embedded options ((?i) ...), ***= / ***: prefixes, and the flag letters of
 * regexp_replace & co. Invalid patterns raise 2201B with PostgreSQL's wording where it is known.
 * @see https://www.postgresql.org/docs/15/functions-matching.html#POSIX-SYNTAX-DETAILS
 */
import { GatewayError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';

// lakegate's ctype is C.UTF-8 (Unicode classification) while collation is C (bytewise order)
const CLASSES: Record<string, string> = {
  alpha: '\\p{L}', digit: '0-9', alnum: '0-9\\p{L}', upper: '\\p{Lu}', lower: '\\p{Ll}', space: '\\s',
  blank: ' \\t', punct: '!-\\/:-@\\[-`{-~\\p{P}', xdigit: '0-9A-Fa-f', word: '0-9\\p{L}_', cntrl: '\\p{Cc}',
  print: '\\P{C}', graph: '!-~\\p{L}\\p{N}\\p{P}\\p{S}', ascii: '\\x00-\\x7f',
};

const WORD = '[0-9\\p{L}_]';
const SYNTAX = new Set('^$\\.*+?()[]{}|/');

export interface RegexOptions {
  caseInsensitive: boolean;
  /** newline-sensitive: . and [^...] stop at \n, ^ $ match at line ends (flag n) */
  newline: boolean;
  /** expanded syntax: whitespace and # comments ignored (flag x) */
  expanded: boolean;
  /** the whole pattern is a literal string (flag q or ***=) */
  literal: boolean;
}

export function regexError(message: string): GatewayError {
  return new GatewayError(SqlState.invalid_regular_expression, `invalid regular expression: ${message}`);
}

/** Parses the flag letters of regexp_replace / regexp_match ... (g handled by the caller). */
export function parseFlags(flags: string, allowGlobal: boolean, fn: string): { opts: RegexOptions; global: boolean } {
  const opts: RegexOptions = { caseInsensitive: false, newline: false, expanded: false, literal: false };
  let global = false;
  for (const f of flags) {
    switch (f) {
      case 'g':
        if (!allowGlobal) {
          throw new GatewayError(SqlState.invalid_parameter_value, `${fn}() does not support the "global" option`,
            fn === 'regexp_match' ? { hint: 'Use the regexp_matches function instead.' } : {});
        }
        global = true;
        break;
      case 'i': opts.caseInsensitive = true; break;
      case 'c': opts.caseInsensitive = false; break;
      case 'n': case 'w': opts.newline = true; break;
      case 'p': case 's': opts.newline = f === 'p' ? opts.newline : false; break;
      case 'x': opts.expanded = true; break;
      case 't': opts.expanded = false; break;
      case 'q': opts.literal = true; break;
      case 'b': case 'e': break;
      default:
        throw new GatewayError(SqlState.invalid_parameter_value, `invalid regular expression option: "${f}"`);
    }
  }
  return { opts, global };
}

function escapeLiteral(ch: string): string {
  return SYNTAX.has(ch) ? '\\' + ch : ch;
}

/** Translates one bracket expression starting at p[i] === '['; returns [js, next index]. */
function bracket(p: string, i: number, opts: RegexOptions): [string, number] {
  let j = i + 1;
  let out = '[';
  if (p[j] === '^') {
    out += '^';
    j++;
    if (opts.newline) out += '\\n';
  }
  let first = true;
  for (;;) {
    if (j >= p.length) throw regexError('brackets [] not balanced');
    const ch = p[j]!;
    if (ch === ']' && !first) return [out + ']', j + 1];
    first = false;
    if (ch === '[' && (p[j + 1] === ':' || p[j + 1] === '.' || p[j + 1] === '=')) {
      const kind = p[j + 1]!;
      const end = p.indexOf(kind + ']', j + 2);
      if (end < 0) throw regexError('brackets [] not balanced');
      const name = p.slice(j + 2, end);
      if (kind === ':') {
        const cls = CLASSES[name];
        if (cls === undefined) throw regexError('invalid character class');
        out += cls;
      } else {
        out += [...name].map((c) => (c === '-' ? '\\-' : escapeLiteral(c))).join('');
      }
      j = end + 2;
      continue;
    }
    if (ch === '\\') {
      const n = p[j + 1];
      if (n === undefined) throw regexError('invalid escape \\ sequence');
      out += n === 'w' ? '0-9\\p{L}_' : /[dsDSWntrfv]/.test(n) ? '\\' + n : /[0-9A-Za-z]/.test(n) ? n : n === '-' ? '\\-' : escapeLiteral(n);
      j += 2;
      continue;
    }
    out += ch === '[' || ch === ']' || ch === '/' ? '\\' + ch : ch;
    j++;
  }
}

/** ARE → JS source. */
export function translateRegex(pattern: string, opts: RegexOptions): string {
  let p = pattern;
  if (p.startsWith('***=')) return [...p.slice(4)].map(escapeLiteral).join('');
  if (p.startsWith('***:')) p = p.slice(4);
  if (opts.literal) return [...p].map(escapeLiteral).join('');
  const emb = /^\(\?([bceimnpqstwx]+)\)/.exec(p);
  if (emb !== null) {
    for (const f of emb[1]!) {
      if (f === 'i') opts.caseInsensitive = true;
      else if (f === 'c') opts.caseInsensitive = false;
      else if (f === 'n' || f === 'm' || f === 'w') opts.newline = true;
      else if (f === 'x') opts.expanded = true;
      else if (f === 'q') opts.literal = true;
    }
    p = p.slice(emb[0].length);
    if (opts.literal) return [...p].map(escapeLiteral).join('');
  }
  let out = '';
  let i = 0;
  while (i < p.length) {
    const ch = p[i]!;
    if (opts.expanded && /\s/.test(ch)) {
      i++;
      continue;
    }
    if (opts.expanded && ch === '#') {
      while (i < p.length && p[i] !== '\n') i++;
      continue;
    }
    if (ch === '[' && (p.startsWith('[[:<:]]', i) || p.startsWith('[[:>:]]', i))) {
      out += p[i + 3] === '<' ? `(?<!${WORD})(?=${WORD})` : `(?<=${WORD})(?!${WORD})`;
      i += 7;
      continue;
    }
    if (ch === '[') {
      const [js, next] = bracket(p, i, opts);
      out += js;
      i = next;
      continue;
    }
    if (ch === '\\') {
      const n = p[i + 1];
      if (n === undefined) throw regexError('invalid escape \\ sequence');
      i += 2;
      switch (n) {
        case 'm': out += `(?<!${WORD})(?=${WORD})`; break;
        case 'M': out += `(?<=${WORD})(?!${WORD})`; break;
        case 'y': out += '\\b'; break;
        case 'Y': out += '\\B'; break;
        case 'A': out += '(?<![\\s\\S])'; break;
        case 'Z': out += '(?![\\s\\S])'; break;
        default:
          if (n === 'w') out += WORD;
          else if (n === 'W') out += '[^0-9\\p{L}_]';
          else if (/[0-9dsDSntrfvbBux]/.test(n)) out += n === 'b' ? '\\x08' : '\\' + n;
          else if (/[A-Za-z]/.test(n)) throw regexError('invalid escape \\ sequence');
          else out += escapeLiteral(n);
      }
      continue;
    }
    if (ch === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i));
      if (m !== null) {
        const lo = Number(m[1]);
        const hi = m[2] === undefined ? lo : m[3] === '' ? Infinity : Number(m[3]);
        if (lo > 255 || (hi !== Infinity && (hi > 255 || hi < lo))) throw regexError('invalid repetition count(s)');
        out += m[0];
        i += m[0].length;
        continue;
      }
      if (/\d/.test(p[i + 1] ?? '')) throw regexError('invalid repetition count(s)');
      out += '\\{';
      i++;
      continue;
    }
    // outside a bracket expression ] and } are ordinary characters in an ARE (psql's \dT 'int4[]' sends '^(int4\\[])$')
    if (ch === '}' || ch === ']') {
      out += '\\' + ch;
      i++;
      continue;
    }
    if (ch === '/') out += '\\/';
    else if (ch === '.' && opts.newline) out += '[^\\n]';
    else out += ch;
    i++;
  }
  return out;
}

const cache = new Map<string, RegExp>();
const CACHE_LIMIT = 256;

function jsMessage(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  if (/Unterminated group|Unmatched '\)'/i.test(m)) return 'parentheses () not balanced';
  if (/Unterminated character class|Lone quantifier brackets/i.test(m)) return 'brackets [] not balanced';
  if (/Nothing to repeat/i.test(m)) return 'quantifier operand invalid';
  if (/numbers out of order|Incomplete quantifier/i.test(m)) return 'invalid repetition count(s)';
  if (/Invalid escape|\\ at end of pattern/i.test(m)) return 'invalid escape \\ sequence';
  if (/Range out of order/i.test(m)) return 'invalid character range';
  if (/Invalid named|group/i.test(m)) return 'invalid backreference number';
  return 'invalid regular expression';
}

/** A compiled RegExp for a PostgreSQL pattern and flag string (cached). `sticky`/`global` add JS flags. */
export function compileRegex(pattern: string, flags: string, fn = 'regexp_replace'): { re: RegExp; global: boolean } {
  const key = `${flags}\u0000${pattern}`;
  const hit = cache.get(key);
  const global = flags.includes('g');
  if (hit !== undefined) return { re: hit, global };
  const { opts } = parseFlags(flags, true, fn);
  const src = translateRegex(pattern, opts);
  let jsFlags = 'gu';
  if (opts.caseInsensitive) jsFlags += 'i';
  if (opts.newline) jsFlags += 'm';
  else jsFlags += 's';
  let re: RegExp;
  try {
    re = new RegExp(src, jsFlags);
  } catch (e) {
    throw regexError(jsMessage(e));
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, re);
  return { re, global };
}

/** All matches of re in s from code-unit offset `from` (non-overlapping; a zero-length match advances one character). */
export function* matchAll(re: RegExp, s: string, from = 0): Generator<RegExpExecArray> {
  re.lastIndex = from;
  for (;;) {
    const m = re.exec(s);
    if (m === null) return;
    yield m;
    if (m[0].length === 0) re.lastIndex = m.index + (s.codePointAt(m.index)! > 0xffff ? 2 : 1);
    if (re.lastIndex > s.length) return;
  }
}

/** First match at or after `from`, or null. */
export function firstMatch(re: RegExp, s: string, from = 0): RegExpExecArray | null {
  re.lastIndex = from;
  return re.exec(s);
}
