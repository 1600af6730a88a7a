/**
 * CodedProductSums: sums / avgs of numeric products through dictionary codes give exactly the sums of the
 * per-row Numeric products (numeric.c's scales), and leave to the vector kernels what they cannot take.
 */
import { describe, expect, it } from 'vitest';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { attachLazyScaled, LAZY_NUMERIC } from '../../common/pgtypes/numeric-column.ts';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import type { AggregateDef, EvalContext } from '../../functions/registry-types.ts';
import { attachDictionaryScaled } from '../../iceberg/read/dictionary-scaled.ts';
import type { Expr } from '../../sql/index.ts';
import { testRegistry } from '../testing/run-sql.ts';
import { CodedProductSums, productFactors } from './coded-product-sums.ts';
import { GroupStates, type GroupStateSpec } from './group-states.ts';

const ctx = {} as EvalContext;
const NUM = sqlType(Oid.numeric);

function spec(name: string): GroupStateSpec {
  const def = testRegistry().routines(name).find((d) => d.kind === 'aggregate' && d.args.length === 1 && d.args[0] === Oid.numeric) as AggregateDef;
  return { def, argTypes: [NUM], type: NUM };
}

const col = (index: number): Expr => ({ kind: 'ColumnRef', index, levelsUp: 0, type: NUM, name: `c${index}` });
const lit = (text: string): Expr => ({ kind: 'Literal', value: Numeric.parse(text), type: NUM });
const OPS = { '+': 1758, '-': 1759, '*': 1760 } as const;
const op = (name: '+' | '-' | '*', left: Expr, right: Expr): Expr =>
  ({ kind: 'Op', name, def: { oid: OPS[name] }, left, right, leftType: NUM, rightType: NUM, type: NUM }) as unknown as Expr;

let seed = 11;
const rand = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };

interface Column { readonly values: readonly unknown[]; readonly f: Float64Array; readonly scale: number }

/** a lazy decimal column of n rows; with `entries`, dictionary-coded over them (as the scan attaches it) */
function column(n: number, scale: number, value: () => number, entries?: readonly number[], nulls = false): Column {
  const f = new Float64Array(n), codes = new Uint8Array(n);
  const out = new Array<unknown>(n).fill(LAZY_NUMERIC);
  for (let i = 0; i < n; i++) {
    if (entries !== undefined) { codes[i] = Math.floor(rand() * entries.length); f[i] = entries[codes[i]!]!; } else f[i] = value();
    if (nulls && i % 17 === 0) { out[i] = null; f[i] = 0; }
  }
  attachLazyScaled(out, f, scale, !nulls);
  if (entries !== undefined && !nulls) attachDictionaryScaled(out, { codes, entries: Float64Array.from(entries) });
  return { values: out, f, scale };
}

/** expression value of row i, by Numeric arithmetic (the row closures' answer) */
function evaluate(e: Expr, cols: readonly Column[], i: number): Numeric | null {
  if (e.kind === 'Literal') return e.value as Numeric;
  if (e.kind === 'ColumnRef') { const c = cols[e.index]!; return c.values[i] === null ? null : Numeric.of(BigInt(c.f[i]!), c.scale); }
  const o = e as unknown as { name: '+' | '-' | '*'; left: Expr; right: Expr };
  const l = evaluate(o.left, cols, i), r = evaluate(o.right, cols, i);
  if (l === null || r === null) return null;
  return o.name === '+' ? l.add(r) : o.name === '-' ? l.sub(r) : l.mul(r);
}

/** runs `exprs` as sum (and avg for the odd ones) over one batch both ways; what run() took, and the finals */
function compare(exprs: readonly Expr[], cols: readonly Column[], n: number, groups: number): { taken: boolean[] | null; fast: string[]; slow: string[] } {
  const specs = exprs.map((_e, k) => spec(k % 2 === 0 ? 'sum' : 'avg'));
  const fast = new GroupStates(specs, ctx), slow = new GroupStates(specs, ctx);
  fast.ensure(groups);
  slow.ensure(groups);
  const gids = Int32Array.from({ length: n }, () => Math.floor(rand() * groups));
  const coded = CodedProductSums.tryCreate(exprs.map((e) => ({ args: [e], filter: null })))!;
  const taken = coded.run(cols.map((c) => c.values), n, gids, fast);
  exprs.forEach((e, k) => {
    for (let i = 0; i < n; i++) {
      const v = evaluate(e, cols, i);
      if (v === null) continue;
      slow.state(k, gids[i]!).step([v]);
      if (taken?.[k] !== true) fast.state(k, gids[i]!).step([v]);
    }
  });
  const finals = (gs: GroupStates): string[] => exprs.flatMap((_e, k) => Array.from({ length: groups }, (_g, g) => String(gs.final(k, g))));
  return { taken, fast: finals(fast), slow: finals(slow) };
}

