/**
 * A lazy decimal column's dictionary, kept beside the JS column by the scan (arrow-fast-columns.ts) when the
 * chunk was dictionary-coded and has no NULL: per row the entry's code, per entry its unscaled value as an
 * exact double (the column's ScaledColumn scale, pgtypes/numeric-column.ts). An aggregate over few groups can
 * then sum per (group, code) and apply each entry's value once (exec/expr/coded-product-sums.ts: TPC-H q1's
 * `1 - l_discount` over 11 entries instead of per row). Batches are immutable: the attachment stays valid for
 * the array's life; a column made from other rows (a Filter's pick) has none.
 */
import { columnSideTable } from '../../common/column-side-table.ts';

export interface DictionaryScaled {
  /** per row of the column: an index into `entries` */
  readonly codes: Uint8Array | Uint16Array | Int32Array;
  /** the dictionary's unscaled values (|v| < 2^53), shared by a column chunk's batches */
  readonly entries: Float64Array;
}

const attached = columnSideTable<DictionaryScaled>();

export function attachDictionaryScaled(column: readonly unknown[], d: DictionaryScaled): void {
  attached.attach(column, d);
}

/** the column's codes and entries, if the scan kept them */
export function dictionaryScaledOf(column: readonly unknown[]): DictionaryScaled | undefined {
  return attached.of(column);
}
