/**
 * Bound expressions: the typed tree the binder produces and the executor compiles to closures.
 * Immutable data with a `kind` discriminator; column references are by position in the input row
 * (`levelsUp` > 0 reaches the row of an enclosing query: a correlated outer reference).
 */
import type { SqlType } from '../../common/pgtypes/oids.ts';
import type { AggregateDef, OperatorDef, ScalarFunctionDef, SetFunctionDef } from '../../functions/registry-types.ts';
import type { CastFn } from '../binder/function-registry.ts';
import type { LogicalPlan } from './plan.ts';

export interface ColumnRefExpr { readonly kind: 'ColumnRef'; readonly index: number; readonly levelsUp: number; readonly type: SqlType; readonly name: string; /** 1-based position in the SQL text, for errors */ readonly location?: number }
export interface LiteralExpr { readonly kind: 'Literal'; readonly value: unknown; readonly type: SqlType; readonly location?: number }
/** $n: `index` is 0-based */
export interface ParamExpr { readonly kind: 'Param'; readonly index: number; readonly type: SqlType }
export interface CallExpr { readonly kind: 'Call'; readonly name: string; readonly def: ScalarFunctionDef; readonly args: readonly Expr[]; readonly argTypes: readonly SqlType[]; readonly type: SqlType }
export interface OpExpr { readonly kind: 'Op'; readonly name: string; readonly def: OperatorDef; readonly left: Expr | null; readonly right: Expr; readonly leftType: SqlType | null; readonly rightType: SqlType; readonly type: SqlType }
export interface CastExpr { readonly kind: 'Cast'; readonly arg: Expr; readonly fn: CastFn | null; readonly type: SqlType; /** reported when converting a literal fails, as PostgreSQL does at parse time */ readonly position?: number }
export interface CaseExpr { readonly kind: 'Case'; readonly whens: readonly { readonly cond: Expr; readonly result: Expr }[]; readonly elseExpr: Expr; readonly type: SqlType }
export interface CoalesceExpr { readonly kind: 'Coalesce'; readonly args: readonly Expr[]; readonly type: SqlType }
/** GREATEST / LEAST; NULLs are ignored as in PostgreSQL */
export interface MinMaxExpr { readonly kind: 'MinMax'; readonly op: 'greatest' | 'least'; readonly args: readonly Expr[]; readonly type: SqlType }
export interface NullIfExpr { readonly kind: 'NullIf'; readonly left: Expr; readonly eq: OpExpr; readonly type: SqlType }
export interface BoolOpExpr { readonly kind: 'BoolOp'; readonly op: 'and' | 'or' | 'not'; readonly args: readonly Expr[]; readonly type: SqlType }
export interface NullTestExpr { readonly kind: 'NullTest'; readonly arg: Expr; readonly negated: boolean; readonly type: SqlType }
export interface BooleanTestExpr { readonly kind: 'BooleanTest'; readonly arg: Expr; readonly test: 'true' | 'not_true' | 'false' | 'not_false' | 'unknown' | 'not_unknown'; readonly type: SqlType }
/** a IS [NOT] DISTINCT FROM b, evaluated with the `=` operator in `eq` */
export interface DistinctFromExpr { readonly kind: 'DistinctFrom'; readonly eq: OpExpr; readonly negated: boolean; readonly type: SqlType }
/** left op ANY/ALL (array) */
export interface ScalarArrayOpExpr { readonly kind: 'ScalarArrayOp'; readonly op: OpExpr; readonly useOr: boolean; readonly type: SqlType }
export type SubqueryKind = 'scalar' | 'exists' | 'any' | 'all' | 'array';
/**
 * A subquery. For any/all, `test` compares `testExpr` with the subquery's first column, which the test
 * reads as a ColumnRef with levelsUp = -1 (a slot the executor fills per subquery row).
 */
