/**
 * The two compilations of a LIKE pattern (backslash as escape, `%` any run of characters, `_` one character — one
 * code point, as PostgreSQL's UTF-8 LIKE —, case-sensitive unless the caller adds the `i` flag) shared by the
 * Filter's LIKE (functions/like.ts), its vector kernel (exec/expr/like-matcher.ts) and the scan's row filter
 * (iceberg/read/like-string-test.ts), which may not import functions/: one place decides what a pattern means.
 * @see https://www.postgresql.org/docs/15/functions-matching.html#FUNCTIONS-LIKE
 */

/** characters with a meaning in a RegExp source */
const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/]/;

export interface LikeRegexSource {
  /** `^` and the pattern as a RegExp source for the `u` flag, without the closing `$` */
  readonly src: string;
  /** the pattern ends in the escape character: `src` covers what precedes it (LIKE raises 22025 on some values) */
  readonly danglingEscape: boolean;
}

export function likeRegexSource(pattern: string): LikeRegexSource {
  let src = '^';
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\') {
      const n = chars[++i];
      if (n === undefined) return { src, danglingEscape: true };
      src += REGEX_SPECIAL.test(n) ? '\\' + n : n;
    } else if (c === '%') src += '[\\s\\S]*';
    else if (c === '_') src += '[\\s\\S]';
    else src += REGEX_SPECIAL.test(c) ? '\\' + c : c;
  }
  return { src, danglingEscape: false };
}

/**
 * A pattern of literal text and `%` only (no `_`, no escape) as startsWith / indexOf / endsWith: the first piece
 * anchored at the start, the last at the end, each middle piece at its leftmost place after the previous one (if any
 * placement fits, that one does). TPC-H's `%special%requests%`, `%green%`, `PROMO%` need no backtracking RegExp.
 */
export function literalLikeTest(pattern: string): (s: string) => boolean {
  const segs = pattern.split('%');
  if (segs.length === 1) return (s) => s === pattern;
  const first = segs[0]!;
  const last = segs[segs.length - 1]!;
  const middle = segs.slice(1, -1).filter((x) => x.length > 0);
  const fixed = first.length + last.length;
  return (s) => {
    if (s.length < fixed || !s.startsWith(first) || !s.endsWith(last)) return false;
    let at = first.length;
    const end = s.length - last.length;
    for (let k = 0; k < middle.length; k++) {
      const m = middle[k]!;
      const i = s.indexOf(m, at);
      if (i < 0 || i + m.length > end) return false;
      at = i + m.length;
    }
    return true;
  };
}
