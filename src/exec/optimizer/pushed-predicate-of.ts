/**
 * A conjunct over a TableScan's row → the PushedPredicate a source can use, or null. Recognised:
 * `col op constant` (either side; op one of = <> < <= > >=), `col IS [NOT] NULL`, `col IN (…)` (the binder's
 * OR of equalities) and `col = ANY(array constant or $n)`, `col LIKE 'prefix…'` (the literal prefix is a
 * necessary condition) and AND / OR of those. A constant is a Literal or a Param whose type is the column's;
 * literals of another type are converted only when exact (exact-value.ts). `col` may carry a widening cast
 * (varchar → text, int2 → int4 → int8, date → timestamp), which changes no comparison's answer.
 * `col op col` of two integer, date or timestamp columns of the scan (exactPair) is a column pair (session 22).
 */
import { Oid } from '../../common/pgtypes/oids.ts';
import { elementTypeOf } from '../../common/pgtypes/registry.ts';
import { isPgArray } from '../../common/pgtypes/values.ts';
import type { Expr, PushedPredicate, PushedValue } from '../../sql/index.ts';
import { pushedPrefixOf } from './pushed-prefix-of.ts';
import { convertibleTypes, exactCompare, flipOp, PUSHABLE_TYPES, type CompareOp, type SessionConversions } from './exact-value.ts';

const COMPARE_OPS: ReadonlySet<string> = new Set(['=', '<>', '<', '<=', '>', '>=']);

/** widening casts a source may look through */
const WIDENING: ReadonlySet<string> = new Set([`${Oid.varchar}>${Oid.text}`, `${Oid.int2}>${Oid.int4}`, `${Oid.int2}>${Oid.int8}`, `${Oid.int4}>${Oid.int8}`, `${Oid.date}>${Oid.timestamp}`]);

/** parameter types every value of which the column type holds exactly */
const PARAM_WIDENING: ReadonlySet<string> = new Set([`${Oid.int2}>${Oid.int4}`, `${Oid.int2}>${Oid.int8}`, `${Oid.int4}>${Oid.int8}`]);

interface ColumnSide { readonly column: number; readonly type: number; readonly typmod: number }

function columnOf(e: Expr, width: number): ColumnSide | null {
  if (e.kind === 'ColumnRef') {
    return e.levelsUp === 0 && e.index < width && PUSHABLE_TYPES.has(e.type.oid) ? { column: e.index, type: e.type.oid, typmod: e.type.typmod } : null;
  }
  if (e.kind === 'Cast' && e.arg.kind === 'ColumnRef' && WIDENING.has(`${e.arg.type.oid}>${e.type.oid}`)) return columnOf(e.arg, width);
  return null;
}

function isConst(e: Expr): e is PushedValue {
  return e.kind === 'Literal' || e.kind === 'Param';
}

const INT_PARAMS: ReadonlySet<number> = new Set([Oid.int2, Oid.int4, Oid.int8]);

/**
 * the constant side of a comparison with `col`: a Literal or Param, or an integer Param cast to plain numeric
 * against a numeric column — a literal-normalised plan's `l_quantity < 24` is `l_quantity < $1::numeric`, and
 * every integer is exactly a numeric (resolve-pushed.ts makes its value a Numeric)
 */
function constOf(e: Expr, col: ColumnSide): PushedValue | null {
  if (isConst(e)) return e;
  if (e.kind === 'Cast' && e.arg.kind === 'Param' && col.type === Oid.numeric && e.type.oid === Oid.numeric && e.type.typmod === -1 && INT_PARAMS.has(e.arg.type.oid)) {
    return { ...e.arg, type: { oid: Oid.numeric, typmod: -1 } };
  }
  return null;
}

function compareOf(op: CompareOp, col: ColumnSide, value: PushedValue, session?: SessionConversions): PushedPredicate | null {
  // a parameter is taken as is (char(n) would need padding: not pushed); an int2/int4 one against a wider
  // integer column (`int8col = $1` of a literal-normalised plan) holds only exact values: typed as the column
  // so that resolve-pushed.ts converts it to the column's representation
  if (value.kind === 'Param') {
    if (col.type === Oid.bpchar) return null;
    if (value.type.oid === col.type) return { kind: 'compare', op, column: col.column, value };
    return PARAM_WIDENING.has(`${value.type.oid}>${col.type}`) ? { kind: 'compare', op, column: col.column, value: { ...value, type: { oid: col.type, typmod: -1 } } } : null;
  }
  const exact = exactCompare(op, value.value, value.type.oid, col.type, col.typmod, session);
  if (exact === null) {
    // `=` with a value the column's type cannot hold exactly (int4 = 5000000000, char(3) = 'toolong'): no row matches
    const never = op === '=' && value.value !== null && convertibleTypes(value.type.oid, col.type) && !(col.type === Oid.bpchar && col.typmod < 5);
    return never ? { kind: 'in', column: col.column, values: [] } : null;
  }
  return { kind: 'compare', op: exact.op, column: col.column, value: { kind: 'Literal', value: exact.value, type: { oid: col.type, typmod: col.typmod } } };
}

const INTEGERS: ReadonlySet<number> = new Set([Oid.int2, Oid.int4, Oid.int8]);
const TIMES: ReadonlySet<number> = new Set([Oid.date, Oid.timestamp, Oid.timestamptz]);

/**
 * two column types whose comparison a scan makes exactly (catalog/table-source.ts compareColumns): integers of
 * any width, a date / timestamp / timestamptz against its own type, a date against a timestamp (the date at
 * midnight; against timestamptz it would take the session's time zone)
 */
