/**
 * CharKeyMemo: group ids of one or two text / char(n) / varchar GROUP BY keys whose values are one-character
 * strings or empty (TPC-H Q1's l_returnflag, l_linestatus; flags and status codes in general), found by a dense code per
 * row instead of hashing the strings (typed-partial-groups.ts). The memo only remembers what the group table
 * answered for each code: a code seen the first time asks the table for its row alone, so groups, their order of
 * first appearance and which keys count as equal (char(n)'s trailing blanks, NULL) stay the table's own.
 * A value that is not a one-character Latin-1 string, empty or NULL sends the rest of the batch to the table, and the
 * memo turns itself off for the task (its keys are not flags).
 */
import { Oid } from '../../common/pgtypes/oids.ts';

/** key types whose values are JS strings (pgtypes/values.ts) */
const STRING_KEYS = new Set<number>([Oid.text, Oid.bpchar, Oid.varchar]);
/** codes per key: 0–255 a Latin-1 character, 256 NULL, 257 the empty string */
const DOMAIN = 258;
const NULL_CODE = 256;
const EMPTY_CODE = 257;

/** assigns group ids to rows 0..n-1 of `cols` (GroupTable.assign) */
export type AssignRows = (cols: readonly (readonly unknown[])[], n: number, out: Int32Array) => void;

export class CharKeyMemo {
  /**
   * code → group id + 1 (0: not seen); made on the first assign: two keys take 266 KB, and a scan task whose
   * keys arrive as dictionary codes (dictionary-key-groups.ts: TPC-H Q1's) never asks the memo (80 tasks a run)
   */
  #ids: Int32Array | null = null;
  #on = true;
  readonly #one = new Int32Array(1);

  private constructor(private readonly width: 1 | 2) {}

  /** a memo for these keys, or null when they are not one or two string-typed columns read in place */
  static tryCreate(keyOids: readonly number[], direct: readonly number[]): CharKeyMemo | null {
    if (keyOids.length < 1 || keyOids.length > 2) return null;
    if (!keyOids.every((o) => STRING_KEYS.has(o)) || direct.some((d) => d < 0)) return null;
    return new CharKeyMemo(keyOids.length as 1 | 2);
  }

  /** forgets every code (the group table started empty again) */
  reset(): void {
    this.#ids?.fill(0);
  }

  /** the bytes the memo's code table holds (0 until the first assign) */
  get heldBytes(): number {
    return this.#ids === null ? 0 : this.#ids.byteLength;
  }

  /**
   * out[i] = the group of row i for rows 0..n-1: by code while the values are one-character strings, empty or NULL,
   * the table for a new code and for the batch's rest after the first other value; false when it is off
   */
  assign(cols: readonly (readonly unknown[])[], n: number, out: Int32Array, table: AssignRows): boolean {
    if (!this.#on) return false;
    const a = cols[0]!, b = this.width === 2 ? cols[1]! : null;
    const ids = (this.#ids ??= new Int32Array(this.width === 1 ? DOMAIN : DOMAIN * DOMAIN));
    let i = 0;
    for (; i < n; i++) {
      let code = codeOf(a[i]);
      if (code < 0) break;
      if (b !== null) {
        const c2 = codeOf(b[i]);
        if (c2 < 0) break;
        code = code * DOMAIN + c2;
      }
      const id = ids[code]!;
      if (id !== 0) { out[i] = id - 1; continue; }
      // a code seen the first time: the table finds or adds its group (in row order, so first appearance holds)
      table(b === null ? [[a[i]]] : [[a[i]], [b[i]]], 1, this.#one);
      out[i] = this.#one[0]!;
      ids[code] = this.#one[0]! + 1;
    }
    if (i < n) {
      this.#on = false;
      table(cols.map((c) => c.slice(i, n)), n - i, out.subarray(i, n));
    }
    return true;
  }
}

/** the dense code of a key value, or -1 */
function codeOf(v: unknown): number {
  if (typeof v === 'string') {
    if (v.length !== 1) return v.length === 0 ? EMPTY_CODE : -1;
    const c = v.charCodeAt(0);
    return c < 256 ? c : -1;
  }
  return v === null ? NULL_CODE : -1;
}
