/**
 * CodedProductSums: sum / avg over a numeric product of columns — each factor a column, `k ± column`,
 * `column ± k` or a constant — summed for a batch per (group, dictionary code) instead of per row (TPC-H Q1:
 * `sum(l_extendedprice * (1 - l_discount) * (1 + l_tax))`). When the scan kept a factor column's dictionary
 * (iceberg/read/dictionary-scaled.ts: per row a code, per entry an exact double), that factor is evaluated
 * once per entry; the rows only add the one column left without a dictionary (the "wide" one, or a count when
 * none is) into a small table of cells = group × codes. Each cell's sum then meets its factors' product once:
 * Σ_rows a·f(c) = Σ_cells f(c)·Σ_(rows of the cell) a, exactly, as numeric arithmetic is exact. Aggregates of
 * one wide column share one pass (Q1: sum(l_extendedprice), avg(l_extendedprice) and the two discounted sums
 * read one table of group × l_discount × l_tax cells), and no argument vector is computed for them. An
 * aggregate without a wide column whose codes such a pass reads weighs that pass's cell counts (Q1's
 * avg(l_discount): no count loop of its own). A
 * count(*) takes its per-group counts from the first pass's cells (no pass of its own over the group ids). Each
 * factor's value per entry and each aggregate's cell weights are kept while the batches share a dictionary
 * (a column chunk's batches do), so a batch computes them only when its dictionaries change. String GROUP BY
 * keys the scan kept codes for need no group id per row either (`runByKeys`): their codes are the cell index's
 * leading digits, and each key cell's totals go to its group once per batch (Q1: no group-id pass, no pass for
 * the batch's largest group id).
 *
 * Exactness: every factor value, cell product and cell sum is an integer double checked to stay below 2^53
 * (cell sums below 2^52, as batch-group-sums.ts); a product that does not fit is multiplied as bigints; a cell
 * sum that would not fit gives the batch back to the vector kernels (`run` reports which aggregates it took).
 * Only columns without NULL (the scan's noNulls) take part; result scales are numeric.c's (× adds the
 * scales, ± takes the larger), as the vector kernels' (vector-numeric.ts).
 */
import { Oid } from '../../common/pgtypes/oids.ts';
import { scaledColumnOf } from '../../common/pgtypes/numeric-column.ts';
import { dictionaryScaledOf } from '../../iceberg/read/dictionary-scaled.ts';
import type { Expr } from '../../sql/index.ts';
import type { Cols } from './compile-expr.ts';
import type { GroupStates } from './group-states.ts';
import { countCells, countCells1, countCells1x2, countCells2, countKeyCells1, countKeyCells1x2, countKeyCells2, firstCodes, moreCodes, PART_LIMIT, sumCells, sumCells1, sumCells2, sumCodes1Count1, sumCodes2Count1, sumKeyCells1, sumKeyCells1Count1, sumKeyCells2, sumKeyCells2Count1, type Codes } from './coded-cell-loops.ts';
import { scaledConst } from './vector-numeric.ts';

const NUMERIC_ARITH: Record<number, '+' | '-' | '*'> = { 1758: '+', 1759: '-', 1760: '*' };
const EXACT = 2 ** 53;
const NUMERIC_DSCALE_MAX = 0x3fff;
const POW10 = Array.from({ length: 16 }, (_v, k) => 10 ** k);
/** a dictionary of more entries makes its column the wide one */
const MAX_ENTRIES = 256;
/** at most this many cells per pass, and one per ROWS_PER_CELL rows of the batch (each aggregate visits every cell once) */
const MAX_CELLS = 4096;
const ROWS_PER_CELL = 8;

/** a numeric constant as an exact double */
type Const = { readonly u: number; readonly scale: number };

/** one factor of a product: a constant, or a column with an optional constant added or subtracted */
export type Factor =
  | { readonly kind: 'const'; readonly k: Const }
  | { readonly kind: 'col'; readonly col: number; readonly op: '+' | '-' | null; readonly k: Const | null; readonly kLeft: boolean };

