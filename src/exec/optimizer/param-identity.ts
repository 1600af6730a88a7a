/**
 * Whether a `$n` holds the same value as another `$n` or a constant, for rules that may then treat them as one. A
 * literal-normalised statement (engine/literal-params.ts) binds the constants of its WHERE to `$n`, but not those
 * of its subqueries: TPC-H Q2's `r_name = 'EUROPE'`, written in the outer query and in its min(ps_supplycost)
 * subquery, becomes `r_name = $2` and `r_name = 'EUROPE'` — two filters that keep the same rows only while $2 is
 * 'EUROPE' (correlated_aggregate_from_join). Such a plan holds for the values it was made for, not for the shape:
 * each `$n` a rule compares is pinned, and the optimized-plan memo (planner.ts optimizedFor) keys plans by the
 * pinned values (pinKey), so an execution with another value there is optimized again.
 */
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import type { LiteralExpr, ParamExpr } from '../../sql/index.ts';

/** a pinned `$n`: its index and the type its value was read as */
export interface ParamPin {
  readonly index: number;
  readonly oid: number;
}

/** the pins of the optimization the planner runs now (null: not memoized, nothing to record) */
let collecting: ParamPin[] | null = null;

/** runs `optimize`, returning its result and the `$n` it compared (planner.ts: the memo keys the plan by their values) */
export function collectingPins<T>(optimize: () => T): { readonly result: T; readonly pins: readonly ParamPin[] } {
  const outer = collecting;
  const pins: ParamPin[] = [];
  collecting = pins;
  try {
    return { result: optimize(), pins };
  } finally {
    collecting = outer;
  }
}

/**
 * the text that stands for a value of type `oid` (equal text = the same value to every expression), or null for
 * values never treated as the same: char(n) compares and prints without trailing blanks, numeric keeps its scale
 */
function identityOf(v: unknown, oid: number): string | null {
  switch (typeof v) {
    case 'string': return `s${oid === Oid.bpchar ? v.replace(/ +$/, '') : v}`;
    case 'number': return Object.is(v, -0) ? 'n-0' : `n${v}`;
    case 'bigint': return `b${v}`;
    case 'boolean': return v ? 'T' : 'F';
    case 'undefined': return 'N';
    case 'object':
      if (v === null) return 'N';
      return v instanceof Numeric ? `d${v.toString()}` : null;
    default: return null;
  }
}

/**
 * whether `a` and `b` — each a `$n` or a constant, of one type — hold the same value in this execution; every `$n`
 * read is pinned
 */
export function sameValue(params: readonly unknown[], a: ParamExpr | LiteralExpr, b: ParamExpr | LiteralExpr): boolean {
  if (a.type.oid !== b.type.oid) return false;
  const oid = a.type.oid;
  const valueOf = (x: ParamExpr | LiteralExpr): unknown => {
    if (x.kind === 'Literal') return x.value;
    collecting?.push({ index: x.index, oid });
    return params[x.index];
  };
  const va = identityOf(valueOf(a), oid);
  return va !== null && va === identityOf(valueOf(b), oid);
}

/** the memo key part of the pinned `$n`: their values' identity texts */
export function pinKey(params: readonly unknown[], pins: readonly ParamPin[]): string {
  let key = '';
  for (const p of pins) key += `${p.index}:${identityOf(params[p.index], p.oid) ?? '?'}\u0000`;
  return key;
}
