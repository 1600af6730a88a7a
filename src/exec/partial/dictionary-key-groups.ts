/**
 * DictionaryKeyGroups: group ids of string GROUP BY keys read straight from the scan's dictionary codes
 * (iceberg/read/dictionary-strings.ts) — TPC-H q1's l_returnflag / l_linestatus, 3 × 2 dictionary entries —
 * with no string compared or hashed per row: a table from the keys' combined code (code₁ · k₂ + code₂ …) to the
 * group id, then one pass over the codes. Like char-key-memo.ts, the table only remembers what the group table
 * answered: a combined code met the first time asks the group table for that row alone, in row order, so the
 * groups, their order of first appearance and which keys count as equal (char(n)'s trailing blanks, two
 * entries of one string) stay the group table's own. The code table is built per set of dictionaries (a
 * column chunk's batches share theirs) and forgotten when the group table is emptied.
 * A batch whose key column has no codes (NULLs, a plain-encoded chunk, picked rows, a computed key) or whose
 * dictionaries combine to more than MAX_CELLS codes is left to the caller (`assign` returns false). The keys the
 * table answered are also kept by their strings, so a new chunk's table starts with the groups of the keys met
 * before (every lineitem file has its own dictionaries of the same flags: no row stops to ask again). A key
 * column may be lazy (dictionary-strings.ts: codes and entries, no values): the rows that ask the group table
 * give it their entries' strings, so `assign` never reads the column's values; `keyOnlyColumns` names the
 * columns the scan may hand over so.
 */
import { Oid } from '../../common/pgtypes/oids.ts';
import { dictionaryStringsOf } from '../../iceberg/read/dictionary-strings.ts';
import { someExpr, type Expr } from '../../sql/index.ts';
import type { KeyCodes } from '../expr/coded-product-sums.ts';
import type { AssignRows } from './char-key-memo.ts';

/** key types whose values are JS strings (pgtypes/values.ts) */
const STRING_KEYS = new Set<number>([Oid.text, Oid.bpchar, Oid.varchar]);
/** combined codes per table at most (a table of this many int32 is cleared per dictionary change) */
const MAX_CELLS = 4096;
/** a new chunk's table is filled from the keys met before when it has at most this many combined codes */
const MAX_PREFILL = 256;
/** keys remembered by their strings at most */
const MAX_KNOWN = 4096;

export class DictionaryKeyGroups {
  /** combined code → group id + 1 (0: not asked yet) */
  #ids = new Int32Array(0);
  /** the dictionaries `#ids` is for (compared by identity), or null */
  #entries: (readonly string[])[] | null = null;
  #cell = new Int32Array(0);
  readonly #one = new Int32Array(1);
  /** the group the table answered per key, by its strings joined with NUL (no key value holds one) */
  readonly #known = new Map<string, number>();

  private constructor(private readonly width: number) {}

  /** a memo for these keys, or null when they are not string-typed columns read in place */
  static tryCreate(keyOids: readonly number[], direct: readonly number[]): DictionaryKeyGroups | null {
    if (keyOids.length < 1 || !keyOids.every((o) => STRING_KEYS.has(o)) || direct.some((d) => d < 0)) return null;
    return new DictionaryKeyGroups(keyOids.length);
  }

  /** forgets every code (the group table started empty again) */
  reset(): void {
    this.#ids.fill(0);
    this.#known.clear();
  }

