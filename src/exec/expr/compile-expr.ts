/**
 * Expression compiler: a bound Expr → a closure `(cols, i) => value` over one row of a batch.
 * CASE, AND/OR, COALESCE evaluate lazily per row (so `CASE WHEN x = 0 THEN 0 ELSE 1/x END` never divides);
 * AND/OR follow SQL three-valued logic. Subqueries are run by SubqueryRunners before each batch (`prepare`).
 */
import type { Batch } from '../../common/batch.ts';
import { GatewayError, internalError } from '../../common/errors.ts';
import { isPgRecord, type PgArray, type PgRecord } from '../../common/pgtypes/values.ts';
import { compareValues } from '../../functions/index.ts';
import type { Expr } from '../../sql/index.ts';
import type { Env } from '../context.ts';
import { evalSubscript, makeArray } from './array-ops.ts';
import { SubqueryRunner } from './subquery-runner.ts';
import { hashedAnyEq } from '../in-list-set.ts';
import type { SharedSubexpressions } from './compile-shared.ts';

export type Cols = readonly (readonly unknown[])[];
export type RowFn = (cols: Cols, i: number) => unknown;

export interface Compiled {
  readonly fn: RowFn;
  /** runs the subqueries the expression contains for the rows of `batch`; null when there are none */
  readonly prepare: ((batch: Batch) => Promise<void>) | null;
}

/** the current element (`= ANY(array)`) or subquery row of a test: `value` is its first column, `row` all of them */
export interface Slot { value: unknown; row?: readonly unknown[] }

/**
 * Functions may return a Promise (pg_sleep). Closures stay synchronous: such a Call returns the thenable and
 * sets `asyncResult.pending`; operators that evaluate rows (Projection, Values, Filter) check the flag after
 * each row and await the value, so rows are still evaluated one after the other. While the flag is set, a
 * Call or operator whose argument is a thenable chains on it. The flag is only read between synchronous row
 * evaluations, so sessions cannot observe each other's.
 */
export const asyncResult: { pending: boolean; readonly started: { readonly p: PromiseLike<unknown>; readonly ctx: unknown }[] } = { pending: false, started: [] };

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

/**
 * the value of a row that set asyncResult.pending: every Promise the row started is awaited (also those an
 * enclosing expression consumed without chaining, e.g. `pg_sleep(1) IS NOT NULL`), then the value itself
 */
export async function settleAsync(v: unknown, ctx: unknown): Promise<unknown> {
  asyncResult.pending = false;
  // entries of another statement are left over from a row that failed before settling: dropped
  const started = asyncResult.started.splice(0).filter((s) => s.ctx === ctx);
  // a rejection matters through the value (or the statement's abort signal), not through a consumed Promise
  for (const s of started) await Promise.resolve(s.p).catch(() => undefined);
  return isThenable(v) ? ((await v) ?? null) : v;
}

function callAsync(vals: readonly unknown[], strict: boolean, call: (vals: unknown[]) => unknown): unknown {
  const p = Promise.all(vals).then((vs) => (strict && vs.some((v) => v === null || v === undefined) ? null : call(vs) ?? null));
  p.catch(() => undefined); // awaited by the operator; never an unhandled rejection if a statement fails first
  return p;
}

export function compileExpr(e: Expr, env: Env): Compiled {
  const runners: SubqueryRunner[] = [];
  const fn = compileNode(e, env, runners, { value: null });
  return {
    fn,
    prepare: runners.length === 0 ? null : async (batch) => { for (const r of runners) await r.prepare(batch); },
  };
}

/** Compiles several expressions sharing one prepare step. */
export function compileAll(exprs: readonly Expr[], env: Env): { fns: RowFn[]; prepare: (batch: Batch) => Promise<void> } {
  const cs = exprs.map((e) => compileExpr(e, env));
  const preps = cs.map((c) => c.prepare).filter((p): p is (b: Batch) => Promise<void> => p !== null);
  return { fns: cs.map((c) => c.fn), prepare: async (batch) => { for (const p of preps) await p(batch); } };
}

/** `share` (compile-shared.ts) makes repeated pure subexpressions of several expressions evaluate once per row */
export function compileNode(e: Expr, env: Env, runners: SubqueryRunner[], slot: Slot, share: SharedSubexpressions | null = null): RowFn {
  if (share === null) return compileNodeBody(e, env, runners, slot, null);
  return share.get(e) ?? share.put(e, compileNodeBody(e, env, runners, slot, share));
}

