/**
 * Pushed filters evaluated on Arrow buffers, before any value becomes a JS value: late materialization's
 * first phase (late-materialization.ts) then converts only the rows that may match, also in the filter
 * columns. A point lookup `WHERE o_orderkey = k` over 1.5M rows used to turn every int8 into a BigInt and
 * call a comparison closure per row; here it is one loop over the Int32 halves of the int64 buffer.
 *
 * Handled: `col op constant` and `col IN (…)` on int / date (32-bit) and long / timestamp[µs] (64-bit, or
 * 32-bit data of a promoted int column), IS [NOT] NULL, strings and char(n) (arrow-string-filter.ts: =, <>,
 * IN, LIKE prefix), decimal128 compares (arrow-decimal-filter.ts), two integer / date / timestamp columns of a
 * row compared (arrow-column-pair.ts), and AND / OR of those. Conjuncts not
 * handled (floats — NaN rules —, decimal IN, string order) keep every row and the result says it is not
 * `complete`: the caller then runs the JS-value filter on the rows kept; when nothing is handled it runs
 * that filter alone. Conjuncts run cheapest and most selective first (integer IN / = — a join's runtime key
 * filter —, then other integer tests, decimals, strings), each visiting only the rows the earlier ones kept
 * (a list of row numbers, arrow-leaf.ts Selection: after a runtime key filter kept a few rows of a batch, the
 * other conjuncts and each OR arm cost those rows, not the batch).
 */
import { Type, type Data } from 'apache-arrow';
import { compareOpTest, type BoundPredicate } from '../scan/bound-predicate.ts';
import { EXACT, NOTHING, SOME, isNullAt, validity, type ArrowNode, type Judged, type Selection } from './arrow-leaf.ts';
import { prefixSetLeaf, stringLeaf } from './arrow-string-filter.ts';
import { decimalLeaf } from './arrow-decimal-filter.ts';
import { IntKeySet } from './int-key-set.ts';
import { allOfLeaves, perDictionaryEntry } from './arrow-dictionary-filter.ts';
import { columnPairLeaf } from './arrow-column-pair.ts';
import { int64KeysSplit, intKeyListRepr } from '../scan/int-key-list.ts';

/**
 * indexes (ascending) of the rows of `length` that may match, `complete` when every conjunct was judged (else
 * the caller applies the whole filter to those rows' values too), or null when nothing here could judge them.
 * `keep`: the rows still in question — a mask (1 = in question, 0 = an earlier pass ruled it out; written: the
 * rows kept stay 1) or an ascending list of row numbers (not written); absent: every row.
 */
export type ArrowRowSelect = (data: readonly (Data | undefined)[], length: number, keep?: Uint8Array | Int32Array) => { readonly rows: readonly number[]; readonly complete: boolean } | null;

const INT32_TYPES = new Set(['int', 'date']);
const INT64_TYPES = new Set(['long', 'timestamp', 'timestamptz']);
const TWO32 = 4294967296;
const HI53 = 0x200000;

/** narrows `sel` to the non-null rows whose value passes `test(compare(row))` */
function apply32(d: Data, sel: Selection, value: number, test: (c: number) => boolean): void {
  const vals = d.values as Int32Array;
  const bm = validity(d), off = d.offset, rows = sel.rows;
  let m = 0;
  for (let k = 0; k < sel.n; k++) {
    const i = rows[k]!;
    if (bm !== null && isNullAt(bm, off + i)) continue;
    const v = vals[i]!;
    if (test(v < value ? -1 : v > value ? 1 : 0)) rows[m++] = i;
  }
  sel.n = m;
}

