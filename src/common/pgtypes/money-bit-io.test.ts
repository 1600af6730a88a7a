import { describe, expect, it } from 'vitest';
import { binaryIn, binaryOut } from './binary-io.ts';
import { Oid } from './oids.ts';
import { textIn, textOut } from './text-io.ts';

// expectations from PostgreSQL 15 (lc_monetary C): SELECT '…'::money, '…'::bit(n), money_send / bit_send bytes
describe('money', () => {
  it("reads and prints as cash_in / cash_out under lc_monetary C", () => {
    const money = (t: string): string => textOut(Oid.money, textIn(Oid.money, -1, t));
    expect(money('$1.50')).toBe('$1.50');
    expect(money('-1234567.891')).toBe('-$1,234,567.89');
    expect(money('(12.345)')).toBe('-$12.35');
    expect(money('  $ 1,000 ')).toBe('$1,000.00');
    expect(money('7-')).toBe('-$7.00');
    expect(money('')).toBe('$0.00');
    expect(money('0.004')).toBe('$0.00');
    expect(money('0.005')).toBe('$0.01');
    expect(money('92233720368547758.07')).toBe('$92,233,720,368,547,758.07');
    expect(money('-92233720368547758.08')).toBe('-$92,233,720,368,547,758.08');
    expect(() => textIn(Oid.money, -1, '92233720368547758.08')).toThrowError(expect.objectContaining({ code: '22003', message: 'value "92233720368547758.08" is out of range for type money' }));
    expect(() => textIn(Oid.money, -1, '1.5.')).toThrowError(expect.objectContaining({ code: '22P02', message: 'invalid input syntax for type money: "1.5."' }));
  });

  it('is an int8 of cents in binary', () => {
    expect([...binaryOut(Oid.money, 150n)]).toEqual([0, 0, 0, 0, 0, 0, 0, 150]);
    expect(binaryIn(Oid.money, Uint8Array.of(255, 255, 255, 255, 255, 255, 255, 206))).toBe(-50n);
  });
});

describe('bit / varbit', () => {
  it('reads binary and hex digits with the length checks of an assignment', () => {
    expect(textIn(Oid.bit, 3, '101')).toBe('101');
    expect(textIn(Oid.varbit, -1, 'x1F')).toBe('00011111');
    expect(textIn(Oid.varbit, 8, 'B101')).toBe('101');
    expect(() => textIn(Oid.bit, 3, '1011')).toThrowError(expect.objectContaining({ code: '22026', message: 'bit string length 4 does not match type bit(3)' }));
    expect(() => textIn(Oid.varbit, 2, '101')).toThrowError(expect.objectContaining({ code: '22001', message: 'bit string too long for type bit varying(2)' }));
    expect(() => textIn(Oid.bit, -1, '12')).toThrowError(expect.objectContaining({ code: '22P02', message: '"2" is not a valid binary digit' }));
    expect(() => textIn(Oid.varbit, -1, 'xG')).toThrowError(expect.objectContaining({ code: '22P02', message: '"G" is not a valid hexadecimal digit' }));
  });

  it('sends the bit count and the bits, high-order bit first (bit_send)', () => {
    expect([...binaryOut(Oid.bit, '101')]).toEqual([0, 0, 0, 3, 0xa0]);
    expect([...binaryOut(Oid.varbit, '111111111')]).toEqual([0, 0, 0, 9, 0xff, 0x80]);
    expect([...binaryOut(Oid.varbit, '')]).toEqual([0, 0, 0, 0]);
    expect(binaryIn(Oid.varbit, Uint8Array.of(0, 0, 0, 9, 0xff, 0x80))).toBe('111111111');
    expect(() => binaryIn(Oid.bit, Uint8Array.of(0, 0, 0, 9, 0xff))).toThrowError(expect.objectContaining({ code: '22P03' }));
  });
});