/** the factors of a numeric product over the scan's columns, or null when `e` is not one */
export function productFactors(e: Expr): Factor[] | null {
  if (e.type.oid !== Oid.numeric) return null;
  if (e.kind === 'ColumnRef') return e.levelsUp === 0 ? [{ kind: 'col', col: e.index, op: null, k: null, kLeft: false }] : null;
  const k = constantOf(e);
  if (k !== null) return [{ kind: 'const', k }];
  if (e.kind !== 'Op' || e.left === null || e.def.oid === undefined) return null;
  const op = NUMERIC_ARITH[e.def.oid];
  if (op === undefined || e.left.type.oid !== Oid.numeric || e.right.type.oid !== Oid.numeric) return null;
  if (op === '*') {
    const l = productFactors(e.left), r = productFactors(e.right);
    return l === null || r === null ? null : [...l, ...r];
  }
  // k ± column, column ± k
  const kl = constantOf(e.left), kr = constantOf(e.right);
  const x = kl !== null ? e.right : kr !== null ? e.left : null;
  if (x === null || x.kind !== 'ColumnRef' || x.levelsUp !== 0) return null;
  return [{ kind: 'col', col: x.index, op, k: kl ?? kr, kLeft: kl !== null }];
}

/** a numeric literal (or a cast of one, as `1` in `1 - l_discount` may be) as an exact double, else null */
function constantOf(e: Expr): Const | null {
  if (e.kind === 'Literal') return scaledConst(e.value);
  return null;
}

/** one aggregate's factors resolved for a batch */
interface Resolved {
  readonly k: number;
  /** the column summed per cell (-1: none, the cells count rows) */
  readonly wide: number;
  readonly wideF: Float64Array | null;
  /** per coded factor: its column and its value per dictionary entry */
  readonly coded: readonly { readonly col: number; readonly values: Float64Array }[];
  /** the constant factors' product */
  readonly mul: number;
  /** the product's display scale */
  readonly scale: number;
}

/** a pass over the batch: the cell sums of one wide column (or counts) by group × the codes of `cols` */
interface Pass {
  readonly wideF: Float64Array | null;
  cols: number[];
  radix: number[];
  readonly members: Resolved[];
}

/**
 * a batch's rows grouped by the dictionary codes of their string keys (partial/dictionary-key-groups.ts keyCodes):
 * row i is in key cell a[i] · kb + b[i] (one key: b = a, kb = 0), and key cell c in group ids[c] − 1 (0: the group
 * table was not asked for that key yet)
 */
export interface KeyCodes {
  readonly a: Int32Array;
  readonly b: Int32Array;
  readonly kb: number;
  /** key cells: a's entries × b's (one key: a's) */
  readonly cells: number;
  readonly ids: Int32Array;
}

export class CodedProductSums {
  readonly #plans: readonly { readonly k: number; readonly factors: readonly Factor[] }[];
  /** the count(*) aggregates (no FILTER): counted from a pass's cells */
  readonly #counts: readonly number[];
  #cell = new Int32Array(0);
  #ids = new Int32Array(0);
  /** runByKeys: key cell → group id */
  #map = new Int32Array(0);
  /** per pass of a batch: its cell counts and sums, kept between batches (zeroed per use) */
  readonly #scratch: { counts: Float64Array; sums: Float64Array }[] = [];
  /** a group total's arrays, kept between batches: mergeTyped reads them at once and keeps nothing */
  #totals = { counts: new Float64Array(0), sums: new Float64Array(0), scales: new Int32Array(0) };
  /** the loops over the rows runByKeys made for its last batch */
  #rowLoops = 0;
  /** per aggregate: its last cell weights, the layout and factor values they were made for */
  readonly #weights = new Map<number, { readonly cols: readonly number[]; readonly radix: readonly number[]; readonly values: readonly Float64Array[]; readonly w: Float64Array | null }>();

  private constructor(plans: readonly { readonly k: number; readonly factors: readonly Factor[] }[], counts: readonly number[]) {
    this.#plans = plans;
    this.#counts = counts;
  }

  /** null when no aggregate is a FILTER-less, non-DISTINCT aggregate of one numeric product */
  static tryCreate(specs: readonly { readonly args: readonly Expr[]; readonly filter: Expr | null; readonly distinct?: boolean }[]): CodedProductSums | null {
    const plans: { k: number; factors: Factor[] }[] = [];
    const counts: number[] = [];
    specs.forEach((s, k) => {
      if (s.filter !== null || s.distinct === true) return;
      // no argument: count(*) (GroupStates kind 'count' is checked per batch)
      if (s.args.length === 0) counts.push(k);
      if (s.args.length !== 1) return;
      const factors = productFactors(s.args[0]!);
      if (factors !== null && factors.some((f) => f.kind === 'col')) plans.push({ k, factors });
    });
    return plans.length === 0 ? null : new CodedProductSums(plans, counts);
  }

