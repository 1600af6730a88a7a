/**
 * Is an engine's answer PostgreSQL's? Cells are compared as text, except: trailing blanks are ignored (char(n)
 * padding; DuckDB has no blank-padded type), and two numbers are equal within a relative 1e-6 (avg of numeric
 * is exact in PostgreSQL, a double in DuckDB). Rows are compared in order first; if that fails they are
 * compared as sorted multisets (ORDER BY ties may come out in any order).
 */
import type { TextRow } from './engine.ts';

export interface Comparison {
  readonly ok: boolean;
  /** the same text, cell for cell and in the same order (what lakegate promises against PostgreSQL) */
  readonly exact: boolean;
  /** first difference, for the report */
  readonly detail?: string;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function cellEqual(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  if (a === b) return true;
  const ta = a.trimEnd();
  const tb = b.trimEnd();
  if (ta === tb) return true;
  if (NUMBER.test(ta) && NUMBER.test(tb)) {
    const x = Number(ta);
    const y = Number(tb);
    return Math.abs(x - y) <= 1e-6 * Math.max(1, Math.abs(x), Math.abs(y));
  }
  return false;
}

function rowEqual(a: TextRow, b: TextRow): boolean {
  return a.length === b.length && a.every((v, i) => cellEqual(v, b[i] ?? null));
}

const show = (r: TextRow | undefined): string => (r === undefined ? '(no row)' : r.map((v) => (v === null ? 'NULL' : v.trimEnd())).join(' | '));

function firstDiff(actual: readonly TextRow[], expected: readonly TextRow[]): string | undefined {
  if (actual.length !== expected.length) return `${actual.length} rows, expected ${expected.length}`;
  for (let i = 0; i < expected.length; i++) {
    if (!rowEqual(actual[i]!, expected[i]!)) return `row ${i + 1}: ${show(actual[i])}  expected: ${show(expected[i])}`;
  }
  return undefined;
}

/** sort key: numbers rounded so that 1e-6 differences sort together */
function sortKey(r: TextRow): string {
  return r.map((v) => (v === null ? '\u0000' : NUMBER.test(v.trim()) ? Number(v).toPrecision(6) : v.trimEnd())).join('\u0001');
}

export function compareResults(actual: readonly TextRow[], expected: readonly TextRow[]): Comparison {
  const exact = actual.length === expected.length && actual.every((r, i) => r.length === expected[i]!.length && r.every((v, j) => v === expected[i]![j]));
  if (exact) return { ok: true, exact };
  const inOrder = firstDiff(actual, expected);
  if (inOrder === undefined) return { ok: true, exact };
  if (actual.length !== expected.length) return { ok: false, exact, detail: inOrder };
  const sorted = (rows: readonly TextRow[]): TextRow[] => [...rows].sort((x, y) => (sortKey(x) < sortKey(y) ? -1 : sortKey(x) > sortKey(y) ? 1 : 0));
  const unordered = firstDiff(sorted(actual), sorted(expected));
  return unordered === undefined ? { ok: true, exact } : { ok: false, exact, detail: inOrder };
}
