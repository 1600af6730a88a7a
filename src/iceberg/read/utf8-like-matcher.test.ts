/**
 * LIKE / NOT LIKE judged on UTF-8 bytes (utf8-like-matcher.ts), alone and as the Arrow leaf of a pushed
 * `startsWith` with its whole pattern (arrow-string-filter.ts through compileArrowSelect), against the JS-value
 * LIKE (functions/like.ts) on the strings the scan would make of the same bytes: `%`, `_` over 1–4-byte
 * characters, escapes, '' and '%%', anchored ends, overlapping pieces, NULLs, a BOM, invalid UTF-8, plain and
 * dictionary chunks; one compiled matcher per pattern and negation.
 */
import { describe, expect, it } from 'vitest';
import { Dictionary, Int32, makeData, Utf8, vectorFromArray, type Data } from 'apache-arrow';
import { like } from '../../functions/like.ts';
import type { BoundPredicate } from '../scan/bound-predicate.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { compileArrowSelect } from './arrow-row-filter.ts';
import { arrowDataToValues } from './arrow-values.ts';
import { MAX_COMPILED_PATTERNS, utf8LikeMatcher } from './utf8-like-matcher.ts';

const STRING: PrimitiveType = { kind: 'primitive', name: 'string' };
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

const VALUES = ['', 'a', 'ab', 'abc', 'aXc', 'special requests', 'no special here', 'specialrequests', 'requests special',
  'carefully special deposits requests sleep', 'é', 'aéc', 'a日c', 'a😀c', 'ac', '日本語', 'x%y', 'x_y', 'x\\y', 'xy',
  'aaab', 'abab', 'ababab', 'PROMO BRUSHED', 'PROMO', 'forest green', 'green', '  ', 'ab  ', '%', '_'];

const PATTERNS = ['%', '%%', '', 'a', 'abc', 'a%', '%c', 'a%c', '%special%requests%', '%special%', 'special%requests',
  '_', '__', 'a_c', '_b%', '%_', 'a__c', '日%', '%語', '_本_', 'x\\%y', 'x\\_y', 'x\\\\y', 'x\\y', '%\\%', '\\_',
  '%ab%ab%', 'ab%ab', '%\uFEFFspecial%', '%l r%', '%spec%ial%', '%aab', 'PROMO%', '%green%', 'ab%%', '%%c', 'a%%%c', '_%_', '%a_%'];

describe('utf8LikeMatcher', () => {
  it('answers as LIKE on the decoded string, for LIKE and NOT LIKE', () => {
    for (const p of PATTERNS) {
      const m = utf8LikeMatcher(p, false)!;
      const n = utf8LikeMatcher(p, true)!;
      expect(m, p).not.toBeNull();
      for (const v of VALUES) {
        const bytes = enc(`..${v}..`);
        const want = like(v, p);
        expect(m(bytes, 2, bytes.length - 2), `'${v}' LIKE '${p}'`).toBe(want);
        expect(n(bytes, 2, bytes.length - 2), `'${v}' NOT LIKE '${p}'`).toBe(!want);
      }
    }
  });

  it('counts `_` as one character over invalid UTF-8 as the decoder does', () => {
    const bad = [[0xff], [0x41, 0xc3], [0xe2, 0x82, 0x41], [0x80, 0x80], [0xf0, 0x9f, 0x98]];
    for (const b of bad) {
      const s = new TextDecoder().decode(new Uint8Array(b));
      for (const p of ['_', '__', '___', '%A', '_A', 'A_', '%_%']) {
        expect(utf8LikeMatcher(p, false)!(new Uint8Array(b), 0, b.length), `${JSON.stringify(b)} LIKE '${p}'`).toBe(like(s, p));
      }
    }
  });

  it('compiles a pattern once per negation: every scan task asks again (q13: 80 files a run)', () => {
    const m = utf8LikeMatcher('%special%requests%', true);
    expect(utf8LikeMatcher('%special%requests%', true)).toBe(m);
    expect(utf8LikeMatcher('%special%requests%', false)).not.toBe(m);
    expect(utf8LikeMatcher('%special%requests%', false)).toBe(utf8LikeMatcher('%special%requests%', false));
    // past the memo's size it starts over, and the answers stay the same
    for (let k = 0; k <= MAX_COMPILED_PATTERNS; k++) utf8LikeMatcher(`%p${k}%`, false);
    const again = utf8LikeMatcher('%special%requests%', true)!;
    const bytes = enc('..no special requests here..');
    expect(again(bytes, 2, bytes.length - 2)).toBe(false);
    expect(again(bytes, 2, 10)).toBe(true); // 'no speci'
  });

  it('leaves to the Filter patterns ending in the escape and constants bytes cannot judge', () => {
    expect(utf8LikeMatcher('ab\\', false)).toBeNull();
    expect(utf8LikeMatcher('%\uFFFD%', false)).toBeNull();
    expect(utf8LikeMatcher('%\uD800%', true)).toBeNull();
  });
});

