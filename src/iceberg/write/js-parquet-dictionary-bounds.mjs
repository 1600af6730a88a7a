// A data page's min / max dictionary entry (its page-index and chunk statistics) from the page's codes.
// Plain JS (loaded by the encode worker without tsx).
import { compareBytes, compareWords } from './js-parquet-dictionary.mjs';

const PHYSICAL_BYTE_ARRAY = 6;

/**
 * a dictionary's entries in value order, when ordering them once is cheaper than comparing entries page by page:
 * `rank[code]` (the entry's place in that order) and `order[rank]` (the code at that place). Only for entries
 * compared word by word or byte by byte (single-word entries compare as cheaply as ranks), and only for a
 * dictionary much smaller than its chunk (sorting costs size · log size comparisons, the pages' scan rows ones).
 * Measured on TPC-H lineitem (l_quantity / l_discount / l_tax decimals, 4 words; the flags and ship strings):
 * dictMinMax was 8 % of the encode thread.
 */
export function dictionaryRanks(layout, dict, rows) {
  const size = dict.size;
  if (layout.physical !== PHYSICAL_BYTE_ARRAY && layout.kw === 1) return null;
  if (size * 16 > rows) return null;
  const order = new Int32Array(size);
  for (let c = 0; c < size; c++) order[c] = c;
  if (layout.physical === PHYSICAL_BYTE_ARRAY) {
    const { data, offsets } = dict;
    order.sort((a, b) => compareBytes(data, offsets[a], offsets[a + 1], data, offsets[b], offsets[b + 1]));
  } else {
    const e = dict.entries;
    const kw = layout.kw;
    order.sort((a, b) => compareWords(e, a * kw, e, b * kw, kw));
  }
  const rank = new Int32Array(size);
  for (let r = 0; r < size; r++) rank[order[r]] = r;
  return { order, rank };
}

/** [min, max] code among codes[from, to) by rank (`ranks`: dictionaryRanks) */
function rankedMinMax(ranks, codes, from, to) {
  const rank = ranks.rank;
  let lo = rank[codes[from]];
  let hi = lo;
  for (let i = from + 1; i < to; i++) {
    const r = rank[codes[i]];
    if (r < lo) lo = r;
    else if (r > hi) hi = r;
  }
  return [ranks.order[lo], ranks.order[hi]];
}

/**
 * [min, max] dictionary entry among codes[from, to) (a page's values, to > from): by rank when `ranks` is
 * given, else compared entry against entry, codes equal to a bound skipped (low-cardinality pages mostly are)
 */
export function dictMinMax(layout, dict, ranks, codes, from, to) {
  if (ranks !== null) return rankedMinMax(ranks, codes, from, to);
  let lo = codes[from];
  let hi = lo;
  if (layout.physical === PHYSICAL_BYTE_ARRAY) {
    const { data, offsets } = dict;
    for (let i = from + 1; i < to; i++) {
      const c = codes[i];
      if (c === lo || c === hi) continue;
      if (compareBytes(data, offsets[c], offsets[c + 1], data, offsets[lo], offsets[lo + 1]) < 0) lo = c;
      else if (compareBytes(data, offsets[c], offsets[c + 1], data, offsets[hi], offsets[hi + 1]) > 0) hi = c;
    }
    return [lo, hi];
  }
  const e = dict.entries;
  const kw = layout.kw;
  if (kw === 1) {
    for (let i = from + 1; i < to; i++) {
      const v = e[codes[i]];
      if (v < e[lo]) lo = codes[i];
      else if (v > e[hi]) hi = codes[i];
    }
    return [lo, hi];
  }
  for (let i = from + 1; i < to; i++) {
    const c = codes[i];
    if (c === lo || c === hi) continue;
    if (compareWords(e, c * kw, e, lo * kw, kw) < 0) lo = c;
    else if (compareWords(e, c * kw, e, hi * kw, kw) > 0) hi = c;
  }
  return [lo, hi];
}
