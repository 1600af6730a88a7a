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
import { likeRegexSource, literalLikeTest } from '../../common/like-pattern.ts';

/** whether string `s` matches `pattern`; null when the pattern cannot be judged here (it ends in the escape) */
export function likeStringTest(pattern: string): ((s: string) => boolean) | null {
  if (pattern === '%') return () => true;
  // literal text and `%`: code units compare as code points here, since the text and the value are both
  // well-formed UTF-16, so a piece occurs only at code point boundaries
  if (!pattern.includes('_') && !pattern.includes('\\')) return literalLikeTest(pattern);
  const { src, danglingEscape } = likeRegexSource(pattern);
  if (danglingEscape) return null;
  const re = new RegExp(src + '$', 'u');
  return (s) => re.test(s);
}
