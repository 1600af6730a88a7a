/**
 * likeStringTest (the pushed LIKE judged on decoded strings, parallel/row-filter.ts) against the Filter's LIKE
 * (functions/like.ts): `%`, `_` over 1–4-byte characters, escapes, '' and '%%', anchored ends, overlapping
 * pieces, RegExp metacharacters as text.
 */
import { describe, expect, it } from 'vitest';
import { like } from '../../functions/like.ts';
import { likeStringTest } from './like-string-test.ts';

const VALUES = ['', 'a', 'ab', 'abc', 'aXc', 'special requests', 'no special here', 'specialrequests', 'requests special',
  'carefully special deposits requests sleep', 'é', 'aéc', 'a日c', 'a😀c', 'ac', '日本語', 'x%y', 'x_y', 'x\\y', 'xy',
  'aaab', 'abab', 'ababab', 'PROMO BRUSHED', 'PROMO', 'forest green', 'green', '  ', 'ab  ', '%', '_', 'a.c', 'a\nc',
  '(x)', 'a*c', '😀😀', '\uFEFFspecial'];

const PATTERNS = ['%', '%%', '', 'a', 'abc', 'a%', '%c', 'a%c', '%special%requests%', '%special%', 'special%requests',
  '_', '__', 'a_c', '_b%', '%_', 'a__c', '日%', '%語', '_本_', 'x\\%y', 'x\\_y', 'x\\\\y', 'x\\y', '%\\%', '\\_',
  '%ab%ab%', 'ab%ab', '%\uFEFFspecial%', '%l r%', '%spec%ial%', '%aab', 'PROMO%', '%green%', 'ab%%', '%%c', 'a%%%c',
  '_%_', '%a_%', 'a.c', '%*%', '(x)', 'a_c%', '😀_', '_😀', '__', 'a\\.c', '%$', '^a%'];

describe('likeStringTest', () => {
  it('answers as LIKE on every value', () => {
    for (const p of PATTERNS) {
      const t = likeStringTest(p);
      expect(t, p).not.toBeNull();
      for (const v of VALUES) expect(t!(v), `'${v}' LIKE '${p}'`).toBe(like(v, p));
    }
  });

  it('leaves a pattern ending in the escape to the Filter (LIKE raises 22025 there)', () => {
    expect(likeStringTest('ab\\')).toBeNull();
    expect(likeStringTest('%\\')).toBeNull();
    expect(() => like('abc', 'ab\\')).toThrow();
  });
});
