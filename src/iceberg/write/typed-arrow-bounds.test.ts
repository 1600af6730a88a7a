/**
 * The bounds typedArrowData computes from the buffers (safe-integer loop for longs and decimals, first-byte
 * skip for strings) equal the ones arrowColumn computes from the JS values of the same rows, over seeded
 * random columns: skewed and equal first bytes, empty strings, multi-byte characters, NULLs, negative
 * values, values beyond 2^53 mixed in or not.
 */
import { describe, expect, it } from 'vitest';
import { ColumnMetrics } from './column-metrics.ts';
import { arrowColumn } from './arrow-column.ts';
import { typedArrowData } from './typed-arrow-data.ts';
import { DecimalBuilder, Int64Builder, Utf8Builder } from './typed-column-builders.ts';
import { materializeColumn, type TypedColumn } from './typed-columns.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { mulberry32 } from '../../common/prng.ts';

const rng = mulberry32;

const enc = new TextEncoder();

/** 0–4 letters of a small alphabet: many values share first bytes with the bounds */
function word(r: () => number, letters: string): string {
  let w = '';
  for (let k = Math.floor(r() * 5); k > 0; k--) w += letters[Math.floor(r() * letters.length)];
  return w;
}

function same(col: TypedColumn, t: PrimitiveType): void {
  const typed = new ColumnMetrics(1, t);
  const plain = new ColumnMetrics(1, t);
  expect(typedArrowData(col, t, typed)).not.toBeNull();
  arrowColumn(materializeColumn(col), col.length, t, plain);
  expect([typed.valueCount, typed.nullCount, typed.lowerBound(), typed.upperBound()]).toEqual([plain.valueCount, plain.nullCount, plain.lowerBound(), plain.upperBound()]);
}

describe('typedArrowData bounds = arrowColumn bounds', () => {
  for (let seed = 1; seed <= 40; seed++) {
    it(`seed ${seed}`, () => {
      const r = rng(seed);
      const n = 1 + Math.floor(r() * 300);
      const nulls = r() < 0.3;
      const wide = r() < 0.3;
      const allNull = r() < 0.05;
      const l = new Int64Builder(n);
      const d = new DecimalBuilder(n, 38, 2);
      const s = new Utf8Builder(n);
      const alphabet = ['', 'a', 'b', 'ab', 'ba', 'z', 'zz', 'é', 'éa', '\u{1F600}', 'A', '0', 'DELIVER IN PERSON', 'DELIVER IN PERSOM'];
      for (let i = 0; i < n; i++) {
        if (allNull || (nulls && r() < 0.2)) {
          l.appendNull(); d.appendNull(); s.appendNull();
          continue;
        }
        const x = Math.floor((r() - 0.5) * 2 ** 40);
        if (wide && r() < 0.1) l.value(BigInt(x) * 2n ** 20n); else l.appendNumber(x);
        if (wide && r() < 0.1) d.value(Numeric.of(BigInt(x) * 10n ** 20n, 2)); else d.appendUnscaled(x);
        const str = r() < 0.5 ? alphabet[Math.floor(r() * alphabet.length)]! : word(r, seed % 2 === 0 ? 'abc' : 'a\u00e9 ');
        const b = enc.encode(str);
        s.appendBytes(b, 0, b.length);
      }
      same(l.finish(), { kind: 'primitive', name: 'long' });
      same(d.finish(), { kind: 'primitive', name: 'decimal', precision: 38, scale: 2 });
      same(s.finish(), { kind: 'primitive', name: 'string' });
    });
  }
});
