/** bit-math.ts and money-math.ts against PostgreSQL 15.18's answers (psql, lc_monetary C). */
import { describe, expect, it } from 'vitest';
import {
  bitBitwise, bitFromInt, bitLengthCoerce, bitOverlay, bitPosition, bitShiftLeft, bitShiftRight, bitSubstring, bitToInt,
  varbitLengthCoerce,
} from './bit-math.ts';
import { cashDivFloat, cashDivInt, cashMulFloat, cashWords, intToCash, numericToCash } from './money-math.ts';
import { Numeric } from './numeric.ts';

describe('bit-math', () => {
  it('pads or truncates bit(n) only when explicit; varbit(n) truncates only when explicit', () => {
    expect(bitLengthCoerce('1011', 3, true)).toBe('101');
    expect(bitLengthCoerce('1', 3, true)).toBe('100');
    expect(() => bitLengthCoerce('1011', 3, false)).toThrow(expect.objectContaining({ code: '22026', message: 'bit string length 4 does not match type bit(3)' }));
    expect(varbitLengthCoerce('101', 2, true)).toBe('10');
    expect(varbitLengthCoerce('1', 2, false)).toBe('1');
    expect(() => varbitLengthCoerce('101', 2, false)).toThrow(expect.objectContaining({ code: '22001' }));
  });

  it('shifts, bitwise operators, substring, overlay, position', () => {
    expect([bitShiftLeft('101', -1), bitShiftRight('101', -1), bitShiftLeft('101', 5), bitShiftRight('101', 3), bitShiftLeft('10110', 2)])
      .toEqual(['010', '010', '000', '000', '11000']);
    expect([bitBitwise('&', '101', '011'), bitBitwise('|', '101', '011'), bitBitwise('#', '101', '011')]).toEqual(['001', '111', '110']);
    expect(() => bitBitwise('#', '101', '11')).toThrow(expect.objectContaining({ code: '22026', message: 'cannot XOR bit strings of different sizes' }));
    expect([bitSubstring('10110', 2), bitSubstring('10110', 0, 2), bitSubstring('10110', -1, 10), bitSubstring('10110', 7)]).toEqual(['0110', '1', '10110', '']);
    expect(() => bitSubstring('101', 1, -1)).toThrow(expect.objectContaining({ code: '22011' }));
    expect([bitOverlay('10110', '000', 4), bitOverlay('10110', '0', 2, 0), bitOverlay('1111', '00', 2, 2)]).toEqual(['101000', '100110', '1001']);
    expect([bitPosition('101', ''), bitPosition('', '1'), bitPosition('11', '111'), bitPosition('0011', '11')]).toEqual([1, 0, 0, 3]);
  });

  it('converts integers as bitfromint4 / bitfromint8 / bittoint4 do', () => {
    expect([bitFromInt(5, 32, 8), bitFromInt(300, 32, 4), bitFromInt(-1, 32, 10), bitFromInt(5, 32, -1)]).toEqual(['00000101', '1100', '1111111111', '1']);
    expect(bitFromInt(-5, 32, 40)).toBe('1111111111111111111111111111111111111011');
    expect(bitFromInt(-5n, 64, 70)).toBe('1'.repeat(67) + '011');
    expect([bitToInt('1011', 32), bitToInt('1'.repeat(32), 32), bitToInt('', 32), bitToInt('1'.repeat(64), 64)]).toEqual([11, -1, 0, -1n]);
    expect(() => bitToInt('1'.repeat(33), 32)).toThrow(expect.objectContaining({ code: '22003', message: 'integer out of range' }));
  });
});

describe('money-math', () => {
  it('multiplies and divides as cash.c (rint for floats, truncation for integers)', () => {
    expect([cashMulFloat(3n, 0.5), cashMulFloat(5n, 0.5), cashDivFloat(1234n, 2.5), cashDivInt(-1235n, 2)]).toEqual([2n, 2n, 494n, -617n]);
    expect(() => cashMulFloat(9223372036854775807n, 2)).toThrow(expect.objectContaining({ code: '22003', message: 'money out of range' }));
    expect(() => cashMulFloat(1234n, Number.NaN)).toThrow(expect.objectContaining({ code: '22003' }));
    expect(() => cashDivInt(1n, 0n)).toThrow(expect.objectContaining({ code: '22012' }));
    expect(() => cashDivInt(-(2n ** 63n), -1)).toThrow(expect.objectContaining({ code: '22P01' }));
  });

  it('converts numeric and integers (numeric_int8 rounding, int8mul overflow)', () => {
    expect([numericToCash(Numeric.parse('12.355')), numericToCash(Numeric.parse('-12.345')), intToCash(5), intToCash(92233720368547758n)])
      .toEqual([1236n, -1235n, 500n, 9223372036854775800n]);
    expect(() => intToCash(92233720368547759n)).toThrow(expect.objectContaining({ code: '22003', message: 'bigint out of range' }));
  });

  it('spells amounts as cash_words, spacing quirks included', () => {
    expect(cashWords(123456n)).toBe('One thousand two hundred thirty four dollars and fifty six cents');
    expect(cashWords(100000000n)).toBe('One million  dollars and zero cents');
    expect([cashWords(0n), cashWords(-101n), cashWords(11210n), cashWords(12021n)]).toEqual([
      'Zero dollars and zero cents', 'Minus one dollar and one cent', 'One hundred and twelve dollars and ten cents',
      'One hundred twenty dollars and twenty one cents',
    ]);
    expect(cashWords(-(2n ** 63n))).toMatch(/^Minus ninety two quadrillion .* fifty eight dollars and eight cents$/);
  });
});
