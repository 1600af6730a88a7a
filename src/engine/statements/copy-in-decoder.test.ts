/**
 * COPY FROM STDIN decoding: CSV records read straight from the decode buffer must give the same rows at
 * every chunk boundary (quotes spanning lines, doubled quotes, ESCAPE, \r\n, NULL rules, header, `\.`).
 */
import { describe, expect, it } from 'vitest';
import { decodeCopyIn, type CopyTarget } from './copy-in-decoder.ts';
import type { CopyOptions } from './copy-options.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { DEFAULT_OUTPUT_SETTINGS } from '../../common/pgtypes/output-settings.ts';

const csv: CopyOptions = {
  format: 'csv', header: false, delimiter: ',', nullString: '', quote: '"', escape: '"', forceQuote: [], forceNotNull: [], forceNull: [],
};
const target: CopyTarget = {
  table: 't',
  columns: [{ name: 'a', type: { oid: Oid.int4, typmod: -1 } }, { name: 'b', type: { oid: Oid.text, typmod: -1 } }],
};

async function decode(input: string, options: CopyOptions, splitAt: readonly number[] = []): Promise<unknown[][]> {
  const bytes = new TextEncoder().encode(input);
  const cuts = [0, ...splitAt.filter((c) => c > 0 && c < bytes.length), bytes.length];
  async function* chunks(): AsyncIterable<Uint8Array> {
    for (let i = 0; i + 1 < cuts.length; i++) yield bytes.subarray(cuts[i], cuts[i + 1]);
  }
  const rows: unknown[][] = [];
  for await (const chunk of decodeCopyIn(chunks(), options, target, DEFAULT_OUTPUT_SETTINGS)) rows.push(...chunk);
  return rows;
}

describe('decodeCopyIn (csv)', () => {
  const input = '1,plain\r\n2,"with ""quotes"", and\nnewline"\n3,\n4,""\n5,"a"b\n\\.\n6,after\n';
  const expected = [[1, 'plain'], [2, 'with "quotes", and\nnewline'], [3, null], [4, ''], [5, 'ab']];

  it('gives the same rows whatever the chunk boundaries', async () => {
    expect(await decode(input, csv)).toEqual(expected);
    for (let cut = 1; cut < input.length; cut++) expect(await decode(input, csv, [cut])).toEqual(expected);
    expect(await decode(input, csv, Array.from({ length: input.length }, (_, i) => i))).toEqual(expected);
  });

  it('applies ESCAPE, FORCE_NULL, FORCE_NOT_NULL, HEADER and a last record without newline', async () => {
    const esc = { ...csv, escape: '\\', header: true };
    expect(await decode('a,b\n1,"x\\"y"\n2,"x""y"\n3,last', esc)).toEqual([[1, 'x"y'], [2, 'xy'], [3, 'last']]);
    expect(await decode('1,""\n2,\n', { ...csv, forceNull: ['b'] })).toEqual([[1, null], [2, null]]);
    expect(await decode('1,""\n2,\n', { ...csv, forceNotNull: ['b'] })).toEqual([[1, ''], [2, '']]);
  });

  it('reports field-count and input errors with the line', async () => {
    await expect(decode('1,a\n2\n', csv)).rejects.toMatchObject({ code: '22P04', where: 'COPY t, line 2' });
    await expect(decode('1,a\n2,b,c\n', csv)).rejects.toMatchObject({ code: '22P04', message: 'extra data after last expected column' });
    await expect(decode('1,a\nx,b\n', csv)).rejects.toMatchObject({ code: '22P02', where: 'COPY t, line 2, column a: "x"' });
    await expect(decode('1,"open\n', csv)).rejects.toMatchObject({ code: '22P04', message: 'unterminated CSV quoted field' });
  });

  it('decodes text format rows', async () => {
    const text = { ...csv, format: 'text' as const, delimiter: '\t', nullString: '\\N' };
    expect(await decode('1\ta\\tb\n2\t\\N\n\\.\n', text, [3])).toEqual([[1, 'a\tb'], [2, null]]);
  });
});
