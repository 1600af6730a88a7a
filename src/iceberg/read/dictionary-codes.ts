/**
 * Per-row dictionary codes kept beside a fixed-width Arrow chunk (int, date, long, decimal) by the JS page
 * decoder (js-row-group-decode.ts) when every page of its column chunk was dictionary-encoded, with the
 * dictionary's entries as an Arrow chunk of the same type. Pushed filters then judge each entry once and rows
 * by their code (arrow-dictionary-filter.ts): TPC-H's l_quantity (50 entries), l_discount (11) and, in a file
 * per month, l_shipdate (~30) compare a few dozen values instead of every row. NULL rows hold code 0.
 */
import type { Data } from 'apache-arrow';

export interface DictionaryCodes {
  /** per row of the chunk: an index into `dictionary` (Uint8Array for up to 256 entries, Uint16Array up to 65,536) */
  readonly codes: Uint8Array | Uint16Array | Int32Array;
  /** the entries, of the chunk's Arrow type (decimals with their exact doubles); shared by a column chunk's batches */
  readonly dictionary: Data;
}

const registry = new WeakMap<Data, DictionaryCodes>();

export function setDictionaryCodes(d: Data, codes: DictionaryCodes): void {
  registry.set(d, codes);
}

/** the chunk's dictionary codes, if its decoder kept them */
export function dictionaryCodesOf(d: Data): DictionaryCodes | undefined {
  return registry.get(d);
}
