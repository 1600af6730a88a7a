/**
 * Vector kernels: a bound Expr compiled into a function that computes one node for a whole batch (a column
 * per node, loops over the rows) instead of one closure call per node per row (compile-expr.ts).
 *
 * Semantics are the row closures' exactly. Every node is asked for a selection of rows, and lazy constructs
 * narrow it before evaluating what comes after: AND/OR evaluate an argument only on the rows the earlier ones
 * left undecided, CASE a branch only on the rows that reach it, COALESCE an argument only where the earlier
 * ones were NULL, a strict operator its right operand only where the left one is not NULL. So a node runs on
 * exactly the rows the row-at-a-time closures would run it on, and `CASE WHEN x = 0 THEN 0 ELSE 1/x END`
 * never divides by zero. When a batch raises an error, the caller re-runs the batch with the row closures
 * (runVectorOrRows) so the error is the one of the first failing row, as PostgreSQL reports it.
 *
 * Not vectorized at all (compileVector returns null): expressions with a subquery or a volatile function
 * (their order of calls is observable: nextval, random). Nodes without a kernel (arrays, rows, regex...) run
 * their row closure over the selected rows, inside an otherwise vectorized tree.
 */
import { Oid } from '../../common/pgtypes/oids.ts';
import { isPgRecord } from '../../common/pgtypes/values.ts';
import type { Expr } from '../../sql/index.ts';
import type { Env } from '../context.ts';
import { compileNode, type Cols, type RowFn } from './compile-expr.ts';
import type { SubqueryRunner } from './subquery-runner.ts';
import { StructuralKeys } from './compile-shared.ts';
import { scaledArith, scaledCompare, scaledToValues, toScaled, type CmpOp } from './vector-numeric.ts';
import { selCount, type Sel, type Vec } from './vector-types.ts';

/** LAKEGATE_VECTOR=off keeps every expression row-at-a-time (A/B measurements, bisecting a wrong answer) */
let VECTOR_KERNELS = process.env['LAKEGATE_VECTOR'] !== 'off';

/** switches the kernels on or off for plans compiled from now on (the differential tests compare both) */
export function setVectorKernels(on: boolean): boolean {
  const was = VECTOR_KERNELS;
  VECTOR_KERNELS = on;
  return was;
}

/** computes the node for the rows `sel` (null: all `n` rows) of the batch `cols` */
export type VecFn = (cols: Cols, n: number, sel: Sel) => Vec;

const NUMERIC_ARITH: Record<number, '+' | '-' | '*'> = { 1758: '+', 1759: '-', 1760: '*' };
const CMP = new Set<string>(['=', '<>', '<', '<=', '>', '>=']);

/** the rows of `vec` as JS values (materializing constants and scaled numerics) */
export function valuesOf(vec: Vec, sel: Sel, n: number): readonly unknown[] {
  if (vec.tag === 'values') return vec.v;
  if (vec.tag === 'scaled') return scaledToValues(vec, sel, n);
  return new Array<unknown>(n).fill(vec.c);
}

/** true when `e` may not be vectorized: subqueries, volatile calls, subquery-test slots, aggregates */
function blocked(e: Expr): boolean {
  switch (e.kind) {
    case 'Subquery': case 'Aggregate': case 'WindowFunc': case 'Grouping': case 'SetCall': return true;
    case 'ColumnRef': return e.levelsUp < 0;
    case 'Literal': case 'Param': return false;
    case 'Call': return e.def.volatility === 'v' || e.args.some(blocked);
    case 'Op': return (e.left !== null && blocked(e.left)) || blocked(e.right);
    case 'Cast': case 'NullTest': case 'BooleanTest': case 'FieldSelect': return blocked(e.arg);
    case 'Case': return e.whens.some((w) => blocked(w.cond) || blocked(w.result)) || blocked(e.elseExpr);
    case 'Coalesce': case 'MinMax': case 'BoolOp': case 'Row': return e.args.some(blocked);
    case 'NullIf': return blocked(e.left) || blocked(e.eq);
    case 'DistinctFrom': return blocked(e.eq);
    case 'ScalarArrayOp': return blocked(e.op);
    case 'Array': return e.elements.some(blocked);
    case 'Subscript': return blocked(e.arg) || e.indexes.some((x) => (x.lower !== null && blocked(x.lower)) || (x.upper !== null && blocked(x.upper)));
    default: return true;
  }
}