function apply64(d: Data, sel: Selection, value: bigint, test: (c: number) => boolean): void {
  const big = d.values as BigInt64Array;
  const words = new Int32Array(big.buffer, big.byteOffset, big.length * 2);
  const lows = new Uint32Array(big.buffer, big.byteOffset, big.length * 2);
  const chi = Number(BigInt.asIntN(32, value >> 32n)), clo = Number(BigInt.asUintN(32, value));
  const bm = validity(d), off = d.offset, rows = sel.rows;
  let m = 0;
  for (let k = 0; k < sel.n; k++) {
    const i = rows[k]!;
    if (bm !== null && isNullAt(bm, off + i)) continue;
    const hi = words[2 * i + 1]!;
    let c: number;
    if (hi !== chi) c = hi < chi ? -1 : 1;
    else {
      const lo = lows[2 * i]!;
      c = lo < clo ? -1 : lo > clo ? 1 : 0;
    }
    if (test(c)) rows[m++] = i;
  }
  sel.n = m;
}

/**
 * `col IN (…)` over 32-bit data: one key-set probe per row in question (a bitmap when the keys are dense:
 * int-key-set.ts). Every row of the chunk in question (`sel.n === length`: the list is ascending and distinct, so
 * it is 0 … length − 1) — a runtime key filter judged first on a whole batch — loops over the rows directly.
 */
function applyIn32(d: Data, length: number, sel: Selection, set: IntKeySet): void {
  const vals = d.values as Int32Array;
  const bm = validity(d), off = d.offset, rows = sel.rows;
  let m = 0;
  if (sel.n === length && bm === null) {
    m = set.selectAll(vals, length, rows);
  } else {
    for (let k = 0; k < sel.n; k++) {
      const i = rows[k]!;
      if ((bm === null || !isNullAt(bm, off + i)) && set.has(vals[i]!)) rows[m++] = i;
    }
  }
  sel.n = m;
}

/** `col IN (…)` over 64-bit data: values within ±2^53 as doubles from their two words, the rest as bigints (every row in question: as applyIn32) */
function applyIn64(d: Data, length: number, sel: Selection, small: IntKeySet, big: ReadonlySet<bigint>): void {
  const vals = d.values as BigInt64Array;
  const words = new Int32Array(vals.buffer, vals.byteOffset, vals.length * 2);
  const lows = new Uint32Array(vals.buffer, vals.byteOffset, vals.length * 2);
  const bm = validity(d), off = d.offset, rows = sel.rows;
  const all = sel.n === length && bm === null;
  let m = 0;
  for (let k = 0; k < sel.n; k++) {
    const i = all ? k : rows[k]!;
    if (bm !== null && isNullAt(bm, off + i)) continue;
    const hi = words[2 * i + 1]!;
    const hit = hi >= -HI53 && hi < HI53 ? small.has(hi * TWO32 + lows[2 * i]!) : big.size > 0 && big.has(vals[i]!);
    if (hit) rows[m++] = i;
  }
  sel.n = m;
}

/** 32-bit integers, or date32 (days; a date64 chunk also has 32-bit words, in pairs) */
const is32 = (d: Data): boolean => d.values instanceof Int32Array
  && (d.typeId === Type.Int || (d.typeId === Type.Date && (d.type as { unit?: number }).unit === 0));
/** 64-bit integers, or timestamps in µs (the unit the JS values have: arrow-fast-columns.ts) */
const is64 = (d: Data): boolean => d.values instanceof BigInt64Array
  && (d.typeId === Type.Int || (d.typeId === Type.Timestamp && (d.type as { unit?: number }).unit === 2));
/** 32-bit data of an int column promoted to long */
const isPromoted = (d: Data, p: { type: { name: string } }): boolean => d.values instanceof Int32Array && d.typeId === Type.Int && p.type.name === 'long';