  /**
   * adds the batch's rows (group ids `gids`) into the typed sums of the aggregates it can take (kind 'sum' in
   * `gs`: sum / avg over numeric); returns per aggregate whether it did (null: none) — the caller steps the rest
   */
  run(cols: Cols, n: number, gids: Int32Array, gs: GroupStates, groups = maxGroup(gids, n) + 1): boolean[] | null {
    const passes = this.#passes(cols, n, gs, groups);
    if (passes === null) return null;
    if (this.#ids.length < groups) this.#ids = Int32Array.from({ length: Math.max(groups, 64) }, (_v, g) => g);
    if (this.#cell.length < n) this.#cell = new Int32Array(Math.max(n, 1024));
    return this.#merge(passes, this.#cellsOf(passes, cols, n, gids, groups), gs, groups, this.#ids);
  }

  /**
   * run() with the rows' groups given by their keys' dictionary codes (no group id per row): the cells are
   * key cell × the passes' codes, and each key cell's totals go to its group. `known` is called at most once,
   * before anything is added, when a key cell of the batch has no group yet: it must ask the group table for the
   * batch's rows in row order (DictionaryKeyGroups.assign: the groups and their order stay the table's) and size
   * `gs` for the new groups. null (nothing added) when the cells do not fit, or a pass reads no code or more
   * than two codes: the caller then steps the batch by group id.
   */
  runByKeys(cols: Cols, n: number, keys: KeyCodes, gs: GroupStates, known: () => void): boolean[] | null {
    const cells = keys.cells;
    const passes = this.#passes(cols, n, gs, cells);
    if (passes === null || passes.some((p) => p.cols.length === 0 || p.cols.length > 2)) return null;
    const all = this.#cellsByKeys(passes, cols, n, keys);
    const first = all.find((c) => c !== null);
    if (first === undefined) return null;
    const map = this.#groupMap(keys, first!.counts, known);
    return map === null ? null : this.#merge(passes, all, gs, cells, map);
  }

  /** the loops over the rows runByKeys made for its last batch (tests, diagnosis) */
  get lastRowLoops(): number { return this.#rowLoops; }

  /** which passes a batch of `n` rows in `groups` groups (or key cells) makes: codes read, wide column or counts, aggregates served (tests, diagnosis) */
  passLayout(cols: Cols, n: number, gs: GroupStates, groups: number): { cols: number[]; wide: boolean; members: number[] }[] {
    return (this.#passes(cols, n, gs, groups) ?? []).map((p) => ({ cols: [...p.cols], wide: p.wideF !== null, members: p.members.map((r) => r.k) }));
  }

  /** the batch's passes (null: none, or more groups than cells allowed) for `groups` groups (or key cells) */
  #passes(cols: Cols, n: number, gs: GroupStates, groups: number): Pass[] | null {
    if (n === 0) return null;
    const cap = Math.min(MAX_CELLS, Math.floor(n / ROWS_PER_CELL));
    if (groups > cap) return null;
    const passes: Pass[] = [];
    const countOnly: Resolved[] = [];
    for (const p of this.#plans) {
      if (gs.kinds[p.k] !== 'sum') continue;
      const r = resolve(p.k, p.factors, cols);
      if (r === null) continue;
      if (r.wide === -1) countOnly.push(r);
      else joinPass(passes, r, cols, groups, cap);
    }
    // after the wide passes have their codes: an aggregate that only counts rows reads a wide pass's cell
    // counts when its codes are among that pass's (Q1's avg(l_discount): no count loop of its own)
    for (const r of countOnly) if (!joinCountingPass(passes, r)) joinPass(passes, r, cols, groups, cap);
    return passes.length === 0 ? null : passes;
  }

  /**
   * key cell → group id in #map, from the counts of a pass's cells (key-cell-major); `known` first when a key
   * cell with rows has no group yet; null when one still has none (nothing was added)
   */
  #groupMap(keys: KeyCodes, counts: Float64Array, known: () => void): Int32Array | null {
    const cells = keys.cells, ids = keys.ids;
    if (this.#map.length < cells) this.#map = new Int32Array(Math.max(cells, 64));
    const map = this.#map;
    let asked = false;
    for (let pass = 0; pass < 2; pass++) {
      let missing = false;
      const per = counts.length / cells;
      for (let kc = 0, c = 0; kc < cells; kc++) {
        let m = 0;
        for (const end = c + per; c < end; c++) m += counts[c]!;
        const id = ids[kc]!;
        // a key cell without rows may have no group: its cells are all 0, and #merge skips them
        if (m > 0 && id === 0) missing = true;
        map[kc] = id - 1;
      }
      if (!missing) return map;
      if (asked) return null;
      known();
      asked = true;
    }
    return null;
  }

  /** the passes' cells added into `gs` (cell group g → group ids[g]); per aggregate whether it was taken */
  #merge(passes: readonly Pass[], all: readonly (Cells | null)[], gs: GroupStates, groups: number, ids: Int32Array): boolean[] | null {
    let done: boolean[] | null = null;
    let counted = false;
    for (let p = 0; p < passes.length; p++) {
      const pass = passes[p]!, cells = all[p]!;
      if (cells === null) continue;
      if (!counted) {
        counted = true;
        for (const k of this.#counts) {
          if (gs.kinds[k] !== 'count') continue;
          addGroupCounts(gs.counts[k]!, cells.counts, groups, ids);
          (done ??= new Array<boolean>(gs.kinds.length).fill(false))[k] = true;
        }
      }
      for (const r of pass.members) {
        // (a wide pass whose sums passed 2^52 kept only its counts: its count-only members are still served)
        if (r.wide !== -1 && cells.sums === null) continue;
        // a member without a wide column weighs the cells' row counts, in a pass with sums too
        const part = groupTotals(r, cells.counts, r.wide === -1 ? null : cells.sums, groups, this.#cellWeights(r, pass), this.#totalsFor(groups));
        if (part === null) continue;
        gs.mergeTyped(r.k, ids, groups, part);
        (done ??= new Array<boolean>(gs.kinds.length).fill(false))[r.k] = true;
      }
    }
    return done;
  }

  /**
   * every pass's cells (null: a sum would pass 2^52), into the kept scratch arrays; two count-only passes of one
   * code column each (TPC-H Q1: l_quantity's and l_discount's) are counted in one loop over the rows
   */
  #cellsOf(passes: readonly Pass[], cols: Cols, n: number, gids: Int32Array, groups: number): (Cells | null)[] {
    const out = new Array<Cells | null | undefined>(passes.length).fill(undefined);
    for (let p = 0; p < passes.length; p++) {
      if (out[p] !== undefined) continue;
      const a = passes[p]!;
      const mine = this.#scratchFor(p, groups * cellsPerGroup(a), a.wideF !== null);
      const q = oneCodeCount(a) ? passes.findIndex((b, j) => j > p && out[j] === undefined && oneCodeCount(b)) : -1;
      if (q === -1) {
        out[p] = cellSums(a, cols, n, gids, this.#cell, mine) ?? (servesCounts(a) ? cellSums(a, cols, n, gids, this.#cell, { counts: mine.counts.fill(0), sums: null }) : null);
        continue;
      }
      const b = passes[q]!;
      const theirs = this.#scratchFor(q, groups * cellsPerGroup(b), false);
      const ca = dictionaryScaledOf(cols[a.cols[0]!]!)!.codes, cb = dictionaryScaledOf(cols[b.cols[0]!]!)!.codes;
      countCells1x2(mine.counts, gids, ca, a.radix[0]!, theirs.counts, cb, b.radix[0]!, n);
      out[p] = mine;
      out[q] = theirs;
    }
    return out as (Cells | null)[];
  }

  /** #cellsOf with the rows' key cells for groups (every pass reads one or two codes: runByKeys) */
  #cellsByKeys(passes: readonly Pass[], cols: Cols, n: number, keys: KeyCodes): (Cells | null)[] {
    const out = new Array<Cells | null | undefined>(passes.length).fill(undefined);
    const { a, b, kb, cells } = keys;
    this.#rowLoops = 0;
    for (let p = 0; p < passes.length; p++) {
      if (out[p] !== undefined) continue;
      const x = passes[p]!;
      const mine = this.#scratchFor(p, cells * cellsPerGroup(x), x.wideF !== null);
      const codes = x.cols.map((c) => dictionaryScaledOf(cols[c]!)!.codes), radix = x.radix;
      const q = oneCodeCount(x) ? passes.findIndex((y, j) => j > p && out[j] === undefined && oneCodeCount(y)) : -1;
      if (q !== -1) {
        const y = passes[q]!;
        const theirs = this.#scratchFor(q, cells * cellsPerGroup(y), false);
        countKeyCells1x2(mine.counts, a, b, kb, codes[0]!, radix[0]!, theirs.counts, dictionaryScaledOf(cols[y.cols[0]!]!)!.codes, y.radix[0]!, n);
        this.#rowLoops++;
        out[p] = mine;
        out[q] = theirs;
        continue;
      }
      // a wide pass and a later one-code count pass: one loop over the rows for both (Q1: l_quantity's counts
      // beside l_extendedprice's sums, each row's key codes read once)
      const r = x.wideF !== null ? passes.findIndex((y, j) => j > p && out[j] === undefined && oneCodeCount(y)) : -1;
      if (r !== -1) {
        const y = passes[r]!, yc = dictionaryScaledOf(cols[y.cols[0]!]!)!.codes;
        const theirs = this.#scratchFor(r, cells * cellsPerGroup(y), false);
        out[r] = theirs;
        this.#rowLoops++;
        if (sumsWithCounts(mine, codes, radix, x.wideF!, theirs.counts, yc, y.radix[0]!, keys, n)) {
          out[p] = mine;
          continue;
        }
        // a sum passed 2^52 part-way: the counts again on their own, the wide pass as below
        countKeyCells1(theirs.counts.fill(0), a, b, kb, yc, y.radix[0]!, n);
        this.#rowLoops++;
        out[p] = this.#countsOnly(x, mine, codes, keys, n);
        continue;
      }
      const { counts, sums } = mine;
      this.#rowLoops++;
      let ok = true;
      if (codes.length === 1) {
        if (sums === null) countKeyCells1(counts, a, b, kb, codes[0]!, radix[0]!, n);
        else ok = sumKeyCells1(sums, counts, a, b, kb, codes[0]!, radix[0]!, x.wideF!, n);
      } else if (sums === null) {
        countKeyCells2(counts, a, b, kb, codes[0]!, radix[0]!, codes[1]!, radix[1]!, n);
      } else {
        ok = sumKeyCells2(sums, counts, a, b, kb, codes[0]!, radix[0]!, codes[1]!, radix[1]!, x.wideF!, n);
      }
      out[p] = ok ? mine : this.#countsOnly(x, mine, codes, keys, n);
    }
    return out as (Cells | null)[];
  }

  /** a wide pass whose sums passed 2^52, counted again without them when it serves count-only aggregates (else null) */
  #countsOnly(x: Pass, mine: Cells, codes: readonly Codes[], keys: KeyCodes, n: number): Cells | null {
    if (!servesCounts(x)) return null;
    this.#rowLoops++;
    const counts = mine.counts.fill(0), { a, b, kb } = keys;
    if (codes.length === 1) countKeyCells1(counts, a, b, kb, codes[0]!, x.radix[0]!, n);
    else countKeyCells2(counts, a, b, kb, codes[0]!, x.radix[0]!, codes[1]!, x.radix[1]!, n);
    return { counts, sums: null };
  }

  /** pass p's zeroed cell arrays of `size` cells (sums null for a count-only pass) */
  #scratchFor(p: number, size: number, withSums: boolean): Cells {
    let s = this.#scratch[p];
    if (s === undefined || s.counts.length < size) {
      s = { counts: new Float64Array(Math.max(size, 64)), sums: new Float64Array(Math.max(size, 64)) };
      this.#scratch[p] = s;
    }
    s.counts.fill(0, 0, size);
    if (withSums) s.sums.fill(0, 0, size);
    return { counts: s.counts.subarray(0, size), sums: withSums ? s.sums.subarray(0, size) : null };
  }