/** true when `e` reads no column of the current row (only literals, parameters, outer references) */
function isConstant(e: Expr): boolean {
  switch (e.kind) {
    case 'ColumnRef': return e.levelsUp > 0;
    case 'Literal': case 'Param': return true;
    case 'Call': return e.args.every(isConstant);
    case 'Op': return (e.left === null || isConstant(e.left)) && isConstant(e.right);
    case 'Cast': return isConstant(e.arg);
    default: return false;
  }
}

/** a compiled vector expression, or null when `e` must stay row-at-a-time */
export function compileVector(e: Expr, env: Env): VecFn | null {
  if (!VECTOR_KERNELS || blocked(e)) return null;
  const c = new VectorCompiler(env);
  const fn = c.compile(e);
  return (cols, n, sel) => { c.reset(); return fn(cols, n, sel); };
}

/** compiles several expressions; repeated pure subtrees compute once per batch (Q1's price × (1 − discount)) */
export class VectorCompiler {
  readonly #memo = new Map<string, VecFn>();
  readonly #keys = new StructuralKeys();
  readonly #resets: (() => void)[] = [];
  constructor(private readonly env: Env) {}

  /** forgets the results remembered for the last batch (call before each batch: a batch may reuse an array) */
  reset(): void {
    for (const r of this.#resets) r();
  }

  /** null when `e` must stay row-at-a-time */
  tryCompile(e: Expr): VecFn | null {
    return !VECTOR_KERNELS || blocked(e) ? null : this.compile(e);
  }

  compile(e: Expr): VecFn {
    // no column of the row below it: its row closure once per batch (`date '1998-12-01' - interval '90 days'`)
    if (e.kind !== 'Literal' && e.kind !== 'Param' && isConstant(e)) return this.#constant(e);
    const k = this.#keys.of(e);
    if (k === null || (e.kind === 'ColumnRef' && e.type.oid !== Oid.numeric) || e.kind === 'Literal') return this.#body(e);
    let fn = this.#memo.get(k);
    if (fn === undefined) {
      const body = this.#body(e);
      let lastCols: Cols | null = null, lastN = -1, last: Vec | null = null;
      this.#resets.push(() => { lastCols = null; last = null; });
      fn = (cols, n, sel) => {
        if (sel !== null) return body(cols, n, sel);
        if (cols === lastCols && n === lastN && last !== null) return last;
        last = null;
        const v = body(cols, n, null);
        lastCols = cols; lastN = n; last = v;
        return v;
      };
      this.#memo.set(k, fn);
    }
    return fn;
  }

  #rowFallback(e: Expr): VecFn {
    const runners: SubqueryRunner[] = [];
    const row: RowFn = compileNode(e, this.env, runners, { value: null });
    return (cols, n, sel) => {
      const out = new Array<unknown>(n).fill(null);
      const m = selCount(sel, n);
      for (let j = 0; j < m; j++) { const i = sel === null ? j : sel[j]!; out[i] = row(cols, i); }
      return { tag: 'values', v: out };
    };
  }

