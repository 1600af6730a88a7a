/**
 * A side table of facts about column arrays: what the code that made a column knew and a later reader can use
 * instead of the values (a decimal column's exact doubles, a dictionary-coded chunk's codes and entries), kept
 * off the array itself. Keyed by the array's identity in a WeakMap, so an entry lives exactly as long as its
 * column. Batches are immutable, so an entry stays true for the array's life; a column made from other rows (a
 * Filter's pick, a concatenation) is another array and has none unless its maker attaches one.
 * Serves iceberg/read/dictionary-strings.ts and dictionary-scaled.ts (the same pattern with other entry
 * types: pgtypes/numeric-column.ts, pgtypes/exact-int64-column.ts and iceberg/read/dictionary-codes.ts could
 * follow).
 */

export class ColumnSideTable<T> {
  readonly #entries = new WeakMap<readonly unknown[], T>();

  /** attaches `value` to `column` (replacing what it had) */
  attach(column: readonly unknown[], value: T): void {
    this.#entries.set(column, value);
  }

  /** what is attached to `column`, if anything */
  of(column: readonly unknown[]): T | undefined {
    return this.#entries.get(column);
  }
}

/** a new, empty side table (one per kind of fact, at module level) */
export function columnSideTable<T>(): ColumnSideTable<T> {
  return new ColumnSideTable<T>();
}