function exactPair(a: number, b: number): boolean {
  if (INTEGERS.has(a) || INTEGERS.has(b)) return INTEGERS.has(a) && INTEGERS.has(b);
  if (a === b) return TIMES.has(a);
  return (a === Oid.date && b === Oid.timestamp) || (a === Oid.timestamp && b === Oid.date);
}

/** the literal prefix of a LIKE pattern (up to the first wildcard or escape) */
export function likePrefix(pattern: string): string {
  const m = /^[^%_\\]*/.exec(pattern);
  return m === null ? '' : m[0];
}

/** a pattern whose every escape has its character: one the scan may judge whole (a dangling one raises 22025) */
const WHOLE_PATTERN = /^(?:[^\\]|\\[\s\S])*$/u;

/**
 * `col [NOT] LIKE pattern` (escape `\`): the literal prefix, a necessary condition of LIKE, and the whole pattern
 * with it when the scan could judge it on the stored bytes (read/utf8-like-matcher.ts) — 'prefix%' is its prefix
 * exactly. NOT LIKE has no necessary prefix: '' (the value is not null) with the pattern, or nothing.
 */
function likePushed(column: number, pattern: string, negated: boolean): PushedPredicate | null {
  const prefix = likePrefix(pattern);
  if (!negated && pattern === `${prefix}%` && prefix.length > 0) return { kind: 'startsWith', column, prefix };
  if (WHOLE_PATTERN.test(pattern)) return { kind: 'startsWith', column, prefix: negated ? '' : prefix, like: { pattern, negated } };
  return negated || prefix.length === 0 ? null : { kind: 'startsWith', column, prefix };
}

export function pushedPredicateOf(e: Expr, width: number, session?: SessionConversions): PushedPredicate | null {
  const prefix = pushedPrefixOf(e, width); // substring(col, 1, n) = / IN constants of n characters
  if (prefix !== undefined) return prefix;
  switch (e.kind) {
    case 'BoolOp': {
      if (e.op === 'not') return null;
      const args = e.args.map((a) => pushedPredicateOf(a, width, session));
      if (e.op === 'and') {
        const kept = args.filter((a): a is PushedPredicate => a !== null);
        return kept.length === 0 ? null : kept.length === 1 ? kept[0]! : { kind: 'and', args: kept };
      }
      // OR: every arm must be known, else the disjunction says nothing
      if (args.some((a) => a === null)) return null;
      return mergeIn(args as PushedPredicate[]) ?? { kind: 'or', args: args as PushedPredicate[] };
    }
    case 'NullTest': {
      const col = columnOf(e.arg, width);
      return col === null ? null : { kind: e.negated ? 'isNotNull' : 'isNull', column: col.column };
    }
    case 'Op': {
      if (e.left === null) return null;
      if (e.name === '~~' || e.name === '!~~') {
        const col = columnOf(e.left, width);
        if (col === null || (col.type !== Oid.text && col.type !== Oid.varchar) || e.right.kind !== 'Literal' || typeof e.right.value !== 'string') return null;
        return likePushed(col.column, e.right.value, e.name === '!~~');
      }
      if (!COMPARE_OPS.has(e.name)) return null;
      const op = e.name as CompareOp;
      const l = columnOf(e.left, width);
      const lv = l === null ? null : constOf(e.right, l);
      if (l !== null && lv !== null) return compareOf(op, l, lv, session);
      const r = columnOf(e.right, width);
      const rv = r === null ? null : constOf(e.left, r);
      if (r !== null && rv !== null) return compareOf(flipOp(op), r, rv, session);
      return l !== null && r !== null && exactPair(l.type, r.type) ? { kind: 'compareColumns', op, column: l.column, other: r.column } : null;
    }
    case 'ScalarArrayOp': {
      if (!e.useOr || e.op.name !== '=' || e.op.left === null) return null;
      const col = columnOf(e.op.left, width);
      const arr = e.op.right;
      if (col === null) return null;
      if (arr.kind === 'Param') return elementTypeOf(arr.type.oid) === col.type && col.type !== Oid.bpchar ? { kind: 'in', column: col.column, values: arr } : null;
      if (arr.kind !== 'Literal' || !isPgArray(arr.value) || arr.value.dims.length > 1) return null;
      const from = elementTypeOf(arr.type.oid);
      if (!convertibleTypes(from, col.type)) return null;
      const values: PushedValue[] = [];
      for (const v of arr.value.values) {
        if (v === null) continue; // NULL never equals
        const exact = exactCompare('=', v, from, col.type, col.typmod);
        if (exact === null && col.type === Oid.bpchar && col.typmod < 5) return null; // char without length: unknown
        // no exact value of the column's type: no row can be equal
        if (exact !== null) values.push({ kind: 'Literal', value: exact.value, type: { oid: col.type, typmod: col.typmod } });
      }
      return { kind: 'in', column: col.column, values };
    }
    default:
      return null;
  }
}

/** OR of `col = c` / `col IN (…)` on one column → one IN */
function mergeIn(args: readonly PushedPredicate[]): PushedPredicate | null {
  const column = args[0]?.kind === 'compare' || args[0]?.kind === 'in' ? args[0].column : -1;
  const values: PushedValue[] = [];
  for (const a of args) {
    if (a.kind === 'compare' && a.op === '=' && a.column === column) values.push(a.value);
    else if (a.kind === 'in' && a.column === column && Array.isArray(a.values)) values.push(...(a.values as PushedValue[]));
    else return null;
  }
  return { kind: 'in', column, values };
}
