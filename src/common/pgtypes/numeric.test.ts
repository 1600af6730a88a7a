import { describe, expect, it } from 'vitest';
import { Numeric } from './numeric.ts';
import { numericExp, numericLn, numericLog, numericPower, numericSqrt } from './numeric-math.ts';
import { numericFromBinary, numericToBinary } from './numeric-binary.ts';
import { GatewayError } from '../errors.ts';

const N = (s: string) => Numeric.parse(s);

function code(f: () => unknown): string | undefined {
  try { f(); } catch (e) { return GatewayError.is(e) ? e.code : 'not-gateway'; }
  return undefined;
}

describe('Numeric text (verified on PostgreSQL 15.18)', () => {
  it.each([
    ['1e20', '100000000000000000000'], ['1.5e-7', '0.00000015'], ['  12.340  ', '12.340'], ['inf', 'Infinity'],
    ['-0.00', '0.00'], ['NaN', 'NaN'], ['-Infinity', '-Infinity'], ['.5', '0.5'], ['5.', '5'], ['+1.10', '1.10'],
    ['1.5E+2', '150'], ['0012', '12'], ['1.23e1', '12.3'],
  ])('%s → %s', (i, o) => expect(N(i).toString()).toBe(o));

  it.each(['', ' ', 'abc', '1.2.3', '1e', '--1', '-NaN', '1 2', 'e5', '.'])('rejects %j with 22P02', (s) => {
    expect(code(() => N(s))).toBe('22P02');
    try { N(s); } catch (e) { expect((e as Error).message).toBe(`invalid input syntax for type numeric: "${s}"`); }
  });
});

describe('Numeric arithmetic (verified on PostgreSQL 15.18)', () => {
  it.each([
    ['1', '3', '0.33333333333333333333'], ['10', '4', '2.5000000000000000'], ['1.00', '3', '0.33333333333333333333'],
    ['2', '3.0', '0.66666666666666666667'], ['100000', '3', '33333.333333333333'], ['0.0001', '3', '0.000033333333333333333333'],
    ['1', '0.00003', '33333.333333333333'], ['-7.5', '2', '-3.7500000000000000'], ['0', '7', '0.00000000000000000000'],
  ])('%s / %s = %s', (a, b, r) => expect(N(a).div(N(b)).toString()).toBe(r));

  it('add/sub/mul/mod scales', () => {
    expect(N('1.5').mul(N('1.50')).toString()).toBe('2.250');
    expect(N('5.5').mod(N('2')).toString()).toBe('1.5');
    expect(N('-5.5').mod(N('2')).toString()).toBe('-1.5');
    expect(N('1.1').add(N('2.25')).toString()).toBe('3.35');
    expect(N('1.10').sub(N('1.1')).toString()).toBe('0.00');
    expect(N('Infinity').add(N('-Infinity')).toString()).toBe('NaN');
    expect(N('Infinity').mul(N('0')).toString()).toBe('NaN');
    expect(N('1').div(N('Infinity')).toString()).toBe('0');
  });

  it('rounding and friends', () => {
    expect(N('2.5').round().toString()).toBe('3');
    expect(N('-2.5').round().toString()).toBe('-3');
    expect(N('1234.5678').round(-2).toString()).toBe('1200');
    expect(N('1234.5678').round(2).toString()).toBe('1234.57');
    expect(N('-1.99').trunc(1).toString()).toBe('-1.9');
    expect(N('-1.5').ceil().toString()).toBe('-1');
    expect(N('-1.5').floor().toString()).toBe('-2');
    expect(N('1.5').ceil().toString()).toBe('2');
    expect(N('-2.5').sign().toString()).toBe('-1');
    expect(N('1.2').round(4).toString()).toBe('1.2000');
  });

  it('compare: NaN above Infinity, equal to itself', () => {
    expect(N('NaN').compare(N('Infinity'))).toBeGreaterThan(0);
    expect(N('NaN').equals(N('NaN'))).toBe(true);
    expect(N('1.0').equals(N('1.00'))).toBe(true);
    expect(N('-Infinity').compare(N('-1e100'))).toBeLessThan(0);
  });

  it('division by zero is 22012', () => {
    expect(code(() => N('1').div(N('0')))).toBe('22012');
    expect(code(() => N('1').mod(N('0.0')))).toBe('22012');
  });

  it('toBigInt / toNumber', () => {
    expect(N('2.5').toBigInt()).toBe(3n);
    expect(code(() => N('9223372036854775808').toBigInt())).toBe('22003');
    expect(N('0.1').toNumber()).toBe(0.1);
  });

  it('applyTypmod', () => {
    expect(N('123.456').applyTypmod(5, 2).toString()).toBe('123.46');
    expect(N('1').applyTypmod(5, 2).toString()).toBe('1.00');
    try { N('1000').applyTypmod(5, 2); expect.fail(); } catch (e) {
      expect((e as GatewayError).code).toBe('22003');
      expect((e as GatewayError).message).toBe('numeric field overflow');
      expect((e as GatewayError).detail).toBe('A field with precision 5, scale 2 must round to an absolute value less than 10^3.');
    }
    try { N('1').applyTypmod(2, 2); expect.fail(); } catch (e) {
      expect((e as GatewayError).detail).toBe('A field with precision 2, scale 2 must round to an absolute value less than 1.');
    }
    expect(N('1234').applyTypmod(4, -2).toString()).toBe('1200');
    expect(N('NaN').applyTypmod(4, 2).toString()).toBe('NaN');
    expect(N('123.456').applyAttTypmod(((5 << 16) | 2) + 4).toString()).toBe('123.46');
  });
});