export interface SubqueryExpr {
  readonly kind: 'Subquery';
  readonly subKind: SubqueryKind;
  readonly plan: LogicalPlan;
  readonly test: Expr | null;
  readonly correlated: boolean;
  readonly type: SqlType;
}
export interface ArrayExpr { readonly kind: 'Array'; readonly elements: readonly Expr[]; readonly elementType: SqlType; readonly type: SqlType }
export interface SubscriptExpr { readonly kind: 'Subscript'; readonly arg: Expr; readonly indexes: readonly { readonly lower: Expr | null; readonly upper: Expr | null; readonly slice: boolean }[]; readonly type: SqlType }
export interface RowExpr { readonly kind: 'Row'; readonly args: readonly Expr[]; readonly type: SqlType; /** a whole-row reference's column names */ readonly fieldNames?: readonly string[] }
export interface FieldSelectExpr { readonly kind: 'FieldSelect'; readonly arg: Expr; readonly field: number; readonly type: SqlType }
/** only during binding: replaced by ColumnRefs into the Aggregate node's output */
export interface AggregateExpr { readonly kind: 'Aggregate'; readonly name: string; readonly def: AggregateDef; readonly args: readonly Expr[]; readonly argTypes: readonly SqlType[]; readonly distinct: boolean; readonly star: boolean; readonly filter: Expr | null; readonly orderBy: readonly SortKeyExpr[]; readonly type: SqlType }
/** GROUPING(a, b): bit mask of the arguments not grouped in the current grouping set */
export interface GroupingExpr { readonly kind: 'Grouping'; readonly args: readonly Expr[]; readonly type: SqlType }
export interface WindowFrame {
  readonly mode: 'rows' | 'range' | 'groups';
  readonly start: FrameBound;
  readonly end: FrameBound;
}
/** RANGE offset frames: key ± offset (PostgreSQL's in_range), compared in `resultType` */
export interface RangeOffsetOps {
  readonly plus: OperatorDef;
  readonly minus: OperatorDef;
  readonly keyType: SqlType;
  readonly offsetType: SqlType;
  readonly resultType: SqlType;
  /** converts an ORDER BY value to resultType (date → timestamp for date ± interval), or null */
  readonly keyCast: CastFn | null;
}
export type FrameBound =
  | { readonly kind: 'unboundedPreceding' } | { readonly kind: 'unboundedFollowing' } | { readonly kind: 'currentRow' }
  | { readonly kind: 'preceding' | 'following'; readonly offset: Expr; readonly range?: RangeOffsetOps };
export interface WindowSpec { readonly partitionBy: readonly Expr[]; readonly orderBy: readonly SortKeyExpr[]; readonly frame: WindowFrame }
/** only during binding: replaced by ColumnRefs into the Window node's output */
export interface WindowFuncExpr { readonly kind: 'WindowFunc'; readonly name: string; readonly agg: AggregateDef | null; readonly args: readonly Expr[]; readonly argTypes: readonly SqlType[]; readonly filter: Expr | null; readonly star: boolean; readonly spec: WindowSpec; readonly type: SqlType }
/** set-returning function call in a select list (ProjectSet evaluates it) */
export interface SetCallExpr { readonly kind: 'SetCall'; readonly name: string; readonly def: SetFunctionDef; readonly args: readonly Expr[]; readonly argTypes: readonly SqlType[]; readonly type: SqlType }

export type Expr =
  | ColumnRefExpr | LiteralExpr | ParamExpr | CallExpr | OpExpr | CastExpr | CaseExpr | CoalesceExpr | MinMaxExpr
  | NullIfExpr | BoolOpExpr | NullTestExpr | BooleanTestExpr | DistinctFromExpr | ScalarArrayOpExpr | SubqueryExpr
  | ArrayExpr | SubscriptExpr | RowExpr | FieldSelectExpr | AggregateExpr | GroupingExpr | WindowFuncExpr | SetCallExpr;

export type ExprKind = Expr['kind'];

export interface SortKeyExpr {
  readonly expr: Expr;
  readonly descending: boolean;
  readonly nullsFirst: boolean;
}

/** Direct children of an expression (not descending into subquery plans). */
export function exprChildren(e: Expr): Expr[] {
  switch (e.kind) {
    case 'ColumnRef': case 'Literal': case 'Param': return [];
    case 'Call': case 'Coalesce': case 'MinMax': case 'BoolOp': case 'Row': case 'SetCall': case 'Grouping': return [...e.args];
    case 'Op': return e.left === null ? [e.right] : [e.left, e.right];
    case 'Cast': case 'NullTest': case 'BooleanTest': case 'FieldSelect': return [e.arg];
    case 'Case': return [...e.whens.flatMap((w) => [w.cond, w.result]), e.elseExpr];
    case 'NullIf': return [e.left, e.eq];
    case 'DistinctFrom': return [e.eq];
    case 'ScalarArrayOp': return [e.op];
    case 'Subquery': return e.test === null ? [] : [e.test];
    case 'Array': return [...e.elements];
    case 'Subscript': return [e.arg, ...e.indexes.flatMap((i) => [i.lower, i.upper].filter((x): x is Expr => x !== null))];
    case 'Aggregate': return [...e.args, ...(e.filter ? [e.filter] : []), ...e.orderBy.map((o) => o.expr)];
    case 'WindowFunc': return [...e.args, ...(e.filter ? [e.filter] : []), ...e.spec.partitionBy, ...e.spec.orderBy.map((o) => o.expr)];
  }
}