  #body(e: Expr): VecFn {
    const ctx = this.env.ctx;
    switch (e.kind) {
      case 'ColumnRef': {
        if (e.levelsUp > 0) return this.#rowFallback(e);
        const idx = e.index;
        // numeric columns: converted once per batch for every kernel that reads them (memoized in compile())
        if (e.type.oid === Oid.numeric) return (cols, n, sel) => { const v: Vec = { tag: 'values', v: cols[idx]! }; return toScaled(v, sel, n) ?? v; };
        return (cols) => ({ tag: 'values', v: cols[idx]! });
      }
      case 'Literal': { const c = { tag: 'const', c: e.value } as const; return () => c; }
      case 'Param': { const idx = e.index; return () => ({ tag: 'const', c: ctx.params[idx] ?? null }); }
      case 'Op': return this.#op(e);
      case 'Call': {
        const args = e.args.map((a) => this.compile(a));
        const { def, argTypes, type } = e;
        const strict = def.strict !== false;
        return (cols, n, sel) => {
          const vs = args.map((a) => valuesOf(a(cols, n, sel), sel, n));
          const out = new Array<unknown>(n).fill(null);
          const m = selCount(sel, n);
          for (let j = 0; j < m; j++) {
            const i = sel === null ? j : sel[j]!;
            const vals = vs.map((v) => v[i] ?? null);
            if (strict && vals.some((v) => v === null)) continue;
            out[i] = def.impl(vals, ctx, argTypes, type) ?? null;
          }
          return { tag: 'values', v: out };
        };
      }
      case 'Cast': {
        if (e.fn === null) return this.compile(e.arg);
        if (e.arg.kind === 'Literal') return this.#constant(e);
        const arg = this.compile(e.arg);
        const f = e.fn, typmod = e.type.typmod;
        return (cols, n, sel) => {
          const v = valuesOf(arg(cols, n, sel), sel, n);
          const out = new Array<unknown>(n).fill(null);
          const m = selCount(sel, n);
          for (let j = 0; j < m; j++) {
            const i = sel === null ? j : sel[j]!;
            const x = v[i];
            if (x !== null && x !== undefined) out[i] = f(x, typmod, ctx) ?? null;
          }
          return { tag: 'values', v: out };
        };
      }
      case 'BoolOp': return this.#boolOp(e.op, e.args.map((a) => this.compile(a)));
      case 'Case': {
        const whens = e.whens.map((w) => [this.compile(w.cond), this.compile(w.result)] as const);
        const els = this.compile(e.elseExpr);
        return (cols, n, sel) => {
          const out = new Array<unknown>(n).fill(null);
          let rest: Sel = sel;
          for (const [cond, res] of whens) {
            if (selCount(rest, n) === 0) break;
            const c = valuesOf(cond(cols, n, rest), rest, n);
            const hit = pick(rest, n, (i) => c[i] === true);
            if (hit.length > 0) copyRows(out, valuesOf(res(cols, n, hit), hit, n), hit);
            rest = pick(rest, n, (i) => c[i] !== true);
          }
          if (selCount(rest, n) > 0) copyRows(out, valuesOf(els(cols, n, rest), rest, n), rest);
          return { tag: 'values', v: out };
        };
      }
      case 'Coalesce': {
        const args = e.args.map((a) => this.compile(a));
        return (cols, n, sel) => {
          const out = new Array<unknown>(n).fill(null);
          let rest: Sel = sel;
          for (const a of args) {
            if (selCount(rest, n) === 0) break;
            const v = valuesOf(a(cols, n, rest), rest, n);
            copyRows(out, v, rest);
            rest = pick(rest, n, (i) => v[i] === null || v[i] === undefined);
          }
          return { tag: 'values', v: out };
        };
      }
      case 'NullTest': {
        const arg = this.compile(e.arg);
        const rowTest = this.#rowFallback(e);
        const neg = e.negated;
        return (cols, n, sel) => {
          const v = valuesOf(arg(cols, n, sel), sel, n);
          const out = new Array<unknown>(n).fill(null);
          const m = selCount(sel, n);
          let records = false;
          for (let j = 0; j < m; j++) {
            const i = sel === null ? j : sel[j]!;
            const x = v[i];
            if (isPgRecord(x)) { records = true; continue; }
            const isNull = x === null || x === undefined;
            out[i] = neg ? !isNull : isNull;
          }
          // a composite value tests its fields: those rows as the row closure does
          if (records) {
            const recs = pick(sel, n, (i) => isPgRecord(v[i]));
            copyRows(out, valuesOf(rowTest(cols, n, recs), recs, n), recs);
          }
          return { tag: 'values', v: out };
        };
      }
      case 'ScalarArrayOp': {
        if (e.op.right.kind !== 'Literal' || e.op.left === null) return this.#rowFallback(e);
        const left = this.compile(e.op.left);
        const arr = e.op.right.value as { values: readonly unknown[] } | readonly unknown[] | null;
        if (arr === null) return this.#rowFallback(e);
        const values = Array.isArray(arr) ? arr as readonly unknown[] : (arr as { values: readonly unknown[] }).values;
        const { def, leftType, rightType } = e.op;
        const useOr = e.useOr;
        return (cols, n, sel) => {
          const out = new Array<unknown>(n).fill(null);
          const m = selCount(sel, n);
          if (values.length === 0) {
            for (let j = 0; j < m; j++) out[sel === null ? j : sel[j]!] = !useOr;
            return { tag: 'values', v: out };
          }
          const l = valuesOf(left(cols, n, sel), sel, n);
          for (let j = 0; j < m; j++) {
            const i = sel === null ? j : sel[j]!;
            const lv = l[i];
            if (lv === null || lv === undefined) continue;
            let sawNull = false;
            let res: boolean | null = !useOr;
            for (const x of values) {
              const r = x === null || x === undefined ? null : def.impl(lv, x, ctx, leftType!, rightType);
              if (r === null) sawNull = true;
              else if (r === useOr) { res = useOr; break; }
            }
            out[i] = res === useOr ? res : sawNull ? null : res;
          }
          return { tag: 'values', v: out };
        };
      }
      default: return this.#rowFallback(e);
    }
  }

  /** a subtree without column references: its row closure once per batch, on the first selected row */
  #constant(e: Expr): VecFn {
    const runners: SubqueryRunner[] = [];
    const row = compileNode(e, this.env, runners, { value: null });
    return (cols, n, sel) => {
      if (selCount(sel, n) === 0) return { tag: 'const', c: null };
      return { tag: 'const', c: row(cols, sel === null ? 0 : sel[0]!) };
    };
  }

  #op(e: Extract<Expr, { kind: 'Op' }>): VecFn {
    const ctx = this.env.ctx;
    const { def, leftType, rightType } = e;
    const lt = leftType ?? rightType;
    const r = this.compile(e.right);
    if (e.left === null) {
      return (cols, n, sel) => {
        const rv = valuesOf(r(cols, n, sel), sel, n);
        const out = new Array<unknown>(n).fill(null);
        const m = selCount(sel, n);
        for (let j = 0; j < m; j++) {
          const i = sel === null ? j : sel[j]!;
          const y = rv[i];
          if (y !== null && y !== undefined) out[i] = def.impl(null, y, ctx, lt, rightType) ?? null;
        }
        return { tag: 'values', v: out };
      };
    }
    const l = this.compile(e.left);
    if (def.strict === false) {
      return (cols, n, sel) => {
        const lv = valuesOf(l(cols, n, sel), sel, n), rv = valuesOf(r(cols, n, sel), sel, n);
        const out = new Array<unknown>(n).fill(null);
        const m = selCount(sel, n);
        for (let j = 0; j < m; j++) { const i = sel === null ? j : sel[j]!; out[i] = def.impl(lv[i] ?? null, rv[i] ?? null, ctx, lt, rightType) ?? null; }
        return { tag: 'values', v: out };
      };
    }
    const numArith = lt.oid === Oid.numeric && rightType.oid === Oid.numeric && def.oid !== undefined ? NUMERIC_ARITH[def.oid] : undefined;
    const dateTs = lt.oid === Oid.date && rightType.oid === Oid.timestamp && def.returns === Oid.bool && CMP.has(def.name) ? def.name as CmpOp : undefined;
    const numCmp = lt.oid === Oid.numeric && rightType.oid === Oid.numeric && def.returns === Oid.bool && CMP.has(def.name) ? def.name as CmpOp : undefined;
    return (cols, n, sel) => {
      const lvec = l(cols, n, sel);
      // the right operand only where the left one is not NULL (the row closure never evaluates it there)
      const lvals = lvec.tag === 'values' ? lvec.v : null;
      const rsel = lvals === null ? (lvec.tag === 'const' && lvec.c === null ? EMPTY : sel) : notNullRows(lvals, sel, n);
      const rvec = r(cols, n, rsel);
      if (dateTs !== undefined && rvec.tag === 'const' && typeof rvec.c === 'bigint') {
        return { tag: 'values', v: dateVsTimestamp(dateTs, valuesOf(lvec, rsel, n), rvec.c, rsel, n, (x, y) => def.impl(x, y, ctx, lt, rightType)) };
      }
      if (numArith !== undefined || numCmp !== undefined) {
        // left NULL rows (outside rsel) stay NULL through a's null marks
        const a = toScaled(lvec, sel, n);
        const b = a === null ? null : toScaled(rvec, rsel, n);
        if (a !== null && b !== null) {
          if (numArith !== undefined) { const s = scaledArith(numArith, a, b, rsel, n); if (s !== null) return s; }
          else { const c = scaledCompare(numCmp!, a, b, rsel, n); if (c !== null) return { tag: 'values', v: c }; }
        }
      }
      const lv = valuesOf(lvec, rsel, n), rv = valuesOf(rvec, rsel, n);
      const out = new Array<unknown>(n).fill(null);
      const m = selCount(rsel, n);
      for (let j = 0; j < m; j++) {
        const i = rsel === null ? j : rsel[j]!;
        const x = lv[i], y = rv[i];
        if (x === null || x === undefined || y === null || y === undefined) continue;
        out[i] = def.impl(x, y, ctx, lt, rightType) ?? null;
      }
      return { tag: 'values', v: out };
    };
  }

  #boolOp(op: 'and' | 'or' | 'not', args: readonly VecFn[]): VecFn {
    if (op === 'not') {
      const a = args[0]!;
      return (cols, n, sel) => {
        const v = valuesOf(a(cols, n, sel), sel, n);
        const out = new Array<unknown>(n).fill(null);
        const m = selCount(sel, n);
        for (let j = 0; j < m; j++) { const i = sel === null ? j : sel[j]!; const x = v[i]; out[i] = x === null || x === undefined ? null : !x; }
        return { tag: 'values', v: out };
      };
    }
    // AND: a row is decided by the first false argument; OR by the first true one
    const decisive = op === 'or';
    return (cols, n, sel) => {
      const out = new Array<unknown>(n).fill(null);
      const sawNull = new Uint8Array(n);
      let rest: Sel = sel;
      for (const a of args) {
        if (selCount(rest, n) === 0) break;
        const v = valuesOf(a(cols, n, rest), rest, n);
        const m = selCount(rest, n);
        const next = new Int32Array(m);
        let k = 0;
        for (let j = 0; j < m; j++) {
          const i = rest === null ? j : rest[j]!;
          const x = v[i];
          if (x === decisive) out[i] = decisive;
          else { if (x === null || x === undefined) sawNull[i] = 1; next[k++] = i; }
        }
        rest = next.subarray(0, k);
      }
      const m = selCount(rest, n);
      for (let j = 0; j < m; j++) { const i = rest === null ? j : rest[j]!; out[i] = sawNull[i] === 1 ? null : !decisive; }
      return { tag: 'values', v: out };
    };
  }
}

