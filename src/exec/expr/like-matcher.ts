/**
 * likeMatcher: a LIKE pattern compiled once for a vector kernel (vector-operator.ts likeConst). A case-sensitive
 * pattern made of literal text and `%` only — TPC-H's `%special%requests%`, `%green%`, `PROMO%` — is matched
 * with startsWith / indexOf / endsWith instead of a backtracking RegExp; anything else (`_`, escapes, ILIKE)
 * (and a pattern with surrogate pairs) uses functions/like.ts's RegExp, so the answers and errors are LIKE's.
 * @see https://www.postgresql.org/docs/15/functions-matching.html#FUNCTIONS-LIKE
 */
import { literalLikeTest } from '../../common/like-pattern.ts';
import { likeRegex } from '../../functions/like.ts';

export type LikeMatcher = (s: string) => boolean;

export function likeMatcher(pattern: string, caseInsensitive: boolean): LikeMatcher {
  if (pattern === '%') return () => true;
  // surrogates: the RegExp matches code points ('u'), indexOf code units; the RegExp decides
  if (caseInsensitive || pattern.includes('_') || pattern.includes('\\') || /[\uD800-\uDFFF]/.test(pattern)) {
    const re = likeRegex(pattern, caseInsensitive);
    return (s) => re.test(s);
  }
  return literalLikeTest(pattern);
}