  /** the kept group-total arrays, at least `groups` long */
  #totalsFor(groups: number): { counts: Float64Array; sums: Float64Array; scales: Int32Array } {
    if (this.#totals.counts.length < groups) {
      const m = Math.max(groups, 64);
      this.#totals = { counts: new Float64Array(m), sums: new Float64Array(m), scales: new Int32Array(m) };
    }
    return this.#totals;
  }

  /** r's cell weights in the pass's layout: the last ones while the layout and factor values are the same */
  #cellWeights(r: Resolved, pass: Pass): Float64Array | null {
    // r's coded columns and constants are its plan's: the layout (cols, radix) and the values arrays decide
    const last = this.#weights.get(r.k);
    if (last !== undefined && sameNumbers(last.cols, pass.cols) && sameNumbers(last.radix, pass.radix) && last.values.length === r.coded.length
      && r.coded.every((c, j) => c.values === last.values[j])) return last.w;
    const w = cellWeights(r, pass);
    this.#weights.set(r.k, { cols: pass.cols, radix: pass.radix, values: r.coded.map((c) => c.values), w });
    return w;
  }
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let j = 0; j < a.length; j++) if (a[j] !== b[j]) return false;
  return true;
}

/** cnt[ids[g]] += the rows of cell group g's cells (cells group-major, counts.length / groups per group) */
function addGroupCounts(cnt: Float64Array, counts: Float64Array, groups: number, ids: Int32Array): void {
  const per = counts.length / groups;
  for (let g = 0, c = 0; g < groups; g++) {
    let m = 0;
    for (const end = c + per; c < end; c++) m += counts[c]!;
    // (a key cell without rows may have no group: runByKeys)
    if (m === 0) continue;
    const id = ids[g]!;
    cnt[id] = cnt[id]! + m;
  }
}