function integerLeaf(p: BoundPredicate, c: number): ArrowNode | null {
  if (p.kind === 'compare') {
    const test = compareOpTest(p.op);
    if (INT32_TYPES.has(p.type.name) && typeof p.value === 'number' && Number.isInteger(p.value)) {
      const value = p.value;
      return (data, _length, sel) => {
        const d = data[c];
        if (d === undefined || !is32(d)) return NOTHING;
        apply32(d, sel, value, test);
        return EXACT;
      };
    }
    if (INT64_TYPES.has(p.type.name) && typeof p.value === 'bigint') {
      const value = p.value;
      const small = value >= -(2n ** 31n) && value < 2n ** 31n;
      return (data, _length, sel) => {
        const d = data[c];
        if (d === undefined) return NOTHING;
        if (is64(d)) apply64(d, sel, value, test);
        // an int column promoted to long: its 32-bit values against a constant beyond int range
        else if (isPromoted(d, p)) apply32(d, sel, small ? Number(value) : value < 0n ? -(2 ** 31) - 1 : 2 ** 31, test);
        else return NOTHING;
        return EXACT;
      };
    }
    return null;
  }
  if (p.kind !== 'in') return null;
  if (INT32_TYPES.has(p.type.name) && allOf(p.values, 'number')) {
    const set = int32SetOf(p.values as readonly number[]);
    return (data, length, sel) => {
      const d = data[c];
      if (d === undefined || !is32(d)) return NOTHING;
      applyIn32(d, length, sel, set);
      return EXACT;
    };
  }
  if (INT64_TYPES.has(p.type.name) && allOf(p.values, 'bigint')) {
    const { small, big } = int64SetsOf(p.values as readonly bigint[]);
    return (data, length, sel) => {
      const d = data[c];
      if (d === undefined) return NOTHING;
      if (is64(d)) applyIn64(d, length, sel, small, big);
      else if (isPromoted(d, p)) applyIn32(d, length, sel, small); // values beyond int range never match
      else return NOTHING;
      return EXACT;
    };
  }
  return null;
}

/**
 * whether every value is an integral number ('number') or a bigint ('bigint'), answered once per values array:
 * the filter is compiled once per file, and a runtime key filter's list (thousands of keys, the same array for
 * every file of a scan in a worker) was walked again each time — TPC-H q22's 80 orders files × 3,829 keys were
 * 13 % of the scan worker's CPU
 */
const kindOfList = new WeakMap<readonly unknown[], 'number' | 'bigint' | null>();

function allOf(values: readonly unknown[], kind: 'number' | 'bigint'): boolean {
  let k = kindOfList.get(values);
  if (k === undefined) {
    // a runtime key filter's list says what it holds (scan/int-key-list.ts): no pass over its keys
    k = intKeyListRepr(values) ?? (values.every((v) => typeof v === 'number' && Number.isInteger(v)) ? 'number' : values.every((v) => typeof v === 'bigint') ? 'bigint' : null);
    kindOfList.set(values, k);
  }
  // an empty list is both
  return k === kind || values.length === 0;
}

/**
 * The lookup sets of an IN list, built once per values array: a scan worker keeps one decoded filter per scan
 * (parallel/filter-wire.ts), so the runtime key filter's tens of thousands of keys are hashed once per worker and
 * scan, not once per file
 */
const int32Sets = new WeakMap<readonly number[], IntKeySet>();
const int64Sets = new WeakMap<readonly bigint[], { small: IntKeySet; big: ReadonlySet<bigint> }>();

function int32SetOf(values: readonly number[]): IntKeySet {
  let set = int32Sets.get(values);
  if (set === undefined) int32Sets.set(values, set = IntKeySet.of(values));
  return set;
}

/** -2^53: the least value probed as a double (applyIn64 takes high words in [-HI53, HI53)) */
const LEAST_SMALL = -(HI53 * TWO32);
const LEAST_SMALL_BIG = BigInt(LEAST_SMALL);

/**
 * values within [-2^53, 2^53) as doubles (probed from the two 32-bit words), the rest as bigints. One pass with
 * one Number() per key and no bigint comparison but at the edge: a runtime key filter's 57,000 order keys (TPC-H
 * SF 1 q4) went through two filters of two bigint comparisons each and a map, ~15 ms per scan worker and scan.
 */
