/**
 * A pushed LIKE pattern (ScanPredicate `startsWith` with `like`) judged on decoded JS strings: the row filter a
 * scan applies when it decodes without Arrow data (parallel/row-filter.ts). The Arrow pass judges the same
 * pattern on UTF-8 bytes (utf8-like-matcher.ts); this is its string twin, with the answers of the Filter's LIKE
 * (functions/like.ts, which iceberg/ may not import): backslash escapes, `%` any run of characters, `_` one
 * character — one code point, as PostgreSQL's UTF-8 LIKE — and case-sensitive.
 * Literal text and `%` only (TPC-H's `%special%requests%`) is matched by startsWith / indexOf / endsWith; other
 * patterns by a RegExp with the `u` flag, as functions/like.ts builds it.
 * Not compiled (null): a pattern ending in the escape character, for which LIKE raises 22025 on some values —
 * the Filter above must see those rows and raise it.
 * @see https://www.postgresql.org/docs/15/functions-matching.html#FUNCTIONS-LIKE
 */

/** characters with a meaning in a RegExp source */
const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/]/;

/** whether string `s` matches `pattern`; null when the pattern cannot be judged here (it ends in the escape) */
export function likeStringTest(pattern: string): ((s: string) => boolean) | null {
  if (pattern === '%') return () => true;
  if (!pattern.includes('_') && !pattern.includes('\\')) return literalTest(pattern);
  let src = '^';
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\') {
      const n = chars[++i];
      if (n === undefined) return null;
      src += REGEX_SPECIAL.test(n) ? '\\' + n : n;
    } else if (c === '%') src += '[\\s\\S]*';
    else if (c === '_') src += '[\\s\\S]';
    else src += REGEX_SPECIAL.test(c) ? '\\' + c : c;
  }
  const re = new RegExp(src + '$', 'u');
  return (s) => re.test(s);
}

/**
 * literal text split at `%`: the first piece anchored at the start, the last at the end, the middle ones placed
 * leftmost in turn (if any placement of a piece fits, its leftmost one does). Code units compare as code points
 * here: the text and the value are both well-formed UTF-16, so a piece occurs only at code point boundaries.
 */
function literalTest(pattern: string): (s: string) => boolean {
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
    for (const m of middle) {
      const i = s.indexOf(m, at);
      if (i < 0 || i + m.length > end) return false;
      at = i + m.length;
    }
    return true;
  };
}