describe('Numeric transcendental (verified on PostgreSQL 15.18)', () => {
  it.each([
    [() => numericSqrt(N('2')), '1.414213562373095'], [() => numericSqrt(N('100')), '10.000000000000000'],
    [() => numericSqrt(N('0.0001')), '0.01000000000000000'], [() => numericSqrt(N('1e-10')), '0.000010000000000000000'],
    [() => numericSqrt(N('12345678.9')), '3513.6418286444622'],
    [() => numericExp(N('1')), '2.7182818284590452'], [() => numericExp(N('10')), '22026.465794806717'],
    [() => numericExp(N('0.5')), '1.6487212707001281'], [() => numericExp(N('-10')), '0.00004539992976248485'],
    [() => numericExp(N('100')), '26881171418161354484126255515800135873611119'], [() => numericExp(N('1.00000')), '2.7182818284590452'],
    [() => numericLn(N('2')), '0.6931471805599453'], [() => numericLn(N('1000')), '6.9077552789821371'],
    [() => numericLn(N('1.05')), '0.048790164169432003'], [() => numericLn(N('0.001')), '-6.9077552789821371'],
    [() => numericLog(N('10'), N('100')), '2.0000000000000000'], [() => numericLog(N('2'), N('8')), '3.0000000000000000'],
    [() => numericLog(N('10'), N('0.5')), '-0.3010299956639812'],
    [() => numericPower(N('2'), N('10')), '1024.0000000000000000'], [() => numericPower(N('2'), N('0.5')), '1.4142135623730950'],
    [() => numericPower(N('2'), N('-2')), '0.2500000000000000'], [() => numericPower(N('1.5'), N('3')), '3.3750000000000000'],
    [() => numericPower(N('10'), N('20')), '100000000000000000000.0000000000000000'],
    [() => numericPower(N('0.5'), N('100')), '0.0000000000000000'], [() => numericPower(N('2.000'), N('3')), '8.0000000000000000'],
    [() => numericPower(N('3'), N('40')), '12157665459056928801.0000000000000000'], [() => numericPower(N('2'), N('3.0')), '8.0000000000000000'],
    [() => numericPower(N('1.00000000000000000001'), N('2')), '1.00000000000000000002'], [() => numericPower(N('0'), N('0')), '1.0000000000000000'],
    [() => numericPower(N('0'), N('2.5')), '0.0000000000000000'], [() => numericPower(N('-2'), N('3')), '-8.0000000000000000'],
    [() => numericPower(N('4'), N('0.5')), '2.0000000000000000'], [() => numericPower(N('100'), N('1.5')), '1000.0000000000000'],
    [() => numericPower(N('2'), N('100.5')), '1792728671193156477399422023278.7'],
  ])('case %#', (f, r) => expect(f().toString()).toBe(r));

  it('errors', () => {
    expect(code(() => numericSqrt(N('-1')))).toBe('2201F');
    expect(code(() => numericLn(N('0')))).toBe('2201E');
    expect(code(() => numericLn(N('-1')))).toBe('2201E');
    expect(code(() => numericPower(N('0'), N('-1')))).toBe('2201F');
    expect(code(() => numericPower(N('-2'), N('0.5')))).toBe('2201F');
  });
});

