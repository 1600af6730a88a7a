/**
 * A one-column Arrow filter leaf (integer, date, decimal compare or IN: arrow-row-filter.ts) judged on a
 * dictionary-coded chunk (dictionary-codes.ts) once per dictionary entry, then per row by a table lookup of
 * its code: no per-row compare. The entries' verdicts are kept per dictionary (one per column chunk, shared
 * by its batches), so a row group's column is judged once. Chunks without codes go to the leaf as before.
 */
import type { Data } from 'apache-arrow';
import { EXACT, isNullAt, validity, type ArrowNode } from './arrow-leaf.ts';
import { dictionaryCodesOf } from './dictionary-codes.ts';

/** dictionaries with more entries than this share of a batch's rows are judged row by row (no gain) */
const MAX_ENTRY_SHARE = 0.5;

/** `leaf` (reading only column `c`) judged per dictionary entry where the chunk has codes */
export function perDictionaryEntry(leaf: ArrowNode, c: number): ArrowNode {
  const verdicts = new WeakMap<Data, Uint8Array>();
  return (data, length, keep) => {
    const d = data[c];
    const dc = d === undefined ? undefined : dictionaryCodesOf(d);
    if (dc === undefined || dc.dictionary.length > length * MAX_ENTRY_SHARE) return leaf(data, length, keep);
    let pass = verdicts.get(dc.dictionary);
    if (pass === undefined) {
      const entries = dc.dictionary.length;
      const one = new Uint8Array(entries).fill(1);
      const view = data.slice();
      view[c] = dc.dictionary;
      if (leaf(view, entries, one) !== EXACT) return leaf(data, length, keep);
      verdicts.set(dc.dictionary, pass = one);
    }
    const codes = dc.codes, bm = validity(d!), off = d!.offset;
    if (bm === null) {
      for (let i = 0; i < length; i++) if (keep[i] === 1 && pass[codes[i]!] === 0) keep[i] = 0;
    } else {
      for (let i = 0; i < length; i++) if (keep[i] === 1 && (pass[codes[i]!] === 0 || isNullAt(bm, off + i))) keep[i] = 0;
    }
    return EXACT;
  };
}
