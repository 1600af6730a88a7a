/** Types of js-parquet-dictionary-bounds.mjs (plain JS so the encode worker loads it without tsx). */
import type { BytesDictionary, FixedDictionary } from './js-parquet-dictionary.mjs';

/** the column chunk facts the bounds need: physical type (6: BYTE_ARRAY) and words per fixed-width value */
export interface DictionaryLayout {
  readonly physical: number;
  readonly kw: number;
}

export interface DictionaryRanks {
  readonly order: Int32Array;
  readonly rank: Int32Array;
}

export function dictionaryRanks(layout: DictionaryLayout, dict: FixedDictionary | BytesDictionary, rows: number): DictionaryRanks | null;
export function dictMinMax(layout: DictionaryLayout, dict: FixedDictionary | BytesDictionary, ranks: DictionaryRanks | null, codes: Int32Array, from: number, to: number): [number, number];