/** raw utf8 chunk from byte strings (a BOM, invalid sequences) */
function rawUtf8(values: readonly (Uint8Array | null)[]): Data {
  const offsets = new Int32Array(values.length + 1);
  const bytes: number[] = [];
  const valid = new Uint8Array(Math.ceil(values.length / 8));
  values.forEach((v, i) => {
    if (v !== null) { bytes.push(...v); valid[i >> 3]! |= 1 << (i & 7); }
    offsets[i + 1] = bytes.length;
  });
  const nulls = values.filter((v) => v === null).length;
  return makeData({ type: new Utf8(), length: values.length, nullCount: nulls, nullBitmap: valid, valueOffsets: offsets, data: new Uint8Array(bytes) });
}

describe('a pushed whole LIKE pattern in the Arrow pass', () => {
  const N = 300;
  const word = (k: number): string | null => (k % 13 === 0 ? null : VALUES[(k * 7) % VALUES.length]!);
  const words = Array.from({ length: N }, (_v, k) => word(k));
  const chunks: Record<string, Data> = {
    plain: vectorFromArray(words, new Utf8()).data[0]!,
    dictionary: vectorFromArray(words, new Dictionary(new Utf8(), new Int32())).data[0]!,
    // pieces across row boundaries (the chunk-wide search: a hit that starts in one row and ends in the next)
    boundaries: rawUtf8(['a spec', 'ial requests', 'special', 'requests', 'no', 'special requests', '\uFEFFspecial requests', null, 'abab', 'ab', 'ab', 'specialrequests', 'xx'].map((v) => (v === null ? null : enc(v)))),
    raw: rawUtf8([enc('abc'), new Uint8Array([0xef, 0xbb, 0xbf, ...enc('abc')]), new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x61]), new Uint8Array([0xff, 0x61]), null, enc('')]),
  };

  for (const [name, data] of Object.entries(chunks)) {
    it(`keeps exactly the rows LIKE / NOT LIKE is TRUE for (${name}, NULL never)`, () => {
      const values = arrowDataToValues(data, STRING, 'test');
      for (const pattern of PATTERNS) {
        for (const negated of [false, true]) {
          const p: BoundPredicate = { kind: 'startsWith', fieldId: 1, type: STRING, prefix: '', like: { pattern, negated } };
          const want = values.flatMap((v, r) => (typeof v === 'string' && like(v, pattern) !== negated ? [r] : []));
          const select = compileArrowSelect(p, new Map([[1, 0]]))!;
          expect(select([data], data.length), `${negated ? 'NOT ' : ''}LIKE '${pattern}'`).toEqual({ rows: want, complete: true });
        }
      }
    });
  }

  it('is not judged (the Filter decides) when bytes cannot judge the pattern', () => {
    const p: BoundPredicate = { kind: 'startsWith', fieldId: 1, type: STRING, prefix: 'ab', like: { pattern: 'ab\\', negated: false } };
    expect(compileArrowSelect(p, new Map([[1, 0]]))).toBeNull();
  });
});