/** the aggregate's factors over this batch's columns; null when a column has NULLs, no doubles, or two lack a dictionary */
function resolve(k: number, factors: readonly Factor[], cols: Cols): Resolved | null {
  let wide = -1, wideF: Float64Array | null = null, mul = 1, scale = 0;
  const coded: { col: number; values: Float64Array }[] = [];
  for (const f of factors) {
    if (f.kind === 'const') {
      mul *= f.k.u;
      scale += f.k.scale;
      if (mul >= EXACT || mul <= -EXACT) return null;
      continue;
    }
    const column = cols[f.col];
    if (column === undefined) return null;
    // (a coded column's `f` is not read: the scan may gather it only on demand)
    const sc = scaledColumnOf(column);
    if (sc === undefined || sc.noNulls !== true) return null;
    const dict = dictionaryScaledOf(column);
    if (dict === undefined || dict.entries.length > MAX_ENTRIES) {
      // the one column summed per cell: as it is (an affine wide factor would need its count too)
      if (wide !== -1 || f.op !== null || sc.f.length < column.length) return null;
      wide = f.col;
      wideF = sc.f;
      scale += sc.scale;
      continue;
    }
    const v = entryValues(dict.entries, sc.scale, f);
    if (v === null) return null;
    coded.push({ col: f.col, values: v.values });
    scale += v.scale;
  }
  if (scale > NUMERIC_DSCALE_MAX) return null;
  return { k, wide, wideF, coded, mul, scale };
}

