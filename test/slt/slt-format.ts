/**
 * Turns a result set (PostgreSQL text values, pg's type parsers disabled) into .slt lines, and compares
 * them with an expected block: NULL / (empty), floats at 12 decimals for `R`, rowsort / valuesort,
 * `<REGEX>:` lines, hash-threshold.
 */
import { createHash } from 'node:crypto';
import type { SortMode } from './slt-parser.ts';

export const REGEX_PREFIX = '<REGEX>:';

/** A float printed with at most 12 decimals, trailing zeros dropped (DataFusion's "scale of 12"). */
export function formatFloat(text: string): string {
  const n = Number(text);
  if (text.trim() === '' || Number.isNaN(n)) return text; // NaN, or not a number at all: keep PG's text
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  if (Math.abs(n) >= 1e21) return String(n);
  let s = n.toFixed(12);
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s === '-0' ? '0' : s;
}

export function formatValue(value: unknown, type: string | undefined): string {
  if (value === null || value === undefined) return 'NULL';
  const text = typeof value === 'string' ? value : Buffer.isBuffer(value) ? `\\x${value.toString('hex')}` : String(value);
  if (text === '') return '(empty)';
  if (type === 'R') return formatFloat(text);
  return text;
}

/** Rows of values → .slt lines (tab-separated), sorted as the record asks. */
export function formatRows(rows: readonly (readonly unknown[])[], types: string, sort: SortMode): string[] {
  const formatted = rows.map((r) => r.map((v, i) => formatValue(v, types[i])));
  if (sort === 'valuesort') return formatted.flat().sort(compareText);
  const lines = formatted.map((r) => r.join('\t'));
  if (sort === 'rowsort') {
    // sort by the columns in order, as sqllogictest does
    return formatted
      .slice()
      .sort((a, b) => {
        for (let i = 0; i < Math.max(a.length, b.length); i++) {
          const c = compareText(a[i] ?? '', b[i] ?? '');
          if (c !== 0) return c;
        }
        return 0;
      })
      .map((r) => r.join('\t'));
  }
  return lines;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** sqllogictest hashing: `N values hashing to <md5 of each value + "\n">`. */
export function hashValues(lines: readonly string[]): string {
  const values = lines.flatMap((l) => l.split('\t'));
  const h = createHash('md5');
  for (const v of values) h.update(`${v}\n`);
  return `${values.length} values hashing to ${h.digest('hex')}`;
}

function lineMatches(expected: string, actual: string): boolean {
  if (expected.startsWith(REGEX_PREFIX)) {
    return new RegExp(`^(?:${expected.slice(REGEX_PREFIX.length)})$`, 's').test(actual);
  }
  return expected === actual;
}

/**
 * Compares actual lines with the expected block. A single `<REGEX>:` line is matched against the
 * whole output; otherwise line by line. An expected block written one value per line (sqllogictest style)
 * also matches a multi-column result.
 */
export function resultMatches(expected: readonly string[], actual: readonly string[], valueSort: boolean): boolean {
  if (expected.length === 1 && expected[0]?.startsWith(REGEX_PREFIX) && actual.length !== 1) {
    return lineMatches(expected[0], actual.join('\n'));
  }
  if (expected.length === actual.length && expected.every((e, i) => lineMatches(e, actual[i] ?? ''))) return true;
  const flatActual = actual.flatMap((l) => l.split('\t'));
  const flatExpected = expected.flatMap((l) => l.split('\t'));
  if (valueSort) flatExpected.sort(compareText);
  return (
    flatExpected.length === flatActual.length &&
    expected.length !== actual.length &&
    flatExpected.every((e, i) => lineMatches(e, flatActual[i] ?? ''))
  );
}