function int64SetsOf(values: readonly bigint[]): { small: IntKeySet; big: ReadonlySet<bigint> } {
  let sets = int64Sets.get(values);
  // a runtime key filter's list split from its typed words, no BigInt read per key (scan/int-key-list.ts)
  const split = sets === undefined ? int64KeysSplit(values) : undefined;
  if (split !== undefined) int64Sets.set(values, sets = { small: IntKeySet.of(split.small), big: new Set(split.big) });
  if (sets === undefined) {
    const small: number[] = [];
    const big = new Set<bigint>();
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      const x = Number(v);
      // exact inside (-2^53, 2^53); at -2^53 a value just below rounds to it, so that one bound is compared exactly
      if ((x > LEAST_SMALL && x < -LEAST_SMALL) || v === LEAST_SMALL_BIG) small.push(x);
      else big.add(v);
    }
    sets = { small: IntKeySet.of(small), big };
    int64Sets.set(values, sets);
  }
  return sets;
}

function nullLeaf(wantNull: boolean, c: number): ArrowNode {
  return (data, _length, sel) => {
    const d = data[c];
    if (d === undefined) return NOTHING;
    const bm = validity(d), off = d.offset, rows = sel.rows;
    let m = 0;
    for (let k = 0; k < sel.n; k++) {
      const i = rows[k]!;
      if ((bm !== null && isNullAt(bm, off + i)) === wantNull) rows[m++] = i;
    }
    sel.n = m;
    return EXACT;
  };
}

/** a node with its run order among conjuncts (lower first) and whether every part of it compiled */
interface Compiled { readonly node: ArrowNode; readonly rank: number; readonly whole: boolean }

function compile(p: BoundPredicate, indexOfId: ReadonlyMap<number, number>): Compiled | null {
  if (p.kind === 'and') return andNode(conjunctsOf(p.args, indexOfId));
  if (p.kind === 'or') return prefixSetOf(p.args, indexOfId) ?? orNode(p.args.map((a) => compile(a, indexOfId)));
  if (p.kind === 'compareFields') return pairOf(p, indexOfId);
  if (!('fieldId' in p)) return null; // true / false
  const c = indexOfId.get(p.fieldId);
  if (c === undefined) return null;
  if (p.kind === 'isNull' || p.kind === 'isNotNull') return { node: nullLeaf(p.kind === 'isNull', c), rank: 1, whole: true };
  // integers, dates and decimals of a dictionary-coded chunk are judged once per entry (arrow-dictionary-filter.ts)
  const coded = codedLeaf(p, c);
  if (coded !== null) return { node: perDictionaryEntry(coded.leaf, c), rank: coded.rank, whole: true };
  const str = stringLeaf(p, c);
  return str === null ? null : { node: str, rank: 3, whole: true };
}

/** an integer, date or decimal leaf (judged per dictionary entry on coded chunks) with its rank, or null */
function codedLeaf(p: BoundPredicate, c: number): { readonly leaf: ArrowNode; readonly rank: number } | null {
  const int = integerLeaf(p, c);
  if (int !== null) return { leaf: int, rank: p.kind === 'in' || (p.kind === 'compare' && p.op === '=') ? 0 : 1 };
  const dec = decimalLeaf(p, c);
  return dec === null ? null : { leaf: dec, rank: 2 };
}

/**
 * the compiled conjuncts of an AND, those coded leaves that read the same column merged into one
 * (arrow-dictionary-filter.ts allOfLeaves): a range `x >= a AND x < b` then costs one lookup per row
 */
function conjunctsOf(args: readonly BoundPredicate[], indexOfId: ReadonlyMap<number, number>): (Compiled | null)[] {
  const out: (Compiled | null)[] = [];
  // a column's merged leaf takes the place of its first conjunct (equal ranks keep the written order)
  const byColumn = new Map<number, { at: number; leaves: ArrowNode[]; rank: number }>();
  for (const a of args) {
    const c = a.kind === 'compare' || a.kind === 'in' ? indexOfId.get(a.fieldId) : undefined;
    const coded = c === undefined ? null : codedLeaf(a, c);
    if (coded === null) {
      out.push(compile(a, indexOfId));
      continue;
    }
    const group = byColumn.get(c!);
    if (group === undefined) {
      byColumn.set(c!, { at: out.length, leaves: [coded.leaf], rank: coded.rank });
      out.push(null);
    } else {
      group.leaves.push(coded.leaf);
      group.rank = Math.min(group.rank, coded.rank);
    }
  }
  for (const [c, g] of byColumn) {
    const leaf = g.leaves.length === 1 ? g.leaves[0]! : allOfLeaves(g.leaves);
    out[g.at] = { node: perDictionaryEntry(leaf, c), rank: g.rank, whole: true };
  }
  return out;
}