type EntryValues = { readonly values: Float64Array; readonly scale: number } | null;
/** per dictionary (its entries, shared by a chunk's batches) and factor of a plan, at a column scale: entryValues' answer */
const entryValueMemo = new WeakMap<Float64Array, Map<Factor, { readonly colScale: number; readonly v: EntryValues }>>();

/** entryValues, computed once per dictionary and factor */
function entryValues(entries: Float64Array, colScale: number, f: Extract<Factor, { kind: 'col' }>): EntryValues {
  if (f.op === null || f.k === null) return { values: entries, scale: colScale };
  let byFactor = entryValueMemo.get(entries);
  if (byFactor === undefined) { byFactor = new Map(); entryValueMemo.set(entries, byFactor); }
  const hit = byFactor.get(f);
  if (hit !== undefined && hit.colScale === colScale) return hit.v;
  const v = computeEntryValues(entries, colScale, f.op, f.k, f.kLeft);
  byFactor.set(f, { colScale, v });
  return v;
}

/** the factor's value per dictionary entry at its scale (as scaledArithConst computes it per row), or null when one does not fit */
function computeEntryValues(entries: Float64Array, colScale: number, op: '+' | '-', k: Const, kLeft: boolean): EntryValues {
  const scale = Math.max(colScale, k.scale);
  const px = POW10[scale - colScale], pk = POW10[scale - k.scale];
  if (px === undefined || pk === undefined) return null;
  const kk = k.u * pk;
  if (kk >= EXACT || kk <= -EXACT) return null;
  const s = kLeft ? 1 : op === '+' ? 1 : -1, t = kLeft && op === '-' ? -1 : 1;
  const c = s * kk;
  const values = new Float64Array(entries.length);
  for (let e = 0; e < entries.length; e++) {
    const y = entries[e]! * px, r = c + t * y;
    if (y >= EXACT || y <= -EXACT || r >= EXACT || r <= -EXACT) return null;
    values[e] = r;
  }
  return { values, scale };
}

