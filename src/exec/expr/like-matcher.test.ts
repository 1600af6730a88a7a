import { describe, expect, it } from 'vitest';
import { likeRegex } from '../../functions/like.ts';
import { likeMatcher } from './like-matcher.ts';

describe('likeMatcher', () => {
  it('agrees with the LIKE RegExp on %-only patterns (fixed cases)', () => {
    const cases: [string, string, boolean][] = [
      ['%special%requests%', 'foo special bar requests baz', true],
      ['%special%requests%', 'requests special', false],
      ['%special%requests%', 'specialrequests', true],
      ['%special%requests%', 'special requests', true],
      ['%special%requests%', 'specia requests', false],
      ['PROMO%', 'PROMO BRUSHED', true],
      ['PROMO%', 'promo brushed', false],
      ['%BRASS', 'LARGE BRASS', true],
      ['%BRASS', 'BRASS ', false],
      ['ab%ba', 'aba', false],
      ['ab%ba', 'abba', true],
      ['a%a%a', 'aa', false],
      ['a%a%a', 'aaa', true],
      ['%%', '', true],
      ['', '', true],
      ['', 'x', false],
      ['abc', 'abc', true],
      ['abc', 'abcd', false],
      ['%x%', 'a\nx\nb', true],
      ['%é%', 'café', true],
      ['%😀%', 'a😀b', true],
    ];
    for (const [p, s, want] of cases) {
      expect(likeMatcher(p, false)(s), `${s} LIKE ${p}`).toBe(want);
      expect(likeRegex(p, false).test(s), `regex ${s} LIKE ${p}`).toBe(want);
    }
  });

  it('agrees with the LIKE RegExp on random patterns and strings', () => {
    let seed = 42;
    const rnd = (n: number): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
    const alphabet = ['a', 'b', 'c', '%', '_', 'A'];
    for (let t = 0; t < 3000; t++) {
      const p = Array.from({ length: rnd(7) }, () => alphabet[rnd(alphabet.length)]!).join('');
      const s = Array.from({ length: rnd(8) }, () => alphabet[rnd(3)]!).join('');
      for (const ci of [false, true]) expect(likeMatcher(p, ci)(s), `${s} LIKE ${p} (ci ${ci})`).toBe(likeRegex(p, ci).test(s));
    }
  });

  it('leaves escapes, _ and ILIKE to the RegExp (same answers and errors)', () => {
    expect(likeMatcher('a\\%b', false)('a%b')).toBe(true);
    expect(likeMatcher('a\\%b', false)('axb')).toBe(false);
    expect(likeMatcher('a_c', false)('abc')).toBe(true);
    expect(likeMatcher('%SPECIAL%', true)('a special b')).toBe(true);
    expect(() => likeMatcher('ab\\', false)('abc')).toThrow(/LIKE pattern must not end with escape character/);
  });
});