function compileNodeBody(e: Expr, env: Env, runners: SubqueryRunner[], slot: Slot, share: SharedSubexpressions | null): RowFn {
  const c = (x: Expr): RowFn => compileNode(x, env, runners, slot, share);
  const ctx = env.ctx;
  switch (e.kind) {
    case 'ColumnRef': {
      const idx = e.index;
      if (e.levelsUp === 0) return (cols, i) => cols[idx]![i] ?? null;
      if (e.levelsUp < 0) return idx === 0 ? () => slot.value : () => slot.row?.[idx] ?? null;
      const row = env.outer[e.levelsUp - 1];
      if (row === undefined) throw internalError(`outer reference ${e.name} without an outer row`);
      const v = row[idx] ?? null;
      return () => v;
    }
    case 'Literal': { const v = e.value; return () => v; }
    case 'Param': { const idx = e.index; return () => ctx.params[idx] ?? null; }
    case 'Call': {
      const args = e.args.map(c);
      const { def, argTypes, type } = e;
      const strict = def.strict !== false;
      return (cols, i) => {
        const vals = args.map((a) => a(cols, i));
        if (asyncResult.pending && vals.some(isThenable)) return callAsync(vals, strict, (vs) => def.impl(vs, ctx, argTypes, type));
        if (strict && vals.some((v) => v === null)) return null;
        const r = def.impl(vals, ctx, argTypes, type);
        if (r === null || r === undefined) return null;
        if (typeof r === 'object' && isThenable(r)) {
          asyncResult.pending = true;
          asyncResult.started.push({ p: r, ctx });
          Promise.resolve(r).catch(() => undefined);
        }
        return r;
      };
    }
    case 'Op': {
      const l = e.left === null ? null : c(e.left);
      const r = c(e.right);
      const { def, leftType, rightType } = e;
      const lt = leftType ?? rightType;
      if (def.strict === false && l !== null) return (cols, i) => def.impl(l(cols, i), r(cols, i), ctx, lt, rightType) ?? null;
      if (l === null) return (cols, i) => { const rv = r(cols, i); return rv === null ? null : def.impl(null, rv, ctx, lt, rightType) ?? null; };
      return (cols, i) => {
        const lv = l(cols, i);
        if (lv === null) return null;
        const rv = r(cols, i);
        if (rv === null) return null;
        if (asyncResult.pending && (isThenable(lv) || isThenable(rv))) return callAsync([lv, rv], true, ([a, b]) => def.impl(a, b, ctx, lt, rightType));
        return def.impl(lv, rv, ctx, lt, rightType) ?? null;
      };
    }
    case 'Cast': {
      const arg = c(e.arg);
      const f = e.fn;
      const typmod = e.type.typmod;
      if (f === null) return arg;
      const position = e.position;
      if (e.arg.kind === 'Literal') {
        // constant: convert once per execution, on first use (errors still surface at run time)
        let done = false;
        let cached: unknown = null;
        return (cols, i) => {
          if (!done) {
            const v = arg(cols, i);
            try { cached = v === null ? null : f(v, typmod, ctx) ?? null; } catch (err) { throw atPosition(err, position); }
            done = true;
          }
          return cached;
        };
      }
      return (cols, i) => { const v = arg(cols, i); return v === null ? null : f(v, typmod, ctx) ?? null; };
    }
    case 'Case': {
      const whens = e.whens.map((w) => [c(w.cond), c(w.result)] as const);
      const els = c(e.elseExpr);
      return (cols, i) => {
        for (const [cond, res] of whens) if (cond(cols, i) === true) return res(cols, i);
        return els(cols, i);
      };
    }
    case 'Coalesce': {
      const args = e.args.map(c);
      return (cols, i) => {
        for (const a of args) { const v = a(cols, i); if (v !== null) return v; }
        return null;
      };
    }
    case 'MinMax': {
      const args = e.args.map(c);
      const oid = e.type.oid;
      const sign = e.op === 'greatest' ? 1 : -1;
      return (cols, i) => {
        let best: unknown = null;
        for (const a of args) {
          const v = a(cols, i);
          if (v !== null && (best === null || sign * compareValues(oid, v, best) > 0)) best = v;
        }
        return best;
      };
    }
    case 'NullIf': {
      const l = c(e.left);
      const eq = c(e.eq);
      return (cols, i) => { const v = l(cols, i); if (v === null) return null; return eq(cols, i) === true ? null : v; };
    }
    case 'BoolOp': {
      const args = e.args.map(c);
      if (e.op === 'not') { const a = args[0]!; return (cols, i) => { const v = a(cols, i); return v === null ? null : !v; }; }
      if (e.op === 'and') {
        return (cols, i) => {
          let sawNull = false;
          for (const a of args) { const v = a(cols, i); if (v === false) return false; if (v === null) sawNull = true; }
          return sawNull ? null : true;
        };
      }
      return (cols, i) => {
        let sawNull = false;
        for (const a of args) { const v = a(cols, i); if (v === true) return true; if (v === null) sawNull = true; }
        return sawNull ? null : false;
      };
    }
    case 'NullTest': {
      const a = c(e.arg);
      const neg = e.negated;
      return (cols, i) => {
        const v = a(cols, i);
        if (isPgRecord(v)) return neg ? v.values.every((x) => x !== null) : v.values.every((x) => x === null);
        return neg ? v !== null : v === null;
      };
    }
    case 'BooleanTest': {
      const a = c(e.arg);
      const t = e.test;
      return (cols, i) => {
        const v = a(cols, i);
        switch (t) {
          case 'true': return v === true;
          case 'not_true': return v !== true;
          case 'false': return v === false;
          case 'not_false': return v !== false;
          case 'unknown': return v === null;
          case 'not_unknown': return v !== null;
        }
      };
    }
    case 'DistinctFrom': {
      const l = c(e.eq.left!);
      const r = c(e.eq.right);
      const { def, leftType, rightType } = e.eq;
      const neg = e.negated;
      return (cols, i) => {
        const lv = l(cols, i);
        const rv = r(cols, i);
        let distinct: boolean;
        if (lv === null || rv === null) distinct = lv !== rv;
        else distinct = def.impl(lv, rv, ctx, leftType!, rightType) !== true;
        return neg ? !distinct : distinct;
      };
    }
    case 'ScalarArrayOp': {
      const hashed = hashedAnyEq(e, c); // a long constant IN list: one set probe (../in-list-set.ts)
      if (hashed !== null) return hashed;
      const l = c(e.op.left!);
      const arr = c(e.op.right);
      const { def, leftType, rightType } = e.op;
      const useOr = e.useOr;
      return (cols, i) => {
        const a = arr(cols, i) as PgArray | unknown[] | null;
        if (a === null) return null;
        const values = Array.isArray(a) ? a : a.values;
        if (values.length === 0) return !useOr;
        const lv = l(cols, i);
        if (lv === null) return null;
        let sawNull = false;
        for (const x of values) {
          const r = x === null || x === undefined ? null : def.impl(lv, x, ctx, leftType!, rightType);
          if (r === null) sawNull = true;
          else if (r === useOr) return useOr;
        }
        return sawNull ? null : !useOr;
      };
    }
    case 'Subquery': {
      const subSlot: Slot = { value: null };
      const test = e.test === null ? null : compileNode(e.test, env, runners, subSlot);
      // x IN (uncorrelated subquery) with a plain same-type `=`: probe a hash set instead of scanning the rows
      const t = e.test;
      const hashable = e.subKind === 'any' && !e.correlated && t !== null && t.kind === 'Op' && t.name === '=' && t.left !== null
        && t.right.kind === 'ColumnRef' && t.right.levelsUp < 0 && t.leftType !== null && t.leftType.oid === t.rightType.oid
        ? { left: compileNode(t.left, env, runners, slot), oid: t.leftType.oid } : null;
      const runner = new SubqueryRunner(e, env, test, subSlot, hashable);
      runners.push(runner);
      return (cols, i) => runner.valueAt(cols, i);
    }
    case 'Array': {
      const els = e.elements.map(c);
      const elemOid = e.elementType.oid;
      const nested = e.elements.length > 0 && e.elementType.oid === e.type.oid;
      return (cols, i) => makeArray(elemOid, els.map((x) => x(cols, i)), nested);
    }
    case 'Subscript': {
      const arg = c(e.arg);
      const idx = e.indexes.map((x) => ({ lower: x.lower && c(x.lower), upper: x.upper && c(x.upper), slice: x.slice }));
      const elemOid = e.type.oid;
      return (cols, i) => evalSubscript(arg(cols, i), idx.map((x) => ({ lower: x.lower ? x.lower(cols, i) : undefined, upper: x.upper ? x.upper(cols, i) : undefined, slice: x.slice })), elemOid);
    }
    case 'Row': {
      const args = e.args.map(c);
      const oids = e.args.map((a) => a.type.oid);
      const names = e.fieldNames;
      if (names !== undefined) return (cols, i): PgRecord => ({ kind: 'record', fieldOids: oids, values: args.map((a) => a(cols, i)), fieldNames: names });
      return (cols, i): PgRecord => ({ kind: 'record', fieldOids: oids, values: args.map((a) => a(cols, i)) });
    }
    case 'FieldSelect': {
      const a = c(e.arg);
      const f = e.field;
      return (cols, i) => { const v = a(cols, i) as PgRecord | null; return v === null ? null : v.values[f] ?? null; };
    }
    case 'Aggregate': case 'WindowFunc': case 'Grouping': case 'SetCall':
      throw internalError(`${e.kind} ${'name' in e ? e.name : ''} reached the expression compiler`);
  }
}

function atPosition(err: unknown, position: number | undefined): unknown {
  if (position !== undefined && GatewayError.is(err) && err.position === undefined) err.position = position;
  return err;
}