const EMPTY = new Int32Array(0);
/** the answer of each comparison for a left side less than, equal to, greater than the right */
export const OUTCOMES: Record<CmpOp, readonly [boolean, boolean, boolean]> = {
  '=': [false, true, false], '<>': [true, false, true], '<': [true, false, false],
  '<=': [true, true, false], '>': [false, false, true], '>=': [false, true, true],
};
const USECS_PER_DAY = 86_400_000_000n;
/** dates farther from 1970 than this (or ±infinity) compare through the operator itself (range errors) */
const PLAIN_DAYS = 10_000_000;

/**
 * date <op> timestamp constant, as date_cmp_timestamp (the date at midnight) without a bigint per row:
 * with T = q days + r µs (0 ≤ r < a day), d < q ⇒ less, d > q ⇒ greater, d = q ⇒ equal iff r = 0, else less
 */
function dateVsTimestamp(op: CmpOp, v: readonly unknown[], t: bigint, sel: Sel, n: number, slow: (d: unknown, t: bigint) => unknown): unknown[] {
  let q = t / USECS_PER_DAY;
  let r = t % USECS_PER_DAY;
  if (r < 0n) { q -= 1n; r += USECS_PER_DAY; }
  const qd = Number(q);
  const exact = r === 0n;
  const [lt, eq, gt] = OUTCOMES[op];
  const out = new Array<unknown>(n).fill(null);
  const m = selCount(sel, n);
  for (let j = 0; j < m; j++) {
    const i = sel === null ? j : sel[j]!;
    const d = v[i];
    if (d === null || d === undefined) continue;
    if (!(typeof d === 'number' && d < PLAIN_DAYS && d > -PLAIN_DAYS)) { out[i] = slow(d, t) ?? null; continue; }
    out[i] = d < qd ? lt : d > qd ? gt : exact ? eq : lt;
  }
  return out;
}

function notNullRows(v: readonly unknown[], sel: Sel, n: number): Sel {
  const m = selCount(sel, n);
  let nulls = 0;
  for (let j = 0; j < m; j++) { const x = v[sel === null ? j : sel[j]!]; if (x === null || x === undefined) nulls++; }
  if (nulls === 0) return sel;
  return pick(sel, n, (i) => v[i] !== null && v[i] !== undefined);
}

function pick(sel: Sel, n: number, keep: (i: number) => boolean): Int32Array {
  const m = selCount(sel, n);
  const out = new Int32Array(m);
  let k = 0;
  for (let j = 0; j < m; j++) { const i = sel === null ? j : sel[j]!; if (keep(i)) out[k++] = i; }
  return out.subarray(0, k);
}

function copyRows(out: unknown[], v: readonly unknown[], sel: Sel): void {
  const m = selCount(sel, out.length);
  for (let j = 0; j < m; j++) { const i = sel === null ? j : sel[j]!; out[i] = v[i] ?? null; }
}