describe('Numeric binary', () => {
  it.each(['0', '0.00', '1', '-1', '12345.6789', '0.0001', '0.00001234', '10000', '-99999999.99999999', '1e20', '123456789012345678901234567890.1',
    'NaN', 'Infinity', '-Infinity', '0.5', '100.10'])('round-trips %s', (s) => {
    const n = N(s);
    const back = numericFromBinary(numericToBinary(n));
    expect(back.toString()).toBe(n.toString());
  });

  it('matches PostgreSQL bytes', () => {
    // SELECT numeric_send(12345.6789) → \x00020001000000040001
    expect(Buffer.from(numericToBinary(N('12345.6789'))).toString('hex')).toBe('0003000100000004000109291a85');
    expect(Buffer.from(numericToBinary(N('-0.0001'))).toString('hex')).toBe('0001ffff400000040001');
    expect(Buffer.from(numericToBinary(N('0.00'))).toString('hex')).toBe('0000000000000002');
    expect(Buffer.from(numericToBinary(N('NaN'))).toString('hex')).toBe('00000000c0000000');
  });
});

describe('Numeric regressions found by differential runs against PostgreSQL 15.18', () => {
  it('select_div_scale uses the first base-10000 digit (0.9 → 9000)', () => {
    expect(N('0.9').div(N('0.495')).toString()).toBe('1.8181818181818182');
    expect(N('0.02').div(N('953077787.5')).toString()).toBe('0.0000000000209846460197772682');
  });
  it('estimate_ln_dweight pads the first digit too', () => {
    expect(numericLn(N('0.0000702')).toString()).toBe('-9.5641622469325087');
    expect(numericLog(N('10'), N('0.0000702')).toString()).toBe('-4.1536628878701947');
  });
});

describe('float → numeric (float8_numeric, verified on PostgreSQL 15.18)', () => {
  it.each([
    [1 / 3, '0.333333333333333'], [0.1, '0.1'], [1e20, '100000000000000000000'], [1.5e-7, '0.00000015'],
    [123456789012345678, '123456789012346000'], [NaN, 'NaN'], [Infinity, 'Infinity'], [100, '100'], [1e-20, '0.00000000000000000001'], [-2.5, '-2.5'],
  ])('%d → %s', (x, s) => expect(Numeric.fromNumber(x).toString()).toBe(s));
});

describe('Numeric.sub (direct subtraction)', () => {
  const vals = ['0', '0.00', '-0.000', '1', '-1', '1.10', '1.1', '-2.345', '99999999999999999999.9999', '-0.0001', '12345678901234567890123', 'NaN', 'Infinity', '-Infinity'].map(N);
  it('equals add(neg()) for every pair, finite and special, including scale and kind', () => {
    for (const a of vals) for (const b of vals) {
      const got = a.sub(b), want = a.add(b.neg());
      expect([got.kind, got.unscaled, got.scale], `${a} - ${b}`).toEqual([want.kind, want.unscaled, want.scale]);
    }
  });
  it('keeps PostgreSQL special-value rules', () => {
    expect(N('Infinity').sub(N('Infinity')).toString()).toBe('NaN');
    expect(N('-Infinity').sub(N('Infinity')).toString()).toBe('-Infinity');
    expect(N('1.5').sub(N('-Infinity')).toString()).toBe('Infinity');
    expect(N('NaN').sub(N('Infinity')).toString()).toBe('NaN');
    expect(N('2.50').sub(N('2.5')).toString()).toBe('0.00');
  });
});
