/**
 * likeMatcher: a LIKE pattern compiled once for a vector kernel (vector-operator.ts likeConst). A case-sensitive
 * pattern made of literal text and `%` only — TPC-H's `%special%requests%`, `%green%`, `PROMO%` — is matched
 * with startsWith / indexOf / endsWith instead of a backtracking RegExp; anything else (`_`, escapes, ILIKE)
 * (and a pattern with surrogate pairs) uses functions/like.ts's RegExp, so the answers and errors are LIKE's.
 * @see https://www.postgresql.org/docs/15/functions-matching.html#FUNCTIONS-LIKE
 */
import { likeRegex } from '../../functions/like.ts';

export type LikeMatcher = (s: string) => boolean;

export function likeMatcher(pattern: string, caseInsensitive: boolean): LikeMatcher {
  if (pattern === '%') return () => true;
  // surrogates: the RegExp matches code points ('u'), indexOf code units; the RegExp decides
  if (caseInsensitive || pattern.includes('_') || pattern.includes('\\') || /[\uD800-\uDFFF]/.test(pattern)) {
    const re = likeRegex(pattern, caseInsensitive);
    return (s) => re.test(s);
  }
  const segs = pattern.split('%');
  if (segs.length === 1) return (s) => s === pattern;
  const first = segs[0]!;
  const last = segs[segs.length - 1]!;
  const middle = segs.slice(1, -1).filter((x) => x.length > 0);
  const fixed = first.length + last.length;
  return (s) => {
    if (s.length < fixed || !s.startsWith(first) || !s.endsWith(last)) return false;
    // each middle piece at its leftmost place after the previous one: if any placement fits, that one does
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
