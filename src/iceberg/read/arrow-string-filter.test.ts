/**
 * String conjuncts judged on Arrow bytes (arrow-string-filter.ts through compileArrowSelect) against the
 * JS-value row test (parallel/row-filter.ts) on the values arrow-values.ts makes of the same chunk: =, <>, IN
 * (short and hashed lists) and LIKE prefixes, plain and char(n) (`padded`: trailing blanks insignificant),
 * over utf8 and dictionary<utf8> chunks with NULLs, empty strings, blank-padded and unpadded values, non-ASCII
 * UTF-8, a leading BOM and invalid UTF-8; constants the bytes cannot judge are left to the JS test.
 */
import { describe, expect, it } from 'vitest';
import { Dictionary, Int32, makeData, Utf8, vectorFromArray, type Data } from 'apache-arrow';
import type { BoundPredicate } from '../scan/bound-predicate.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { compileRowTest } from '../parallel/row-filter.ts';
import { compileArrowSelect } from './arrow-row-filter.ts';
import { arrowDataToValues } from './arrow-values.ts';

const STRING: PrimitiveType = { kind: 'primitive', name: 'string' };
const WORDS = ['AIR', 'AIR       ', 'AIR REG', 'AIR REG   ', 'air', '', ' ', '   ', 'MAIL', 'RAIL   ', 'Brand#12', 'Brand#12  ',
  'café', 'café    ', 'naïve', '日本語', '日本語  ', '😀x', 'AI', 'A', 'DELIVER IN PERSON', 'DELIVER IN PERSON        ', ' AIR'];
const N = 400;
const word = (k: number): string | null => (k % 11 === 0 ? null : WORDS[(k * 7) % WORDS.length]!);
const plain = vectorFromArray(Array.from({ length: N }, (_v, k) => word(k)), new Utf8()).data[0]!;
const dict = vectorFromArray(Array.from({ length: N }, (_v, k) => word(k)), new Dictionary(new Utf8(), new Int32())).data[0]!;