/** Rebuilds an expression bottom-up; `fn` returns a replacement or undefined to recurse. */
export function transformExpr(e: Expr, fn: (e: Expr) => Expr | undefined): Expr {
  const r = fn(e);
  if (r !== undefined) return r;
  const t = (x: Expr): Expr => transformExpr(x, fn);
  switch (e.kind) {
    case 'ColumnRef': case 'Literal': case 'Param': return e;
    case 'Call': return { ...e, args: e.args.map(t) };
    case 'SetCall': return { ...e, args: e.args.map(t) };
    case 'Coalesce': return { ...e, args: e.args.map(t) };
    case 'MinMax': return { ...e, args: e.args.map(t) };
    case 'BoolOp': return { ...e, args: e.args.map(t) };
    case 'Row': return { ...e, args: e.args.map(t) };
    case 'Grouping': return e;
    case 'Op': return { ...e, left: e.left === null ? null : t(e.left), right: t(e.right) };
    case 'Cast': return { ...e, arg: t(e.arg) };
    case 'NullTest': return { ...e, arg: t(e.arg) };
    case 'BooleanTest': return { ...e, arg: t(e.arg) };
    case 'FieldSelect': return { ...e, arg: t(e.arg) };
    case 'Case': return { ...e, whens: e.whens.map((w) => ({ cond: t(w.cond), result: t(w.result) })), elseExpr: t(e.elseExpr) };
    case 'NullIf': return { ...e, left: t(e.left), eq: t(e.eq) as OpExpr };
    case 'DistinctFrom': return { ...e, eq: t(e.eq) as OpExpr };
    case 'ScalarArrayOp': return { ...e, op: t(e.op) as OpExpr };
    case 'Subquery': return { ...e, test: e.test === null ? null : t(e.test) };
    case 'Array': return { ...e, elements: e.elements.map(t) };
    case 'Subscript': return { ...e, arg: t(e.arg), indexes: e.indexes.map((i) => ({ lower: i.lower && t(i.lower), upper: i.upper && t(i.upper), slice: i.slice })) };
    case 'Aggregate': return { ...e, args: e.args.map(t), filter: e.filter && t(e.filter), orderBy: e.orderBy.map((o) => ({ ...o, expr: t(o.expr) })) };
    case 'WindowFunc': return { ...e, args: e.args.map(t), filter: e.filter && t(e.filter), spec: { ...e.spec, partitionBy: e.spec.partitionBy.map(t), orderBy: e.spec.orderBy.map((o) => ({ ...o, expr: t(o.expr) })) } };
  }
}

/** the conjuncts of an AND tree (nested ANDs flattened); any other expression is its own one conjunct */
export function conjunctsOf(e: Expr): Expr[] {
  return e.kind === 'BoolOp' && e.op === 'and' ? e.args.flatMap(conjunctsOf) : [e];
}

/** the conjunction of one or more conjuncts (one stays itself) */
export function andOf(es: readonly Expr[]): Expr {
  return es.length === 1 ? es[0]! : { kind: 'BoolOp', op: 'and', args: es, type: es[0]!.type };
}

export function someExpr(e: Expr, pred: (e: Expr) => boolean): boolean {
  if (pred(e)) return true;
  return exprChildren(e).some((c) => someExpr(c, pred));
}

/**
 * Structural equality (used to match GROUP BY expressions); subqueries compare by identity. `sameValue`, when
 * given, is asked about a `$n` or constant the structure does not match with the other side's `$n` or constant
 * (a rule that knows the execution's values: exec/optimizer/param-identity.ts).
 */
export function exprEquals(a: Expr, b: Expr, sameValue?: (a: ParamExpr | LiteralExpr, b: ParamExpr | LiteralExpr) => boolean): boolean {
  if (a === b) return true;
  if (sameValue !== undefined && (a.kind === 'Param' || a.kind === 'Literal') && (b.kind === 'Param' || b.kind === 'Literal')) {
    return exprEquals(a, b) || sameValue(a, b);
  }
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'ColumnRef': { const o = b as ColumnRefExpr; return a.index === o.index && a.levelsUp === o.levelsUp; }
    case 'Literal': { const o = b as LiteralExpr; return a.type.oid === o.type.oid && keyOf(a.value) === keyOf(o.value); }
    case 'Param': return a.index === (b as ParamExpr).index;
    case 'Subquery': return false;
    case 'Call': if (a.def !== (b as CallExpr).def) return false; break;
    case 'SetCall': if (a.def !== (b as SetCallExpr).def) return false; break;
    case 'Op': if (a.def !== (b as OpExpr).def) return false; break;
    case 'Cast': if (a.type.oid !== (b as CastExpr).type.oid || a.type.typmod !== (b as CastExpr).type.typmod) return false; break;
    case 'BoolOp': if (a.op !== (b as BoolOpExpr).op) return false; break;
    case 'NullTest': if (a.negated !== (b as NullTestExpr).negated) return false; break;
    case 'MinMax': if (a.op !== (b as MinMaxExpr).op) return false; break;
    case 'Aggregate': if (a.def !== (b as AggregateExpr).def || a.distinct !== (b as AggregateExpr).distinct) return false; break;
    case 'WindowFunc': return false;
    case 'FieldSelect': if (a.field !== (b as FieldSelectExpr).field) return false; break;
    default: break;
  }
  const ca = exprChildren(a);
  const cb = exprChildren(b);
  return ca.length === cb.length && ca.every((c, i) => exprEquals(c, cb[i]!, sameValue));
}

function keyOf(v: unknown): string {
  return typeof v === 'bigint' ? `${v}n` : JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x));
}