/**
 * a column pair (arrow-column-pair.ts), after the one-column integer tests: TPC-H q12's two date pairs then
 * visit the rows its l_receiptdate range kept
 */
function pairOf(p: Extract<BoundPredicate, { kind: 'compareFields' }>, indexOfId: ReadonlyMap<number, number>): Compiled | null {
  const a = indexOfId.get(p.leftId), b = indexOfId.get(p.rightId);
  const node = a === undefined || b === undefined ? null : columnPairLeaf(p, a, b);
  return node === null ? null : { node, rank: 2, whole: true };
}

/** an OR of string prefixes on one column as one pass (arrow-string-filter.ts prefixSetLeaf) */
function prefixSetOf(args: readonly BoundPredicate[], indexOfId: ReadonlyMap<number, number>): Compiled | null {
  const a = args[0];
  const c = a !== undefined && 'fieldId' in a ? indexOfId.get(a.fieldId) : undefined;
  const node = c === undefined ? null : prefixSetLeaf(args, c);
  return node === null ? null : { node, rank: 3, whole: true };
}

function andNode(parts: readonly (Compiled | null)[]): Compiled | null {
  const nodes = parts.filter((x): x is Compiled => x !== null).sort((a, b) => a.rank - b.rank);
  if (nodes.length === 0) return null;
  const whole = nodes.length === parts.length && nodes.every((n) => n.whole);
  return {
    rank: nodes[0]!.rank,
    whole,
    node: (data, length, sel) => {
      let exact = 0, none = 0;
      for (const n of nodes) {
        const j = n.node(data, length, sel);
        if (j === EXACT) exact++;
        else if (j === NOTHING) none++;
      }
      return none === nodes.length ? NOTHING : whole && exact === nodes.length ? EXACT : SOME;
    },
  };
}

/** the union of ascending lists a[0..an) and b[0..bn) into `out` (ascending, no duplicates); returns its length */
function unionInto(a: Int32Array, an: number, b: Int32Array, bn: number, out: Int32Array): number {
  let i = 0, j = 0, k = 0;
  while (i < an && j < bn) {
    const x = a[i]!, y = b[j]!;
    if (x < y) { out[k++] = x; i++; } else if (y < x) { out[k++] = y; j++; } else { out[k++] = x; i++; j++; }
  }
  while (i < an) out[k++] = a[i++]!;
  while (j < bn) out[k++] = b[j++]!;
  return k;
}

/**
 * every arm must be judged (an arm that keeps all rows makes the OR keep all); each arm sees the rows in
 * question and keeps its own, the OR keeps their union (TPC-H q19's three quantity ranges after the key test:
 * a few rows per batch, not three copies of a batch-long mask)
 */
function orNode(parts: readonly (Compiled | null)[]): Compiled | null {
  if (parts.length === 0 || parts.some((x) => x === null)) return null;
  const arms = parts as readonly Compiled[];
  const whole = arms.every((a) => a.whole);
  return {
    rank: 4,
    whole,
    node: (data, length, sel) => {
      const n = sel.n;
      const input = sel.rows.slice(0, n);
      const arm: Selection = { rows: new Int32Array(n), n: 0 };
      let union = new Int32Array(n), spare = new Int32Array(n), un = 0;
      let exact = true;
      for (const a of arms) {
        arm.rows.set(input);
        arm.n = n;
        const j: Judged = a.node(data, length, arm);
        if (j === NOTHING) return NOTHING;
        if (j !== EXACT) exact = false;
        un = unionInto(union, un, arm.rows, arm.n, spare);
        const t = union;
        union = spare;
        spare = t;
        // every row in question matched an arm: the later arms cannot add one
        if (un === n) break;
      }
      sel.rows.set(union.subarray(0, un));
      sel.n = un;
      return exact && whole ? EXACT : SOME;
    },
  };
}