const DISC = Array.from({ length: 11 }, (_v, k) => k); // 0.00 … 0.10
const TAX = Array.from({ length: 9 }, (_v, k) => k);

describe('CodedProductSums', () => {
  it('takes TPC-H Q1 shapes and gives the per-row sums exactly', () => {
    const n = 8192;
    const cols = [
      column(n, 2, () => Math.floor(rand() * 1e7) - 3e6), // price: wide, negatives
      column(n, 2, () => 0, DISC),
      column(n, 2, () => 0, TAX),
      column(n, 2, () => 0, Array.from({ length: 50 }, (_v, k) => (k + 1) * 100)),
    ];
    const exprs = [
      col(0), col(0), col(3), col(3), col(1),
      op('*', col(0), op('-', lit('1'), col(1))),
      op('*', op('*', col(0), op('-', lit('1'), col(1))), op('+', lit('1'), col(2))),
      op('*', col(0), op('-', col(1), lit('1'))), // x − k
      op('*', op('+', col(1), lit('0.5')), col(0)), // a constant of another scale
      op('*', op('*', lit('2.5'), col(0)), col(1)), // constant factor
      op('*', op('*', col(1), col(1)), col(2)), // a column twice, no wide one
    ];
    const r = compare(exprs, cols, n, 4);
    expect(r.taken).toEqual(exprs.map(() => true));
    expect(r.fast).toEqual(r.slow);
  });

  it('multiplies as bigints past 2^53 and moves group sums past 2^52', () => {
    const n = 8192;
    const cols = [column(n, 2, () => 1e11 + Math.floor(rand() * 1e9)), column(n, 2, () => 0, DISC.map((d) => d - 5)), column(n, 2, () => 0, TAX)];
    const exprs = [op('*', op('*', col(0), op('-', lit('1'), col(1))), op('+', lit('1'), col(2))), op('*', col(0), op('-', lit('1000'), col(1)))];
    const r = compare(exprs, cols, n, 2);
    expect(r.taken).toEqual([true, true]);
    expect(r.fast).toEqual(r.slow);
    // terms below 2^53 whose group sum passes 2^52 (~40 rows a cell of ~1e10, × up to 1.05 · 1.08 at scale 6)
    const mid = [column(n, 2, () => 1e10 + Math.floor(rand() * 1e6)), cols[1]!, cols[2]!];
    const r2 = compare([exprs[0]!], mid, n, 2);
    expect(r2.taken).toEqual([true]);
    expect(r2.fast).toEqual(r2.slow);
  });

  it('gives back batches whose cell sums would pass 2^52, columns with NULLs, two wide columns and too many cells', () => {
    const n = 8192;
    // ~190 rows a cell of ~2^46: a cell's sum passes 2^52 (and 2^53, where odd sums are no longer exact doubles)
    const big = [column(n, 2, () => 2 ** 46 + 2 * Math.floor(rand() * 1000) + 1), column(n, 2, () => 0, DISC)];
    const r1 = compare([op('*', col(0), op('-', lit('1'), col(1))), col(1)], big, n, 4);
    expect(r1.taken).toEqual([false, true]);
    expect(r1.fast).toEqual(r1.slow);
    const withNulls = [column(n, 2, () => Math.floor(rand() * 1e6)), column(n, 2, () => 0, DISC, true)];
    const r2 = compare([op('*', col(0), op('-', lit('1'), col(1)))], withNulls, n, 4);
    expect(r2.taken).toBeNull();
    expect(r2.fast).toEqual(r2.slow);
    const twoWide = [column(n, 2, () => Math.floor(rand() * 1e6)), column(n, 2, () => Math.floor(rand() * 1e6))];
    expect(compare([op('*', col(0), col(1))], twoWide, n, 4).taken).toBeNull();
    // 200 groups × 11 codes: more cells than one per 8 rows
    const many = [column(n, 2, () => Math.floor(rand() * 1e6)), column(n, 2, () => 0, DISC)];
    const r3 = compare([op('*', col(0), op('-', lit('1'), col(1))), col(0)], many, n, 200);
    expect(r3.taken).toEqual([false, true]);
    expect(r3.fast).toEqual(r3.slow);
  });

  it('counts count(*) from the cells, and keeps entry values and cell weights only while the dictionaries are the same', () => {
    const n = 4096, groups = 3;
    const countDef = testRegistry().routines('count').find((d) => d.kind === 'aggregate' && d.args.length === 0) as AggregateDef;
    const specs: GroupStateSpec[] = [{ def: countDef, argTypes: [], type: sqlType(Oid.int8) }, spec('sum'), spec('avg')];
    const fast = new GroupStates(specs, ctx), slow = new GroupStates(specs, ctx);
    fast.ensure(groups);
    slow.ensure(groups);
    const exprs = [op('*', op('*', col(0), op('-', lit('1'), col(1))), op('+', lit('1'), col(2))), op('*', col(0), op('-', lit('1'), col(1)))];
    const coded = CodedProductSums.tryCreate([{ args: [], filter: null }, ...exprs.map((e) => ({ args: [e], filter: null }))])!;
    const batch = (disc: readonly number[]): Column[] => [column(n, 2, () => Math.floor(rand() * 1e6)), column(n, 2, () => 0, disc), column(n, 2, () => 0, TAX)];
    const first = batch(DISC);
    // the same batch twice (kept weights), then other dictionaries of other values (remade)
    for (const cols of [first, first, batch(DISC.map((d) => d * 3)), batch(DISC)]) {
      const gids = Int32Array.from({ length: n }, () => Math.floor(rand() * groups));
      expect(coded.run(cols.map((c) => c.values), n, gids, fast)).toEqual([true, true, true]);
      for (let i = 0; i < n; i++) {
        slow.counts[0]![gids[i]!]! += 1;
        exprs.forEach((e, j) => slow.state(j + 1, gids[i]!).step([evaluate(e, cols, i)]));
      }
    }
    const finals = (gs: GroupStates): string[] => specs.flatMap((_s, k) => Array.from({ length: groups }, (_g, g) => String(gs.final(k, g))));
    expect(finals(fast)).toEqual(finals(slow));
    expect([...fast.counts[0]!.subarray(0, groups)].reduce((a, b) => a + b, 0)).toBe(4 * n);
  });

  it('counts two one-code passes in one loop, and reuses its cell arrays across batches of fewer and more groups', () => {
    // Q1's sum(l_quantity), avg(l_quantity), avg(l_discount): 4 groups × 50 × 11 cells pass the cap, so two
    // count-only passes of one code column each (counted together, countCells1x2); the kept arrays must come
    // back zeroed whatever the previous batch's group count or sums were
    const n = 8192;
    const countDef = testRegistry().routines('count').find((d) => d.kind === 'aggregate' && d.args.length === 0) as AggregateDef;
    const QTY = Array.from({ length: 50 }, (_v, k) => (k + 1) * 100 - 2500); // negatives too
    const exprs = [col(1), col(1), col(2), op('*', col(0), op('-', lit('1'), col(2)))];
    const specs: GroupStateSpec[] = [{ def: countDef, argTypes: [], type: sqlType(Oid.int8) }, ...exprs.map((_e, k) => spec(k % 2 === 0 ? 'sum' : 'avg'))];
    const maxGroups = 4;
    const fast = new GroupStates(specs, ctx), slow = new GroupStates(specs, ctx);
    fast.ensure(maxGroups);
    slow.ensure(maxGroups);
    const coded = CodedProductSums.tryCreate([{ args: [], filter: null }, ...exprs.map((e) => ({ args: [e], filter: null }))])!;
    for (const groups of [4, 1, 3, 4, 2]) {
      const cols = [column(n, 2, () => Math.floor(rand() * 1e7) - 2e6), column(n, 2, () => 0, QTY), column(n, 2, () => 0, DISC)];
      const gids = Int32Array.from({ length: n }, () => Math.floor(rand() * groups));
      expect(coded.run(cols.map((c) => c.values), n, gids, fast)).toEqual([true, true, true, true, true]);
      for (let i = 0; i < n; i++) {
        slow.counts[0]![gids[i]!]! += 1;
        exprs.forEach((e, j) => slow.state(j + 1, gids[i]!).step([evaluate(e, cols, i)]));
      }
    }
    const finals = (gs: GroupStates): string[] => specs.flatMap((_s, k) => Array.from({ length: maxGroups }, (_g, g) => String(gs.final(k, g))));
    expect(finals(fast)).toEqual(finals(slow));
  });

  it('runByKeys: the key codes as the cells\' leading digits give run()\'s answers by group id exactly; `known` only for a key cell with rows and no group', () => {
    // TPC-H Q1's shape: two key columns of 3 × 2 entries; key cells 0 and 2 are one group (two entries of one
    // string), key cell 5 has no rows and no group
    const n = 8192;
    const countDef = testRegistry().routines('count').find((d) => d.kind === 'aggregate' && d.args.length === 0) as AggregateDef;
    const QTY = Array.from({ length: 50 }, (_v, k) => (k + 1) * 100);
    const exprs = [
      col(0), col(0), col(3), col(3), col(1),
      op('*', col(0), op('-', lit('1'), col(1))),
      op('*', op('*', col(0), op('-', lit('1'), col(1))), op('+', lit('1'), col(2))),
    ];
    const specs: GroupStateSpec[] = [{ def: countDef, argTypes: [], type: sqlType(Oid.int8) }, ...exprs.map((_e, k) => spec(k % 2 === 0 ? 'sum' : 'avg'))];
    const aggs = [{ args: [], filter: null }, ...exprs.map((e) => ({ args: [e], filter: null }))];
    const groupOfCell = [0, 1, 0, 2, 3, -1];
    const batch = (): { cols: unknown[][]; a: Int32Array; b: Int32Array; gids: Int32Array } => {
      const cols = [column(n, 2, () => Math.floor(rand() * 1e7)), column(n, 2, () => 0, DISC), column(n, 2, () => 0, TAX), column(n, 2, () => 0, QTY)].map((c) => c.values as unknown[]);
      const kc = Int32Array.from({ length: n }, () => Math.floor(rand() * 5));
      return { cols, a: kc.map((c) => c >> 1), b: kc.map((c) => c & 1), gids: kc.map((c) => groupOfCell[c]!) };
    };
    const finals = (gs: GroupStates, groups: number): string[] => specs.flatMap((_s, k) => Array.from({ length: groups }, (_g, g) => String(gs.final(k, g))));

    const byKeys = new GroupStates(specs, ctx), byIds = new GroupStates(specs, ctx);
    const keyed = CodedProductSums.tryCreate(aggs)!, plain = CodedProductSums.tryCreate(aggs)!;
    byKeys.ensure(3);
    byIds.ensure(4);
    // group 3 (key cell 4) not known yet: `known` is asked once, gives it its group and sizes the states
    const ids = Int32Array.from([1, 2, 1, 3, 0, 0]);
    let asked = 0;
    const known = (): void => { asked++; ids[4] = 4; byKeys.ensure(4); };
    for (let round = 0; round < 3; round++) {
      const x = batch();
      const taken = keyed.runByKeys(x.cols, n, { a: x.a, b: x.b, kb: 2, cells: 6, ids }, byKeys, known);
      expect(taken).toEqual(specs.map(() => true));
      expect(plain.run(x.cols, n, x.gids, byIds)).toEqual(specs.map(() => true));
    }
    expect(asked).toBe(1);
    expect(finals(byKeys, 4)).toEqual(finals(byIds, 4));
    expect([...byKeys.counts[0]!.subarray(0, 4)].reduce((s, c) => s + c, 0)).toBe(3 * n);

    // one key column (b = a, kb = 0), a key the table never answers for: nothing added, null
    const one = new GroupStates(specs, ctx);
    one.ensure(2);
    const x = batch();
    const lone = Int32Array.from([1, 2, 0, 0, 0, 0]);
    expect(CodedProductSums.tryCreate(aggs)!.runByKeys(x.cols, n, { a: x.a, b: x.a, kb: 0, cells: 3, ids: lone }, one, () => undefined)).toBeNull();
    expect(finals(one, 2)).toEqual(finals(new GroupStates(specs, ctx), 2));
    // a pass of three codes, or more key cells than one per 8 rows: given back before `known` is asked
    const three = CodedProductSums.tryCreate([{ args: [op('*', op('*', col(1), col(2)), col(3))], filter: null }])!;
    const never = (): void => { throw new Error('known asked'); };
    expect(three.runByKeys(x.cols, n, { a: x.a, b: x.b, kb: 2, cells: 6, ids }, new GroupStates([spec('sum')], ctx), never)).toBeNull();
    expect(keyed.runByKeys(x.cols, 40, { a: x.a, b: x.b, kb: 2, cells: 6, ids }, byKeys, never)).toBeNull();
  });

  it('serves count-only aggregates from a wide pass\'s cell counts (Q1: two passes, not three), also when its sums pass 2^52', () => {
    const n = 8192;
    const countDef = testRegistry().routines('count').find((d) => d.kind === 'aggregate' && d.args.length === 0) as AggregateDef;
    const QTY = Array.from({ length: 50 }, (_v, k) => (k + 1) * 100);
    // Q1's order: sum_qty, sum_base_price, sum_disc_price, sum_charge, avg_qty, avg_price, avg_disc, count_order
    const disc = op('*', col(0), op('-', lit('1'), col(1)));
    const args = [col(3), col(0), disc, op('*', disc, op('+', lit('1'), col(2))), col(3), col(0), col(1)];
    const specs: GroupStateSpec[] = [...args.map((_e, k) => spec(k < 4 ? 'sum' : 'avg')), { def: countDef, argTypes: [], type: sqlType(Oid.int8) }];
    const aggs = [...args.map((e) => ({ args: [e], filter: null })), { args: [], filter: null }];
    const finals = (gs: GroupStates, groups: number): string[] => specs.flatMap((_s, k) => Array.from({ length: groups }, (_g, g) => String(gs.final(k, g))));
    /** runByKeys over `cells` key cells (one group each) against per-row Numeric arithmetic; what it took */
    const check = (cells: number, wide: () => number): boolean[] | null => {
      const cols = [column(n, 2, wide), column(n, 2, () => 0, DISC), column(n, 2, () => 0, TAX), column(n, 2, () => 0, QTY)];
      const kc = Int32Array.from({ length: n }, () => Math.floor(rand() * cells));
      const fast = new GroupStates(specs, ctx), slow = new GroupStates(specs, ctx);
      fast.ensure(cells);
      slow.ensure(cells);
      const coded = CodedProductSums.tryCreate(aggs)!;
      const values = cols.map((c) => c.values);
      // the sum pass reads l_discount and l_tax, and avg(l_discount) its cell counts: no count pass of l_discount
      expect(coded.passLayout(values, n, fast, cells)).toEqual([{ cols: [1, 2], wide: true, members: [1, 2, 3, 5, 6] }, { cols: [3], wide: false, members: [0, 4] }]);
      const ids = Int32Array.from({ length: cells }, (_v, c) => c + 1);
      const taken = coded.runByKeys(values, n, { a: kc, b: kc, kb: 0, cells, ids }, fast, () => undefined);
      for (let i = 0; i < n; i++) {
        const g = kc[i]!;
        slow.counts[7]![g]! += 1;
        if (taken?.[7] !== true) fast.counts[7]![g]! += 1;
        args.forEach((e, k) => {
          const v = evaluate(e, cols, i);
          slow.state(k, g).step([v]);
          if (taken?.[k] !== true) fast.state(k, g).step([v]);
        });
      }
      expect(finals(fast, cells)).toEqual(finals(slow, cells));
      return taken;
    };
    expect(check(1, () => Math.floor(rand() * 1e7))).toEqual(specs.map(() => true));
    expect(check(2, () => Math.floor(rand() * 1e7))).toEqual(specs.map(() => true));
    // ~40 rows a cell of ~2^48: cell sums past 2^52: the sums are given back, the counts (avg(l_discount), l_quantity's, count(*)) still served
    expect(check(2, () => 2 ** 48 + 2 * Math.floor(rand() * 1000) + 1)).toEqual([true, false, false, false, true, false, true, true]);
  });

  it('reads the rows once for a wide pass and a one-code count pass (Q1), with one key cell or several, one or two codes', () => {
    const n = 8192; // at most n / 8 cells: 6 key cells × 11 × 9 codes fit
    const QTY = Array.from({ length: 50 }, (_v, k) => (k + 1) * 100);
    /** runByKeys of `args` (sum, avg alternating) over `cells` key cells against per-row Numeric arithmetic: what it took, its row loops */
    const check = (args: readonly Expr[], cells: number, wide: () => number, kb = 0): { taken: boolean[] | null; loops: number } => {
      const cols = [column(n, 2, wide), column(n, 2, () => 0, DISC), column(n, 2, () => 0, TAX), column(n, 2, () => 0, QTY)];
      const specs = args.map((_e, k) => spec(k % 2 === 0 ? 'sum' : 'avg'));
      // one key (kb 0: the cell a[i]), or two: the cell a[i] · kb + b[i]
      const a = Int32Array.from({ length: n }, () => Math.floor(rand() * (kb === 0 ? cells : cells / kb)));
      const b = kb === 0 ? a : Int32Array.from({ length: n }, () => Math.floor(rand() * kb));
      const kc = Int32Array.from({ length: n }, (_v, i) => a[i]! * kb + b[i]!);
      const fast = new GroupStates(specs, ctx), slow = new GroupStates(specs, ctx);
      fast.ensure(cells);
      slow.ensure(cells);
      const coded = CodedProductSums.tryCreate(args.map((e) => ({ args: [e], filter: null })))!;
      const ids = Int32Array.from({ length: cells }, (_v, c) => c + 1);
      const taken = coded.runByKeys(cols.map((c) => c.values), n, { a, b, kb, cells, ids }, fast, () => undefined);
      for (let i = 0; i < n; i++) {
        args.forEach((e, k) => {
          const v = evaluate(e, cols, i);
          slow.state(k, kc[i]!).step([v]);
          if (taken?.[k] !== true) fast.state(k, kc[i]!).step([v]);
        });
      }
      const finals = (gs: GroupStates): string[] => specs.flatMap((_s, k) => Array.from({ length: cells }, (_g, g) => String(gs.final(k, g))));
      expect(finals(fast)).toEqual(finals(slow));
      return { taken, loops: coded.lastRowLoops };
    };
    const disc = op('*', col(0), op('-', lit('1'), col(1)));
    const twoCodes = [op('*', disc, op('+', lit('1'), col(2))), col(3), disc, col(3)];
    const oneCode = [disc, col(3), col(0), col(3)];
    const small = (): number => Math.floor(rand() * 1e7), huge = (): number => 2 ** 48 + 2 * Math.floor(rand() * 1000) + 1;
    for (const [cells, kb] of [[1, 0], [3, 0], [6, 2], [2, 2]] as const) {
      expect(check(twoCodes, cells, small, kb)).toEqual({ taken: [true, true, true, true], loops: 1 });
      expect(check(oneCode, cells, small, kb)).toEqual({ taken: [true, true, true, true], loops: 1 });
      // cell sums past 2^52 part-way: the wide sums given back, l_quantity counted again on its own (all its rows)
      expect(check(twoCodes, cells, huge, kb)).toEqual({ taken: [false, true, false, true], loops: 2 });
    }
  });

  it('finds the factors of products only', () => {
    expect(productFactors(op('*', col(0), op('-', lit('1'), col(1))))).toHaveLength(2);
    expect(productFactors(op('-', col(0), col(1)))).toBeNull();
    expect(productFactors(op('+', op('*', col(0), col(1)), lit('1')))).toBeNull();
    expect(CodedProductSums.tryCreate([{ args: [lit('1')], filter: null }, { args: [col(0)], filter: col(1) }])).toBeNull();
  });
});
