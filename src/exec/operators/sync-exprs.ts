/**
 * syncExprs: can these expressions be evaluated without ever waiting? True when they hold no subquery (its
 * runner awaits a plan), no aggregate, window or set-returning call, and no volatile function (pg_sleep is
 * volatile and returns a Promise; immutable and stable functions answer synchronously). The operators'
 * executeSync (operator.ts) runs only over such expressions; anything else keeps the async path. A whitelist
 * of expression kinds, memoized per expression array (plans are immutable).
 */
import type { Expr } from '../../sql/index.ts';

const EXPR_KINDS: ReadonlySet<string> = new Set([
  'ColumnRef', 'Literal', 'Param', 'Call', 'Op', 'Cast', 'Case', 'Coalesce', 'MinMax', 'NullIf', 'BoolOp', 'NullTest',
  'BooleanTest', 'DistinctFrom', 'ScalarArrayOp', 'Array', 'Subscript', 'Row', 'FieldSelect',
]);

/** properties holding implementations and types, not sub-expressions */
const SKIPPED: ReadonlySet<string> = new Set(['def', 'fn', 'type', 'argTypes', 'leftType', 'rightType', 'elementType']);

const memo = new WeakMap<object, boolean>();

/** `exprs`: an expression, or a (nested) array of them; memoized per object */
export function syncExprs(exprs: Expr | readonly (Expr | null)[] | readonly (readonly Expr[])[]): boolean {
  let ok = memo.get(exprs);
  if (ok === undefined) {
    ok = walk(exprs, 0);
    memo.set(exprs, ok);
  }
  return ok;
}

function walk(node: unknown, depth: number): boolean {
  if (depth > 200) return false; // deeper than a short statement's expressions: not worth proving
  if (Array.isArray(node)) return node.every((n) => walk(n, depth + 1));
  if (node === null || typeof node !== 'object') return true;
  const o = node as Record<string, unknown>;
  const kind = o.kind;
  if (typeof kind === 'string') {
    if (!EXPR_KINDS.has(kind)) return false;
    if (kind === 'Call' && (o.def as { readonly volatility?: string } | undefined)?.volatility === 'v') return false;
  }
  for (const key in o) {
    if (SKIPPED.has(key)) continue;
    const v = o[key];
    if (v !== null && typeof v === 'object' && !walk(v, depth + 1)) return false;
  }
  return true;
}