/** The Arrow-level select of `p` (columns by field id → index in the data array), or null when no conjunct is handled. */
export function compileArrowSelect(p: BoundPredicate, indexOfId: ReadonlyMap<number, number>): ArrowRowSelect | null {
  const top = compile(p, indexOfId);
  if (top === null) return null;
  return (data, length, initial) => {
    // `initial`: rows already ruled out by an earlier pass, which no conjunct visits again
    const sel = selectionOf(length, initial);
    const j = top.node(data, length, sel);
    if (j === NOTHING) return null;
    const rows = sel.n === length ? everyRow(length) : rowsOf(sel);
    if (initial instanceof Uint8Array) {
      initial.fill(0);
      for (let k = 0; k < sel.n; k++) initial[sel.rows[k]!] = 1;
    }
    return { rows, complete: j === EXACT && top.whole };
  };
}

/** the kept rows as a fresh list */
function rowsOf(sel: Selection): number[] {
  const rows: number[] = new Array<number>(sel.n);
  for (let k = 0; k < sel.n; k++) rows[k] = sel.rows[k]!;
  return rows;
}

/**
 * 0 … n − 1, shared by every call that kept all n rows of its batch, for the few lengths met last (the
 * decoder's 8,192-row batches; a row group's shorter last batch): a filter that keeps whole batches (TPC-H q1's
 * l_shipdate keeps 99 % of lineitem) made a fresh list per batch, 8 bytes per scanned row of garbage (9.5 MB of
 * q1's 36 MB per pass over SF 0.2 in a scan worker). Never written: ArrowRowSelect's rows are read-only.
 */
const everyRowLists = new Map<number, readonly number[]>();
const EVERY_ROW_LENGTHS = 4;

function everyRow(n: number): readonly number[] {
  let list = everyRowLists.get(n);
  if (list !== undefined) {
    // most recently used last: a run of odd last-batch lengths does not push out the full batches' list
    everyRowLists.delete(n);
  } else {
    const fresh: number[] = new Array<number>(n);
    for (let i = 0; i < n; i++) fresh[i] = i;
    list = fresh;
    // a longer batch (no decoder's) gets its own list: a kept list stays small
    if (n > SCRATCH_MAX) return list;
    if (everyRowLists.size >= EVERY_ROW_LENGTHS) everyRowLists.delete(everyRowLists.keys().next().value!);
  }
  everyRowLists.set(n, list);
  return list;
}

/**
 * the row list of every call, grown as needed up to SCRATCH_MAX rows (a longer chunk gets a list of its own): a
 * select runs synchronously to its end and copies the rows it kept out, so one buffer per thread serves every
 * batch (a batch-long Int32Array per call was garbage of 4 bytes per scanned row)
 */
let scratch = new Int32Array(0);
const SCRATCH_MAX = 1 << 16;

/** the rows in question: every row, those of a mask, or (a copy of) a row list */
function selectionOf(length: number, initial: Uint8Array | Int32Array | undefined): Selection {
  const need = initial instanceof Int32Array ? initial.length : length;
  if (scratch.length < need && need <= SCRATCH_MAX) scratch = new Int32Array(Math.min(SCRATCH_MAX, Math.max(need, 2 * scratch.length)));
  const rows = need <= scratch.length ? scratch : new Int32Array(need);
  let n = 0;
  if (initial === undefined) for (; n < length; n++) rows[n] = n;
  else if (initial instanceof Int32Array) { rows.set(initial); n = initial.length; }
  else for (let i = 0; i < length; i++) if (initial[i] === 1) rows[n++] = i;
  return { rows, n };
}
