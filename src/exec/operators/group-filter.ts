/**
 * A Filter's predicate over a hash aggregate's output (HAVING) judged on the groups' typed states before their
 * rows are made (FilterExec offers it, HashAggregateExec asks here). TPC-H Q18's `sum(l_quantity) > 300` keeps 57
 * of 1.5M order groups at SF 1: every other group would become a BigInt key and a Numeric sum only to be dropped.
 * Conservative: a group is left out only when a conjunct `aggregate op constant` is proved false or NULL from its
 * typed state (expr/group-states.ts typedResult); any other conjunct or group is kept for the Filter, which still
 * applies the whole predicate to the rows that come up.
 */
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { conjunctsOf, type AggregateExpr, type Expr } from '../../sql/index.ts';
import type { GroupStates } from '../expr/group-states.ts';

type Cmp = '<' | '<=' | '>' | '>=' | '=' | '<>';
const SWAPPED: Readonly<Record<Cmp, Cmp>> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '=': '=', '<>': '<>' };
const isCmp = (name: string): name is Cmp => name in SWAPPED;
/** int2, int4, int8, numeric: the types whose comparison is the numeric order of their values */
const NUMBER_OIDS = new Set([21, 23, 20, 1700]);
/** integers whose double is exact */
const EXACT = 2 ** 53;

/** one conjunct `aggregate k  op  lu × 10^-ls` */
interface Bound {
  readonly k: number;
  readonly op: Cmp;
  readonly lu: bigint;
  readonly ls: number;
  /** the constant in units of 10^-scale, cached for the last scale asked (NaN: not an exact double there) */
  scale: number;
  at: number;
}

/** a group id → false when the group is proved to fail the predicate */
export type GroupJudge = (g: number) => boolean;

/** the constant as lu × 10^-ls, or null (not a finite number, or not an exact one) */
function constantOf(e: Expr): { lu: bigint; ls: number } | null {
  const lit = e.kind === 'Cast' && NUMBER_OIDS.has(e.type.oid) ? e.arg : e;
  if (lit.kind !== 'Literal' || !NUMBER_OIDS.has(lit.type.oid)) return null;
  const v = lit.value;
  // a cast of a fractional literal to an integer type rounds: only integers pass through a cast
  if (typeof v === 'number') return Number.isSafeInteger(v) ? { lu: BigInt(v), ls: 0 } : null;
  if (typeof v === 'bigint') return { lu: v, ls: 0 };
  if (lit === e && Numeric.isNumeric(v) && v.isFinite()) return { lu: v.unscaled, ls: v.scale };
  return null;
}

/** the aggregates whose typed states may hold their result (GroupStates.typedResult) */
const TYPED = new Set(['count', 'sum']);

/** the conjunct as a Bound on the output column of a count or sum (after the keyCount keys), or null */
function boundOf(e: Expr, keyCount: number, aggregates: readonly AggregateExpr[]): Bound | null {
  if (e.kind !== 'Op' || e.left === null || !isCmp(e.name)) return null;
  const aggOf = (x: Expr): number => (x.kind === 'ColumnRef' && x.levelsUp === 0 && x.index >= keyCount && NUMBER_OIDS.has(x.type.oid)
    && TYPED.has(aggregates[x.index - keyCount]?.name ?? '') ? x.index - keyCount : -1);
  let k = aggOf(e.left), other = e.right, op: Cmp = e.name;
  if (k < 0) { k = aggOf(e.right); other = e.left; op = SWAPPED[op]; }
  const c = k < 0 ? null : constantOf(other);
  return c === null ? null : { k, op, lu: c.lu, ls: c.ls, scale: -1, at: NaN };
}

/** the constant in units of 10^-scale when that is an exact double, else NaN */
function constantAt(b: Bound, scale: number): number {
  if (b.scale === scale) return b.at;
  let at = NaN;
  if (scale >= b.ls) {
    const u = b.lu * 10n ** BigInt(scale - b.ls);
    if (u < EXACT && u > -EXACT) at = Number(u);
  }
  b.scale = scale;
  b.at = at;
  return at;
}

function holds(op: Cmp, x: number, c: number): boolean {
  switch (op) {
    case '<': return x < c;
    case '<=': return x <= c;
    case '>': return x > c;
    case '>=': return x >= c;
    case '=': return x === c;
    case '<>': return x !== c;
  }
}

/**
 * the judge of `predicate` over an aggregate's output (keyCount group keys, then one column per aggregate) for
 * the groups of `states`, or null when no conjunct can be judged so
 */
export function groupJudgeOf(predicate: Expr, keyCount: number, aggregates: readonly AggregateExpr[], states: GroupStates): GroupJudge | null {
  const bounds = conjunctsOf(predicate).map((e) => boundOf(e, keyCount, aggregates)).filter((b): b is Bound => b !== null);
  if (bounds.length === 0) return null;
  const out = new Float64Array(2);
  return (g) => {
    for (const b of bounds) {
      const r = states.typedResult(b.k, g, out);
      if (r === 0) return false; // NULL: the comparison is not true
      if (r < 0) continue;
      const c = constantAt(b, out[1]!);
      // both sides are exact integers in units of 10^-scale
      if (c === c && !holds(b.op, out[0]!, c)) return false;
    }
    return true;
  };
}
