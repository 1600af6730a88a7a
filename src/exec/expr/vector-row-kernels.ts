/**
 * Vector kernels of nodes that call a per-value implementation (vector-expr.ts): function calls, casts,
 * IS [NOT] NULL, `x op ANY (constant array)`. They save the closure tree per row, not the call itself, except
 * the calls vector-call-kernels.ts computes itself and the IN / NOT IN lists in-list-set.ts probes as a set.
 */
import { isPgRecord } from '../../common/pgtypes/values.ts';
import type { Expr } from '../../sql/index.ts';
import type { ExecContext } from '../context.ts';
import { specialCallKernel } from './vector-call-kernels.ts';
import { anyEqSet } from '../in-list-set.ts';
import { copyRows, mapNonNull, pick, valuesOf } from './vector-values.ts';
import { selCount, type VecFn } from './vector-types.ts';

type Ctx = ExecContext;

/** f(args…): strict functions skip rows with a NULL argument */
export function callKernel(e: Extract<Expr, { kind: 'Call' }>, args: readonly VecFn[], ctx: Ctx): VecFn {
  const special = specialCallKernel(e, args, ctx);
  if (special !== null) return special;
  const { def, argTypes, type } = e;
  const strict = def.strict !== false;
  if (args.length === 1 && strict) {
    // one argument: no per-row map over the arguments (casts-like functions: upper, length, abs…)
    return mapNonNull(args[0]!, (x) => def.impl([x], ctx, argTypes, type));
  }
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

/** CAST(x AS t) through its cast function (a binary-coercible cast compiles to its argument) */
export function castKernel(e: Extract<Expr, { kind: 'Cast' }>, arg: VecFn, ctx: Ctx): VecFn {
  const f = e.fn!, typmod = e.type.typmod;
  return mapNonNull(arg, (x) => f(x, typmod, ctx));
}

/** x IS [NOT] NULL; a composite value tests its fields, through the row closure `rowTest` */
export function nullTestKernel(arg: VecFn, rowTest: VecFn, negated: boolean): VecFn {
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
      out[i] = negated ? !isNull : isNull;
    }
    if (records) {
      const recs = pick(sel, n, (i) => isPgRecord(v[i]));
      copyRows(out, valuesOf(rowTest(cols, n, recs), recs, n), recs);
    }
    return { tag: 'values', v: out };
  };
}

/** x op ANY/ALL (constant array): the answer of the first deciding element, NULL if only NULLs undecided */
export function scalarArrayOpKernel(e: Extract<Expr, { kind: 'ScalarArrayOp' }>, left: VecFn, values: readonly unknown[], ctx: Ctx): VecFn {
  const { def, leftType, rightType } = e.op;
  const useOr = e.useOr;
  const hashed = anyEqSet(e, values);
  if (hashed !== null) return mapNonNull(left, hashed);
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
