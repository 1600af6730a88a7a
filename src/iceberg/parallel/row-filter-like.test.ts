/**
 * compileRowTest on a pushed LIKE / NOT LIKE (`startsWith` carrying its whole pattern): the row filter of a scan
 * that decodes without Arrow data judges the pattern, not only its literal prefix ('' for NOT LIKE and for
 * patterns starting with `%`), and keeps no NULL; a pattern it cannot judge falls back to the prefix.
 */
import { describe, expect, it } from 'vitest';
import type { BoundPredicate } from '../scan/bound-predicate.ts';
import { compileRowTest } from './row-filter.ts';

const str = { kind: 'primitive', name: 'string' } as const;

const rowsKept = (p: BoundPredicate, col: readonly unknown[]): number[] => {
  const test = compileRowTest(p, new Map([[1, 0]]))!;
  return col.flatMap((_v, r) => (test([col], r) ? [r] : []));
};

const COMMENTS = ['special requests', 'no special here', null, 'carefully special deposits requests', 'requests special', 'x'];

describe('compileRowTest LIKE', () => {
  it('judges the whole pattern of a pushed LIKE', () => {
    const p: BoundPredicate = { kind: 'startsWith', fieldId: 1, type: str, prefix: '', like: { pattern: '%special%requests%', negated: false } };
    expect(rowsKept(p, COMMENTS)).toEqual([0, 3]);
    // the prefix alone: every row but the NULL
    expect(rowsKept({ kind: 'startsWith', fieldId: 1, type: str, prefix: '' }, COMMENTS)).toEqual([0, 1, 3, 4, 5]);
  });

  it('NOT LIKE keeps the rows that do not match, and no NULL', () => {
    const p: BoundPredicate = { kind: 'startsWith', fieldId: 1, type: str, prefix: '', like: { pattern: '%special%requests%', negated: true } };
    expect(rowsKept(p, COMMENTS)).toEqual([1, 4, 5]);
  });

  it('`_` is one character; escapes are text', () => {
    const p = (pattern: string): BoundPredicate => ({ kind: 'startsWith', fieldId: 1, type: str, prefix: 'a', like: { pattern, negated: false } });
    expect(rowsKept(p('a_c'), ['abc', 'a日c', 'a😀c', 'ac', 'abbc', null])).toEqual([0, 1, 2]);
    expect(rowsKept(p('a\\%%'), ['a%b', 'ab', 'a%'])).toEqual([0, 2]);
  });

  it('keeps to the prefix when the pattern ends in the escape (the Filter raises 22025)', () => {
    const p: BoundPredicate = { kind: 'startsWith', fieldId: 1, type: str, prefix: 'ab', like: { pattern: 'ab\\', negated: false } };
    expect(rowsKept(p, ['ab', 'abc', 'xab', null])).toEqual([0, 1]);
  });
});
