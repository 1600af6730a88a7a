/**
 * A string column's dictionary, kept beside the JS column by the scan (arrow-fast-columns.ts) when a whole
 * chunk was dictionary-coded and has no NULL: per row the entry's code, per entry its JS string (the very
 * strings the column holds). Group keys of few distinct values can then find their group by code instead of
 * by string (exec/partial/dictionary-key-groups.ts: TPC-H q1's l_returnflag / l_linestatus, 3 and 2 entries).
 * Batches are immutable: the attachment stays valid for the array's life; a column made from other rows (a
 * Filter's pick, a row pick of late materialization) has none.
 */

export interface DictionaryStrings {
  /** per row of the column: an index into `entries` */
  readonly codes: Int32Array;
  /** the dictionary's strings, shared by a column chunk's batches (the same array object for all of them) */
  readonly entries: readonly string[];
}

const attached = new WeakMap<readonly unknown[], DictionaryStrings>();

export function attachDictionaryStrings(column: readonly unknown[], d: DictionaryStrings): void {
  attached.set(column, d);
}

/** the column's codes and entries, if the scan kept them */
export function dictionaryStringsOf(column: readonly unknown[]): DictionaryStrings | undefined {
  return attached.get(column);
}