  /** out[i] = the group of row i for rows 0..n-1 of the key columns `cols`; false (nothing assigned) when a column has no codes */
  assign(cols: readonly (readonly unknown[])[], n: number, out: Int32Array, table: AssignRows): boolean {
    const w = this.width;
    const codes: Int32Array[] = [];
    const entries: (readonly string[])[] = [];
    let cells = 1;
    for (let c = 0; c < w; c++) {
      const d = dictionaryStringsOf(cols[c]!);
      if (d === undefined || d.codes.length !== n) return false;
      cells *= d.entries.length;
      if (cells > MAX_CELLS) return false;
      codes.push(d.codes);
      entries.push(d.entries);
    }
    const ids = this.#codeTable(entries, cells);
    // one or two keys (TPC-H q1): their codes read in the pass itself; more are first folded into one code a row
    let a: Int32Array = codes[0]!, b: Int32Array | null = w === 2 ? codes[1]! : null;
    const kb = w === 2 ? entries[1]!.length : 0;
    if (w > 2) {
      if (this.#cell.length < n) this.#cell = new Int32Array(Math.max(n, 1024));
      a = this.#cell;
      combine2(a, codes[0]!, codes[1]!, entries[1]!.length, n);
      for (let c = 2; c < w; c++) combineMore(a, codes[c]!, entries[c]!.length, n);
    }
    // one pass over the codes; each code met the first time stops it and asks the group table
    for (let i = 0; i < n;) {
      i = b === null ? knownGroups(ids, a, out, i, n) : knownGroups2(ids, a, b, kb, out, i, n);
      if (i === n) break;
      const row = askRow(codes, entries, w, i);
      table(row, 1, this.#one);
      const g = this.#one[0]!;
      ids[b === null ? a[i]! : a[i]! * kb + b[i]!] = g + 1;
      if (this.#known.size < MAX_KNOWN) this.#known.set(row.map((r) => r[0]).join('\0'), g);
      out[i] = g;
      i++;
    }
    return true;
  }

  /**
   * the key columns' codes and the code table for rows 0..n-1, with no pass over the rows (coded-product-sums.ts
   * KeyCodes: a consumer that reads the codes itself; `assign` asks the table for codes not in it yet); null when
   * a column has no codes, or for more than two keys
   */
  keyCodes(cols: readonly (readonly unknown[])[], n: number): KeyCodes | null {
    const w = this.width;
    if (w > 2) return null;
    const a = dictionaryStringsOf(cols[0]!);
    if (a === undefined || a.codes.length !== n) return null;
    if (w === 1) {
      const cells = a.entries.length;
      // one key: the cell a[i] · 0 + a[i]
      return cells > MAX_CELLS ? null : { a: a.codes, b: a.codes, kb: 0, cells, ids: this.#codeTable([a.entries], cells) };
    }
    const b = dictionaryStringsOf(cols[1]!);
    if (b === undefined || b.codes.length !== n) return null;
    const kb = b.entries.length, cells = a.entries.length * kb;
    // the combined code is assign's: a[i] · kb + b[i]
    return cells > MAX_CELLS ? null : { a: a.codes, b: b.codes, kb, cells, ids: this.#codeTable([a.entries, b.entries], cells) };
  }

  /** the code table for these dictionaries: kept while they are the same arrays, else emptied */
  #codeTable(entries: (readonly string[])[], cells: number): Int32Array {
    const last = this.#entries;
    if (last !== null && last.length === entries.length && last.every((e, c) => e === entries[c])) return this.#ids;
    this.#entries = entries;
    if (this.#ids.length < cells) this.#ids = new Int32Array(Math.max(cells, 64));
    else this.#ids.fill(0);
    if (this.#known.size > 0 && cells <= MAX_PREFILL) prefill(this.#ids, entries, cells, this.#known);
    return this.#ids;
  }
}

/**
 * the table columns read only as plain string GROUP BY keys (a bare column reference of a string type) and by
 * nothing else in `others` (Filters, pushed filters' columns given in `pushed`, other keys, aggregate arguments
 * and FILTERs): the columns a scan worker may receive lazily as codes (iceberg/read/arrow-fast-columns.ts
 * codesOnlyField), as DictionaryKeyGroups reads them by code alone
 */
export function keyOnlyColumns(keys: readonly Expr[], others: readonly Expr[], pushed: ReadonlySet<number>): Set<number> {
  const out = new Set<number>();
  const elsewhere = new Set<number>(pushed);
  const mark = (e: Expr): void => { someExpr(e, (x) => { if (x.kind === 'ColumnRef') elsewhere.add(x.index); return false; }); };
  for (const k of keys) {
    if (k.kind === 'ColumnRef' && k.levelsUp === 0 && STRING_KEYS.has(k.type.oid)) out.add(k.index);
    else mark(k);
  }
  for (const e of others) mark(e);
  for (const c of elsewhere) out.delete(c);
  return out;
}

/**
 * ids[combined code] = group + 1 for each combination of the dictionaries' entries whose strings the table
 * answered before: the same strings are the same group (whatever the table counts as equal beyond that, it
 * still asks for); the others stay 0 and are asked in row order
 */
function prefill(ids: Int32Array, entries: readonly (readonly string[])[], cells: number, known: ReadonlyMap<string, number>): void {
  for (let code = 0; code < cells; code++) {
    // the code's digits, last key fastest (assign's a · kb + b …)
    let rest = code, key = '';
    for (let c = entries.length - 1; c >= 0; c--) {
      const e = entries[c]!;
      const s = e[rest % e.length]!;
      key = c === entries.length - 1 ? s : `${s}\0${key}`;
      rest = Math.floor(rest / e.length);
    }
    const g = known.get(key);
    if (g !== undefined) ids[code] = g + 1;
  }
}

/** the key values of row i, one single-row column per key, from the dictionaries (the columns may be lazy) */
function askRow(codes: readonly Int32Array[], entries: readonly (readonly string[])[], w: number, i: number): unknown[][] {
  const row: unknown[][] = [];
  for (let c = 0; c < w; c++) row.push([entries[c]![codes[c]![i]!]]);
  return row;
}

/** at[i] = a[i] · kb + b[i] */
function combine2(at: Int32Array, a: Int32Array, b: Int32Array, kb: number, n: number): void {
  for (let i = 0; i < n; i++) at[i] = a[i]! * kb + b[i]!;
}

/** at[i] = at[i] · k + c[i] */
function combineMore(at: Int32Array, c: Int32Array, k: number, n: number): void {
  for (let i = 0; i < n; i++) at[i] = at[i]! * k + c[i]!;
}

/**
 * out[i] = ids[at[i]] - 1 from row `from` on, up to the first row whose code has no group yet; returns that
 * row (n: none). A function of its own: a row loop inside a longer function is compiled on stack (OSR) and the
 * code after it deoptimizes call after call (TEAM-NOTES, session 18).
 */
function knownGroups(ids: Int32Array, at: Int32Array, out: Int32Array, from: number, n: number): number {
  for (let i = from; i < n; i++) {
    const id = ids[at[i]!]!;
    if (id === 0) return i;
    out[i] = id - 1;
  }
  return n;
}

/** knownGroups with the code a[i] · kb + b[i] */
function knownGroups2(ids: Int32Array, a: Int32Array, b: Int32Array, kb: number, out: Int32Array, from: number, n: number): number {
  for (let i = from; i < n; i++) {
    const id = ids[a[i]! * kb + b[i]!]!;
    if (id === 0) return i;
    out[i] = id - 1;
  }
  return n;
}
