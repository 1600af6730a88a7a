/**
 * LIKE / ILIKE (operators ~~ ~~* !~~ !~~*), like_escape (the ESCAPE clause), and SIMILAR TO via
 * similar_to_escape, which rewrites a SQL regular expression into a POSIX one as PostgreSQL does.
 * Patterns compile to cached JS RegExps.
 * @see https://www.postgresql.org/docs/15/functions-matching.html
 */
import { GatewayError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { likeRegexSource } from '../common/like-pattern.ts';

function likeEndsWithEscape(): GatewayError {
  return new GatewayError(SqlState.invalid_escape_sequence, 'LIKE pattern must not end with escape character');
}

const likeCache = new Map<string, RegExp>();

/** The RegExp equivalent of a LIKE pattern whose escape character is backslash. */
export function likeRegex(pattern: string, caseInsensitive: boolean): RegExp {
  const key = (caseInsensitive ? 'i' : 'c') + pattern;
  const hit = likeCache.get(key);
  if (hit !== undefined) return hit;
  const { src, danglingEscape } = likeRegexSource(pattern);
  // MatchText only complains when matching reaches the dangling escape with text left over
  if (danglingEscape) return trailingEscape(src, caseInsensitive);
  const re = new RegExp(src + '$', caseInsensitive ? 'iu' : 'u');
  if (likeCache.size > 256) likeCache.clear();
  likeCache.set(key, re);
  return re;
}

/** A pattern ending in an escape: matching text raises 22025, anything else is simply false. */
function trailingEscape(prefix: string, caseInsensitive: boolean): RegExp {
  const probe = new RegExp(prefix + '[\\s\\S]', caseInsensitive ? 'iu' : 'u');
  return { test: (s: string): boolean => {
    if (probe.test(s)) throw likeEndsWithEscape();
    return false;
  } } as RegExp;
}

/** s LIKE pattern (backslash escape). */
export function like(s: string, pattern: string, caseInsensitive = false): boolean {
  if (pattern === '%') return true;
  return likeRegex(pattern, caseInsensitive).test(s);
}

/**
 * like_escape(pattern, escape): rewrites a pattern with a custom escape character into the backslash form.
 * An empty escape disables escaping; more than one character is 22025.
 */
export function likeEscape(pattern: string, escape: string): string {
  const esc = [...escape];
  if (esc.length > 1) throw new GatewayError(SqlState.invalid_escape_sequence, 'invalid escape string', { hint: 'Escape string must be empty or one character.' });
  if (esc.length === 0) return pattern.replace(/\\/g, '\\\\');
  const e = esc[0]!;
  if (e === '\\') return pattern;
  let out = '';
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === e) {
      const n = chars[++i];
      if (n === undefined) throw likeEndsWithEscape();
      out += '\\' + n;
    } else if (c === '\\') out += '\\\\';
    else out += c;
  }
  return out;
}

/**
 * similar_to_escape(pattern [, escape]): SQL regular expression → POSIX ARE, anchored as ^(?:...)$.
 * % → .*, _ → ., the escape character (default \) quotes the next character, and `esc"` separates the
 * parts that substring(... SIMILAR ...) returns.
 */
export function similarToEscape(pattern: string, escape: string | null = '\\'): string {
  const esc = escape === null ? null : [...escape];
  if (esc !== null && esc.length > 1) throw new GatewayError(SqlState.invalid_escape_sequence, 'invalid escape string', { hint: 'Escape string must be empty or one character.' });
  const e = esc === null || esc.length === 0 ? null : esc[0]!;
  let out = '^(?:';
  let inBracket = false;
  let nquotes = 0;
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (e !== null && c === e) {
      const n = chars[++i];
      if (n === undefined) {
        throw new GatewayError(SqlState.invalid_escape_sequence, 'invalid escape string', { hint: 'Escape string must be empty or one character.' });
      }
      if (n === '"' && !inBracket) {
        if (nquotes === 0) out += '){1,1}?(';
        else if (nquotes === 1) out += '){1,1}(?:';
        else throw new GatewayError(SqlState.invalid_escape_sequence, 'SQL regular expression may not contain more than two escape-double-quote separators');
        nquotes++;
      } else out += '\\' + n;
      continue;
    }
    if (inBracket) {
      if (c === ']') inBracket = false;
      else if (c === '\\') out += '\\';
      out += c;
    } else if (c === '[') {
      inBracket = true;
      out += c;
    } else if (c === '%') out += '.*';
    else if (c === '_') out += '.';
    else if (c === '(') out += '(?:';
    else if ('\\.^$'.includes(c)) out += '\\' + c;
    else out += c;
  }
  return out + ')$';
}