/** raw utf8 chunk from byte strings (a BOM, invalid sequences) */
function rawUtf8(values: readonly (readonly number[] | null)[]): Data {
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
const enc = (s: string): number[] => [...new TextEncoder().encode(s)];
const BOM = [0xef, 0xbb, 0xbf];
const raw = rawUtf8([enc('AIR'), [...BOM, ...enc('AIR')], [...BOM, ...BOM, ...enc('AIR')], [0xff, 0x41], enc('A\uFFFD'), [0x41, 0xc3], null, [...BOM, ...enc('AIR  ')], enc('')]);

function check(p: BoundPredicate, data: Data, n: number): void {
  const values = arrowDataToValues(data, STRING, 'test');
  const test = compileRowTest(p, new Map([[1, 0]]))!;
  const want = Array.from({ length: n }, (_v, r) => r).filter((r) => test([values], r));
  const select = compileArrowSelect(p, new Map([[1, 0]]));
  expect(select, JSON.stringify(p)).not.toBeNull();
  expect(select!([data], n), JSON.stringify(p)).toEqual({ rows: want, complete: true });
}

const consts = ['AIR', 'AIR REG', 'air', '', 'café', '日本語', '😀x', 'DELIVER IN PERSON', 'nothing', ' AIR', 'A'];

describe('string conjuncts on Arrow bytes', () => {
  for (const [name, data] of [['utf8', plain], ['dictionary', dict]] as const) {
    for (const padded of [false, true]) {
      it(`${name}${padded ? ', char(n)' : ''}: =, <>, IN, LIKE prefix`, () => {
        const pad = padded ? { padded: true as const } : {};
        for (const value of consts) {
          for (const op of ['=', '<>'] as const) check({ kind: 'compare', op, fieldId: 1, type: STRING, value, ...pad }, data, N);
          if (value !== '') check({ kind: 'startsWith', fieldId: 1, type: STRING, prefix: value, ...pad }, data, N);
        }
        check({ kind: 'in', fieldId: 1, type: STRING, values: ['AIR', 'AIR REG'], ...pad }, data, N);
        check({ kind: 'in', fieldId: 1, type: STRING, values: consts, ...pad }, data, N); // > 8: hashed
        check({ kind: 'in', fieldId: 1, type: STRING, values: [...consts, ...WORDS.map((w) => `${w}z`)], ...pad }, data, N);
      });
    }
  }

  it('judges an OR of prefixes on one column in one pass: one- and two-byte prefixes (a flag table), longer, mixed', () => {
    const or = (prefixes: readonly string[], pad: { padded?: true }): BoundPredicate =>
      ({ kind: 'or', args: prefixes.map((prefix) => ({ kind: 'startsWith', fieldId: 1, type: STRING, prefix, ...pad })) });
    const sets = [['AI', 'MA', 'Br', 'na'], ['A', 'M', ' '], ['AIR ', 'DELIVER', 'caf'], ['A', 'Br', 'AIR R', '日', 'é', '😀'], ['AI', 'AI'], ['\uFEFFA', 'A ']];
    for (const padded of [false, true]) {
      const pad = padded ? { padded: true as const } : {};
      for (const prefixes of sets) {
        for (const [data, n] of [[plain, N], [dict, N], [raw, 9]] as const) check(or(prefixes, pad), data, n);
      }
    }
    // arms on two columns, or a prefix the bytes cannot judge: not one leaf (the arms are judged one by one, or not at all)
    const two: BoundPredicate = { kind: 'or', args: [{ kind: 'startsWith', fieldId: 1, type: STRING, prefix: 'A' }, { kind: 'startsWith', fieldId: 2, type: STRING, prefix: 'B' }] };
    expect(compileArrowSelect(two, new Map([[1, 0], [2, 1]]))!([plain, dict], N)?.rows).toEqual(
      Array.from({ length: N }, (_v, r) => r).filter((r) => /^A/.test(word(r) ?? '') || /^B/.test(word(r) ?? '')));
    expect(compileArrowSelect(or(['A', 'B\uFFFD'], {}), new Map([[1, 0]]))).toBeNull();
  });

  it('agrees with the decoded strings on a BOM, invalid UTF-8 and empty values', () => {
    for (const padded of [false, true]) {
      const pad = padded ? { padded: true as const } : {};
      for (const value of ['AIR', '\uFEFFAIR', '', 'A']) {
        for (const op of ['=', '<>'] as const) check({ kind: 'compare', op, fieldId: 1, type: STRING, value, ...pad }, raw, 9);
        if (value !== '') check({ kind: 'startsWith', fieldId: 1, type: STRING, prefix: value, ...pad }, raw, 9);
      }
      check({ kind: 'in', fieldId: 1, type: STRING, values: ['AIR', ''], ...pad }, raw, 9);
    }
  });

  it('leaves U+FFFD and lone surrogates to the JS test', () => {
    for (const value of ['A\uFFFD', '\uD800', 'x\uDC00']) {
      expect(compileArrowSelect({ kind: 'compare', op: '=', fieldId: 1, type: STRING, value }, new Map([[1, 0]]))).toBeNull();
      expect(compileArrowSelect({ kind: 'in', fieldId: 1, type: STRING, values: ['AIR', value] }, new Map([[1, 0]]))).toBeNull();
    }
    // a surrogate pair is fine
    check({ kind: 'compare', op: '=', fieldId: 1, type: STRING, value: '😀x' }, plain, N);
  });

  it('does not judge non-string chunks or string order', () => {
    const ints = vectorFromArray([1, 2, 3], new Int32()).data[0]!;
    const p: BoundPredicate = { kind: 'compare', op: '=', fieldId: 1, type: STRING, value: 'AIR' };
    expect(compileArrowSelect(p, new Map([[1, 0]]))!([ints], 3)).toBeNull();
    expect(compileArrowSelect({ kind: 'compare', op: '<', fieldId: 1, type: STRING, value: 'AIR' }, new Map([[1, 0]]))).toBeNull();
  });
});
