/** The dialect parser and the result formatting, without a server. */
import { describe, expect, it } from 'vitest';
import { formatFloat, formatRows, hashValues, resultMatches } from './slt-format.ts';
import { parseSlt } from './slt-parser.ts';

const sample = [
  '# name: test/sql/x.slt',
  '# lakegate: pending needs COPY',
  '',
  'statement ok',
  'CREATE TEMP TABLE t (a int)',
  '',
  'skipif pg',
  'statement count 2',
  'INSERT INTO t VALUES (1), (2)',
  '',
  'statement error pgcode 42601 position 8 syntax error at or near "x"',
  'SELECT x x x',
  '',
  'onlyif lakegate',
  'query IT rowsort colnames',
  'SELECT a,',
  '  b FROM t',
  '----',
  'a\tb',
  '1\t(empty)',
  '',
  'query error pgcode 22012',
  'SELECT 1/0',
  '',
  'query R',
  'SELECT 1',
  '',
  'halt',
].join('\n');

describe('parseSlt', () => {
  const file = parseSlt(sample, 'x.slt');
  it('reads the header', () => {
    expect(file.name).toBe('test/sql/x.slt');
    expect(file.pending).toBe('needs COPY');
  });
  it('reads every record kind with its conditions', () => {
    expect(file.records.map((r) => r.kind)).toEqual(['statement', 'statement', 'statement', 'query', 'query-error', 'query', 'halt']);
    const [, count, err, q, qe, noSep] = file.records;
    expect(count).toMatchObject({ skipif: ['pg'], expect: { count: 2 } });
    expect(err).toMatchObject({ expect: { error: { pgcode: '42601', position: 8, message: 'syntax error at or near "x"' } } });
    expect(q).toMatchObject({ onlyif: ['lakegate'], types: 'IT', sort: 'rowsort', colnames: true, sql: 'SELECT a,\n  b FROM t', expected: ['a\tb', '1\t(empty)'], expectedRange: [18, 20] });
    expect(qe).toMatchObject({ error: { pgcode: '22012', position: null, message: null } });
    expect(noSep).toMatchObject({ hasSeparator: false, expected: [], sqlEnd: 25 });
  });
  it('rejects unknown records', () => {
    expect(() => parseSlt('frobnicate\nSELECT 1\n', 'bad.slt')).toThrow(/bad.slt:1/);
  });
});

describe('formatting', () => {
  it('rounds floats to 12 decimals', () => {
    expect(formatFloat('0.30000000000000004')).toBe('0.3');
    expect(formatFloat('1e+100')).toBe('1e+100');
    expect(formatFloat('-0')).toBe('0');
    expect(formatFloat('NaN')).toBe('NaN');
    expect(formatFloat('-Infinity')).toBe('-Infinity');
    expect(formatFloat('2.5')).toBe('2.5');
  });
  it('writes NULL and (empty), sorts rows and values', () => {
    expect(formatRows([['b', null], ['a', '']], 'TT', 'rowsort')).toEqual(['a\t(empty)', 'b\tNULL']);
    expect(formatRows([['3', '1'], ['2', '0']], 'II', 'valuesort')).toEqual(['0', '1', '2', '3']);
  });
  it('matches regex lines, whole-output regexes and one-value-per-line blocks', () => {
    expect(resultMatches(['<REGEX>:\\d+\tx'], ['42\tx'], false)).toBe(true);
    expect(resultMatches(['<REGEX>:.*files=1/12.*'], ['a', 'scan files=1/12', 'b'], false)).toBe(true);
    expect(resultMatches(['1', '2', '3', '4'], ['1\t2', '3\t4'], false)).toBe(true);
    expect(resultMatches(['1\t2'], ['1\t3'], false)).toBe(false);
  });
  it('hashes like sqllogictest', () => {
    expect(hashValues(['1\t2'])).toMatch(/^2 values hashing to [0-9a-f]{32}$/);
  });
});
