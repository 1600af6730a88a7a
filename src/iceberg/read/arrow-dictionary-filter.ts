/**
 * A one-column Arrow filter leaf (integer, date, decimal compare or IN: arrow-row-filter.ts) judged on a
 * dictionary-coded chunk (dictionary-codes.ts) once per dictionary entry, then per row by a table lookup of
 * its code: no per-row compare. The entries' verdicts are kept per dictionary (one per column chunk, shared
 * by its batches), so a row group's column is judged once. Chunks without codes go to the leaf as before.
 */
import type { Data } from 'apache-arrow';
import { EXACT, allRows, isNullAt, validity, type ArrowNode } from './arrow-leaf.ts';
import { dictionaryCodesOf } from './dictionary-codes.ts';

/** dictionaries with more entries than this share of a batch's rows are judged row by row (no gain) */
const MAX_ENTRY_SHARE = 0.5;

/** `leaf` (reading only column `c`) judged per dictionary entry where the chunk has codes */
export function perDictionaryEntry(leaf: ArrowNode, c: number): ArrowNode {
  const verdicts = new WeakMap<Data, Uint8Array>();
  return (data, length, sel) => {
    const d = data[c];
    const dc = d === undefined ? undefined : dictionaryCodesOf(d);
    if (dc === undefined || dc.dictionary.length > length * MAX_ENTRY_SHARE) return leaf(data, length, sel);
    // no row left: nothing to judge (and no reason to judge the entries yet)
    if (sel.n === 0) return EXACT;
    let pass = verdicts.get(dc.dictionary);
    if (pass === undefined) {
      const entries = dc.dictionary.length;
      const all = allRows(entries);
      const view = data.slice();
      view[c] = dc.dictionary;
      if (leaf(view, entries, all) !== EXACT) return leaf(data, length, sel);
      pass = new Uint8Array(entries);
      for (let k = 0; k < all.n; k++) pass[all.rows[k]!] = 1;
      verdicts.set(dc.dictionary, pass);
    }
    const codes = dc.codes, bm = validity(d!), off = d!.offset, rows = sel.rows;
    let m = 0;
    if (bm === null) {
      for (let k = 0; k < sel.n; k++) {
        const i = rows[k]!;
        if (pass[codes[i]!] === 1) rows[m++] = i;
      }
    } else {
      for (let k = 0; k < sel.n; k++) {
        const i = rows[k]!;
        if (pass[codes[i]!] === 1 && !isNullAt(bm, off + i)) rows[m++] = i;
      }
    }
    sel.n = m;
    return EXACT;
  };
}