/** puts `r` on the pass of its wide column, widening that pass's codes when the cells stay few; else a pass of its own */
function joinPass(passes: Pass[], r: Resolved, cols: Cols, groups: number, cap: number): void {
  const own = [...new Set(r.coded.map((c) => c.col))];
  for (const p of passes) {
    if (p.wideF !== r.wideF) continue;
    const extra = own.filter((c) => !p.cols.includes(c));
    if (extra.length === 0) { p.members.push(r); return; }
    // widening changes the cell layout: fine, the passes run after every aggregate joined one
    const radix = [...p.radix, ...extra.map((c) => dictionaryScaledOf(cols[c]!)!.entries.length)];
    if (groups * radix.reduce((a, b) => a * b, 1) > cap) continue;
    p.cols = [...p.cols, ...extra];
    p.radix = radix;
    p.members.push(r);
    return;
  }
  const radix = own.map((c) => dictionaryScaledOf(cols[c]!)!.entries.length);
  if (groups * radix.reduce((a, b) => a * b, 1) > cap) return;
  passes.push({ wideF: r.wideF, cols: own, radix, members: [r] });
}

/** puts count-only `r` (no wide column) on a pass of a wide column that already reads all its codes; false when none does */
function joinCountingPass(passes: Pass[], r: Resolved): boolean {
  for (const p of passes) {
    if (p.wideF === null || !r.coded.every((c) => p.cols.includes(c.col))) continue;
    p.members.push(r);
    return true;
  }
  return false;
}

/** a pass's cells: rows per cell and, with a wide column, their sums (group-major, then the pass's codes in order) */
interface Cells { readonly counts: Float64Array; readonly sums: Float64Array | null }

/** the cells of one group in the pass's layout */
function cellsPerGroup(pass: Pass): number {
  let per = 1;
  for (const k of pass.radix) per *= k;
  return per;
}

/** a wide pass with count-only members (joinCountingPass) */
const servesCounts = (p: Pass): boolean => p.wideF !== null && p.members.some((r) => r.wide === -1);

/**
 * a wide pass's cell sums (`mine`, codes `codes` of radix `radix`, wide column `f`) and a one-code count pass's
 * counts (`qc` by codes `q` of radix `kq`) in one loop; a batch of one key cell reads no key code. false when a sum
 * would pass 2^52 (both then hold only some rows)
 */
function sumsWithCounts(mine: Cells, codes: readonly Codes[], radix: readonly number[], f: Float64Array, qc: Float64Array, q: Codes, kq: number, keys: KeyCodes, n: number): boolean {
  const sums = mine.sums!, counts = mine.counts;
  if (keys.cells === 1) {
    // every key code is 0: cell (0 · k0 + c0) · k1 + c1 = c0 · k1 + c1, count cell 0 · kq + q = q
    return codes.length === 1 ? sumCodes1Count1(sums, counts, codes[0]!, f, qc, q, n) : sumCodes2Count1(sums, counts, codes[0]!, codes[1]!, radix[1]!, f, qc, q, n);
  }
  const { a, b, kb } = keys;
  return codes.length === 1
    ? sumKeyCells1Count1(sums, counts, a, b, kb, codes[0]!, radix[0]!, f, qc, q, kq, n)
    : sumKeyCells2Count1(sums, counts, a, b, kb, codes[0]!, radix[0]!, codes[1]!, radix[1]!, f, qc, q, kq, n);
}

/** a pass that only counts rows by one code column */
const oneCodeCount = (p: Pass): boolean => p.wideF === null && p.cols.length === 1;

/** the largest group id of rows 0..n-1 (-1: none) */
export function maxGroup(gids: Int32Array, n: number): number {
  let max = -1;
  for (let i = 0; i < n; i++) { const g = gids[i]!; if (g > max) max = g; }
  return max;
}

