import { describe, expect, it } from 'vitest';
import { textIn, textOut } from './text-io.ts';
import { binaryIn, binaryOut } from './binary-io.ts';
import { Oid } from './oids.ts';
import { DEFAULT_OUTPUT_SETTINGS as S } from './output-settings.ts';

const Y = 1 << 2, M = 1 << 1, D = 1 << 3, H = 1 << 10, MI = 1 << 11, SE = 1 << 12, FULL = 0x7fff, P = 0xffff;
const X = '1 year 2 mons 3 days 04:05:06.789';
const iv = (t: string, typmod: number) => textOut(Oid.interval, textIn(Oid.interval, typmod, t, S), S);

describe('interval typmods (verified on PostgreSQL 15.18)', () => {
  it.each([
    ['1.5', FULL << 16, '00:00:02'], [X, (Y << 16) | P, '1 year'], [X, ((D | H | MI) << 16) | P, '1 year 2 mons 3 days 04:05:00'],
    [X, (FULL << 16) | 1, '1 year 2 mons 3 days 04:05:06.8'], [X, (H << 16) | P, '1 year 2 mons 3 days 04:00:00'],
    [X, (M << 16) | P, '1 year 2 mons'], [X, ((MI | SE) << 16) | 2, '1 year 2 mons 3 days 04:05:06.79'],
    ['-1 days -04:05:06.789', (H << 16) | P, '-1 days -04:00:00'], ['-1 days -04:05:06.75', (FULL << 16) | 1, '-1 days -04:05:06.8'],
  ])('%j with typmod %i → %j', (input, typmod, out) => expect(iv(input, typmod)).toBe(out));
});

describe('int2vector / oidvector, "char", name (verified on PostgreSQL 15.18)', () => {
  it('vectors', () => {
    expect(textOut(Oid.int2vector, textIn(Oid.int2vector, -1, '1 2 3', S), S)).toBe('1 2 3');
    expect(textOut(Oid.oidvector, textIn(Oid.oidvector, -1, ' 1  2 ', S), S)).toBe('1 2');
    expect(textOut(Oid.int2vector, textIn(Oid.int2vector, -1, '', S), S)).toBe('');
    const v = textIn(Oid.int2vector, -1, '1 2', S);
    const bytes = binaryOut(Oid.int2vector, v);
    expect(Buffer.from(bytes).toString('hex')).toBe('0000000100000000000000150000000200000000000000020001000000020002');
    expect(binaryIn(Oid.int2vector, bytes)).toEqual(v);
    expect(() => textIn(Oid.int2vector, -1, '1 x', S)).toThrow('invalid input syntax for type smallint: "x"');
  });

  it('"char" keeps one byte and prints high bytes as octal', () => {
    expect(textOut(Oid.char, textIn(Oid.char, -1, 'ab', S), S)).toBe('a');
    expect(textOut(Oid.char, textIn(Oid.char, -1, 'é', S), S)).toBe('\\303');
    expect(textOut(Oid.char, textIn(Oid.char, -1, '\\303', S), S)).toBe('\\303');
    expect(binaryOut(Oid.char, textIn(Oid.char, -1, 'é', S))).toEqual(Uint8Array.of(0xc3));
  });

  it('name is cut to 63 bytes on a character boundary', () => {
    expect([...(textIn(Oid.name, -1, 'é'.repeat(40), S) as string)].length).toBe(31);
    expect((textIn(Oid.name, -1, 'a'.repeat(70), S) as string).length).toBe(63);
    expect(textIn(Oid.name, -1, 'short', S)).toBe('short');
  });
});
