/**
 * A low-cardinality string column across threads (column-transfer.ts): its distinct values once plus one code per
 * row (a transferred Uint16Array), instead of a structured clone of every row's string. On arrival each row gets
 * the dictionary's own string object, so
 *   - the main thread deserializes a few hundred strings, not one per row (TPC-H Q14 SF 1: part's 200k p_type
 *     values were a fresh string each, ~18 ms of receiveMessageOnPort per run plus their garbage), and
 *   - later readers of the column (a LIKE kernel after a hash join picks rows in probe order) read the same few
 *     strings, which stay in cache: a prefix test measured 35–120 ns per row on one-string-per-row columns against
 *     ~10 on shared ones (this VM, 8,192-row batches picked at random from 200k).
 * A column with many distinct values, a short batch or a non-string value keeps the cloned form (returns null).
 * A column the scan decoded from one dictionary-coded chunk carries its codes (read/dictionary-strings.ts): those are
 * copied as they are, with the chunk's entries as the dictionary, so no string is looked up per row (TPC-H q14 SF 1:
 * part's 200k p_type values were a Map lookup each; 8,192 rows packed in ~17 µs instead of ~200).
 */
import { dictionaryStringsOf } from '../read/dictionary-strings.ts';

export interface StringCodesColumn {
  readonly kind: 'strcodes';
  /** per row, its entry in `dict` (0 at NULL rows) */
  readonly values: Uint16Array;
  readonly dict: readonly string[];
  /** 1 at NULL rows; null when there is none */
  readonly nulls: Uint8Array | null;
}

/** below this many rows the clone is cheap anyway */
const MIN_ROWS = 1024;
/** after this many rows, more distinct values than a quarter of them means a high-cardinality column: stop early */
const PROBE_ROWS = 1024;
const MAX_DICT = 65_535;

export function packStringCodes(col: readonly unknown[], n: number): StringCodesColumn | null {
  if (n < MIN_ROWS) return null;
  const coded = fromDictionaryCodes(col, n);
  if (coded !== null) return coded;
  // at most one distinct value per 8 rows: otherwise the dictionary saves little over the clone
  const limit = Math.min(MAX_DICT, n >> 3);
  const codes = new Uint16Array(n);
  const index = new Map<string, number>();
  const dict: string[] = [];
  let nulls: Uint8Array | null = null;
  for (let i = 0; i < n; i++) {
    const v = col[i];
    if (v === null) { (nulls ??= new Uint8Array(n))[i] = 1; continue; }
    if (typeof v !== 'string') return null;
    let c = index.get(v);
    if (c === undefined) {
      c = dict.length;
      if (c >= limit || (i < PROBE_ROWS && c >= PROBE_ROWS >> 2)) return null;
      index.set(v, c);
      dict.push(v);
    }
    codes[i] = c;
  }
  return { kind: 'strcodes', values: codes, dict, nulls };
}

/**
 * the column's own dictionary codes (no NULLs: the scan attaches codes only then), when its chunk's entries are few
 * enough by packStringCodes' rule: at most one per 8 rows (entries the batch does not use still cross, once)
 */
function fromDictionaryCodes(col: readonly unknown[], n: number): StringCodesColumn | null {
  const d = dictionaryStringsOf(col);
  if (d === undefined || d.lazy === true || d.codes.length < n || d.entries.length > Math.min(MAX_DICT, n >> 3)) return null;
  return { kind: 'strcodes', values: narrowCodes(d.codes, n), dict: d.entries, nulls: null };
}

/** the first n codes as 16-bit codes (every code is below the dictionary's length, at most MAX_DICT) */
function narrowCodes(codes: Int32Array, n: number): Uint16Array {
  const out = new Uint16Array(n);
  for (let i = 0; i < n; i++) out[i] = codes[i]!;
  return out;
}

export function unpackStringCodes(p: StringCodesColumn, n: number): unknown[] {
  const out = new Array<unknown>(n);
  const { values, dict, nulls } = p;
  for (let i = 0; i < n; i++) out[i] = nulls !== null && nulls[i] === 1 ? null : dict[values[i]!]!;
  return out;
}
