/**
 * A string column's dictionary, kept beside the JS column by the scan (arrow-fast-columns.ts) when a whole
 * chunk was dictionary-coded and has no NULL: per row the entry's code, per entry its JS string (the very
 * strings the column holds). Group keys of few distinct values can then find their group by code instead of
 * by string (exec/partial/dictionary-key-groups.ts: TPC-H q1's l_returnflag / l_linestatus, 3 and 2 entries).
 * Batches are immutable: the attachment stays valid for the array's life; a column made from other rows (a
 * Filter's pick, a row pick of late materialization) has none.
 *
 * A lazy column (`lazyDictionaryStrings`) holds no strings at all: a sparse array of the batch's length, made
 * for a scan worker's partial aggregate that reads the column only as a group key by its codes (arrow-fast-
 * columns.ts codesOnlyField; exec/partial/run-fragment.ts decides where it may stay lazy). Filling an 8,192-row
 * array per key column per batch was q1's largest allocation after the decimals' placeholders (session 22:
 * 18.7 of 93 MB per run over its scan tasks, 5 % of the worker's CPU). Whoever wants the values takes
 * `materializedStrings(column)`, a new array: the lazy one is never filled in place (its holes would make V8
 * keep it in slow dictionary mode).
 */
import { columnSideTable } from '../../common/column-side-table.ts';

export interface DictionaryStrings {
  /** per row of the column: an index into `entries` */
  readonly codes: Int32Array;
  /** the dictionary's strings, shared by a column chunk's batches (the same array object for all of them) */
  readonly entries: readonly string[];
  /** the column holds no values (lazyDictionaryStrings): read them through materializedStrings */
  readonly lazy?: boolean;
}

const attached = columnSideTable<DictionaryStrings>();

export function attachDictionaryStrings(column: readonly unknown[], d: DictionaryStrings): void {
  attached.attach(column, d);
}

/** the column's codes and entries, if the scan kept them */
export function dictionaryStringsOf(column: readonly unknown[]): DictionaryStrings | undefined {
  return attached.of(column);
}

/** the last entry of a lazy column: any property read is an internal error (a consumer forgot to materialize) */
const LAZY_STRING: object = new Proxy(Object.freeze({}), {
  get(): never { throw new Error('internal error: a lazy string column was read before materializedStrings'); },
});

/**
 * a lazy column of `codes.length` rows: a sparse array (one element, no backing store of n slots: ~0.4 µs
 * instead of an 8,192-slot array) with its codes and entries attached
 */
export function lazyDictionaryStrings(codes: Int32Array, entries: readonly string[]): unknown[] {
  const out: unknown[] = [];
  if (codes.length > 0) out[codes.length - 1] = LAZY_STRING;
  attached.attach(out, { codes, entries, lazy: true });
  return out;
}

/** whether `column` is a lazy column (lazyDictionaryStrings) */
export function isLazyStrings(column: readonly unknown[]): boolean {
  return attached.of(column)?.lazy === true;
}

/** the column's values: a lazy column's as a new array (its codes and entries kept beside it), any other as it is */
export function materializedStrings(column: readonly unknown[]): readonly unknown[] {
  const d = attached.of(column);
  if (d === undefined || d.lazy !== true) return column;
  const { codes, entries } = d, n = codes.length;
  const out = new Array<unknown>(n);
  fillEntries(out, codes, entries, n);
  attached.attach(out, { codes, entries });
  return out;
}

/** out[i] = entries[codes[i]] (a loop of its own: see TEAM-NOTES on OSR) */
function fillEntries(out: unknown[], codes: Int32Array, entries: readonly string[], n: number): void {
  for (let i = 0; i < n; i++) out[i] = entries[codes[i]!]!;
}