/**
 * the pass's cells into `into` (zeroed, sized for the batch's groups); null when a sum would pass 2^52. One or
 * two code columns are read in the loop that adds (one pass over the rows); more are first folded into `cell`
 * (the loops: coded-cell-loops.ts).
 */
function cellSums(pass: Pass, cols: Cols, n: number, gids: Int32Array, cell: Int32Array, into: Cells): Cells | null {
  const { counts, sums } = into;
  const f = pass.wideF;
  const codes = pass.cols.map((c) => dictionaryScaledOf(cols[c]!)!.codes), radix = pass.radix;
  let ok = true;
  if (codes.length === 0) {
    ok = sums === null ? countCells(counts, gids, n) : sumCells(sums, counts, gids, f!, n);
  } else if (codes.length === 1) {
    ok = sums === null ? countCells1(counts, gids, codes[0]!, radix[0]!, n) : sumCells1(sums, counts, gids, codes[0]!, radix[0]!, f!, n);
  } else if (codes.length === 2) {
    ok = sums === null ? countCells2(counts, gids, codes[0]!, radix[0]!, codes[1]!, radix[1]!, n) : sumCells2(sums, counts, gids, codes[0]!, radix[0]!, codes[1]!, radix[1]!, f!, n);
  } else {
    firstCodes(cell, gids, codes[0]!, radix[0]!, n);
    for (let j = 1; j < codes.length; j++) moreCodes(cell, codes[j]!, radix[j]!, n);
    ok = sums === null ? countCells(counts, cell, n) : sumCells(sums, counts, cell, f!, n);
  }
  return ok ? into : null;
}

/**
 * aggregate r's per-group partial (counts, unscaled sums at r.scale, bigint overflow) from its pass's cells, in
 * `out`'s arrays (read at once by mergeTyped); null when a factor product does not fit
 */
function groupTotals(r: Resolved, counts: Float64Array, sums: Float64Array | null, groups: number, w: Float64Array | null, out: { counts: Float64Array; sums: Float64Array; scales: Int32Array }): { counts: Float64Array; sums: Float64Array; scales: Int32Array; bigs: (bigint | undefined)[] | null } | null {
  if (w === null) return null;
  const per = w.length;
  const outCounts = out.counts, outSums = out.sums;
  let bigs: (bigint | undefined)[] | null = null;
  for (let g = 0; g < groups; g++) {
    let cnt = 0, acc = 0, big = 0n, moved = false;
    for (let q = 0, c = g * per; q < per; q++, c++) {
      const m = counts[c]!;
      if (m === 0) continue;
      cnt += m;
      const v = sums === null ? m : sums[c]!, term = w[q]! * v;
      if (term < EXACT && term > -EXACT) {
        const t = acc + term;
        if (t < PART_LIMIT && t > -PART_LIMIT) { acc = t; continue; }
        big += BigInt(acc) + BigInt(term);
        acc = 0;
      } else {
        big += BigInt(w[q]!) * BigInt(v);
      }
      moved = true;
    }
    outCounts[g] = cnt;
    outSums[g] = acc;
    if (moved) (bigs ??= new Array<bigint | undefined>(groups))[g] = big;
  }
  return { counts: outCounts, sums: outSums, scales: out.scales.fill(r.scale, 0, groups), bigs };
}

/** per cell of a group (the pass's code layout): the product of r's factors there; null when one does not fit in 2^53 */
function cellWeights(r: Resolved, pass: Pass): Float64Array | null {
  let per = 1;
  for (const k of pass.radix) per *= k;
  const w = new Float64Array(per).fill(r.mul);
  for (const f of r.coded) {
    const pos = pass.cols.indexOf(f.col);
    let stride = 1;
    for (let j = pos + 1; j < pass.radix.length; j++) stride *= pass.radix[j]!;
    if (!scaleCells(w, f.values, pass.radix[pos]!, stride)) return null;
  }
  return w;
}

/** w[q] ×= values[digit of q at `stride` in radix k], block by block (no division per cell); false past 2^53 */
function scaleCells(w: Float64Array, values: Float64Array, k: number, stride: number): boolean {
  for (let b = 0; b < w.length; b += stride * k) {
    for (let d = 0; d < k; d++) {
      const v = values[d]!;
      for (let q = b + d * stride, end = q + stride; q < end; q++) {
        const x = w[q]! * v;
        if (x >= EXACT || x <= -EXACT) return false;
        w[q] = x;
      }
    }
  }
  return true;
}
