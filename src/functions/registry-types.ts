/**
 * The contract of lakegate's function library: scalar functions, operators, casts, aggregates and
 * set-returning functions. Each entry carries its PostgreSQL signature (used by the binder's type
 * resolution, the same rules as PostgreSQL's func_select_candidate / oper_select_candidate) and its
 * implementation (called by the executor). pg_proc / pg_operator / pg_cast are generated from it.
 * Values are JS values as described in common/pgtypes/values.ts.
 */
import type { SqlType } from '../common/pgtypes/oids.ts';
import type { SessionView } from '../catalog/session-view.ts';
import type { CatalogView } from '../catalog/catalog-view.ts';

export interface EvalContext {
  readonly session: SessionView;
  readonly catalog: CatalogView;
  /** µs since epoch: now() / transaction_timestamp() */
  readonly transactionTimestamp: bigint;
  /** µs since epoch: statement_timestamp() */
  readonly statementTimestamp: bigint;
  readonly signal: AbortSignal;
}

export type Volatility = 'i' | 's' | 'v';

/** Argument/return type as declared: a concrete OID or a polymorphic pseudo-type (Oid.anyelement, Oid.anyarray, Oid.any, ...). */
export type DeclaredType = number;

/** Computes the result type from the resolved argument types (for polymorphic or typmod-preserving functions). */
export type ReturnTypeFn = (argTypes: readonly SqlType[]) => SqlType;

interface RoutineBase {
  /** lower-case name, as in pg_proc.proname */
  readonly name: string;
  readonly args: readonly DeclaredType[];
  /** number of trailing args that have defaults (may be omitted by the caller) */
  readonly defaults?: number;
  /** pg_proc.proargnames: parameter names, enabling named notation (`make_interval(days => 10)`) */
  readonly argNames?: readonly string[];
  /**
   * values of the `defaults` trailing args (pg_proc.proargdefaults), as JS values of their declared types;
   * the binder fills them in when named notation skips a defaulted parameter before a supplied one
   */
  readonly argDefaults?: readonly unknown[];
  /** element type of a VARIADIC last argument (args' last entry is then the array type) */
  readonly variadic?: DeclaredType;
  readonly returns: DeclaredType | ReturnTypeFn;
  /** pg_proc.oid where PostgreSQL has one (clients sometimes look these up); otherwise assigned */
  readonly oid?: number;
  readonly volatility?: Volatility;
  readonly description?: string;
}

export interface ScalarFunctionDef extends RoutineBase {
  readonly kind: 'scalar';
  /** default true: a NULL argument gives NULL without calling impl */
  readonly strict?: boolean;
  readonly impl: (args: unknown[], ctx: EvalContext, argTypes: readonly SqlType[], returnType: SqlType) => unknown;
}

/** Set-returning function used in FROM or the select list (generate_series, unnest, ...). */
export interface SetFunctionDef extends RoutineBase {
  readonly kind: 'set';
  readonly strict?: boolean;
  /** column names/types when the function returns several columns (e.g. pg_get_keywords); else one column named after the function */
  readonly outColumns?: (argTypes: readonly SqlType[]) => ReadonlyArray<{ name: string; type: SqlType }>;
  /** yields one value per row (or an array of column values when outColumns is given) */
  readonly impl: (args: unknown[], ctx: EvalContext, argTypes: readonly SqlType[]) => Iterable<unknown>;
}

export interface AggregateState {
  /** adds one row's (non-filtered) argument values */
  step(args: readonly unknown[]): void;
  /** the aggregate's result */
  final(): unknown;
  /** merges a partial state of the same aggregate (for parallel/partial aggregation) */
  combine?(other: AggregateState): void;
}

export interface AggregateDef extends RoutineBase {
  readonly kind: 'aggregate';
  /** default true: rows where any argument is NULL are skipped (count(*) has no args) */
  readonly strict?: boolean;
  /**
   * set for ordered-set aggregates (pg_aggregate.aggkind 'o'), called `f(direct) WITHIN GROUP (ORDER BY x)`:
   * the number of leading direct arguments (aggnumdirectargs). Each row steps with [direct..., x] in ORDER BY order.
   */
  readonly directArgs?: number;
  readonly create: (ctx: EvalContext, argTypes: readonly SqlType[], returnType: SqlType) => AggregateState;
}

export type RoutineDef = ScalarFunctionDef | SetFunctionDef | AggregateDef;

export interface OperatorDef {
  /** e.g. '+', '=', '~~' (LIKE), '~' (regex), '||', '@>', '->>' */
  readonly name: string;
  /** left operand type, or 0 for a prefix operator */
  readonly left: DeclaredType;
  readonly right: DeclaredType;
  readonly returns: DeclaredType | ReturnTypeFn;
  readonly oid?: number;
  /** pg_operator.oprcode: the name of the function implementing it */
  readonly procName?: string;
  readonly commutator?: string;
  readonly negator?: string;
  /** default true: a NULL operand gives NULL without calling impl (false for array_cat / array_append / array_prepend) */
  readonly strict?: boolean;
  /** operators are strict: a NULL operand gives NULL (AND/OR/IS DISTINCT FROM are not operators here) */
  readonly impl: (left: unknown, right: unknown, ctx: EvalContext, leftType: SqlType, rightType: SqlType) => unknown;
}

/** 'i' implicit, 'a' assignment, 'e' explicit only — pg_cast.castcontext */
export type CastContext = 'i' | 'a' | 'e';

export interface CastDef {
  readonly source: number;
  readonly target: number;
  readonly context: CastContext;
  /** 'f' function, 'b' binary-coercible (no work), 'i' via I/O */
  readonly method: 'f' | 'b' | 'i';
  /**
   * converts a non-null value; typmod is the target's (-1 if none), e.g. to round numeric(10,2) or cut varchar(5).
   * `explicit` is true for CAST/:: (varchar(n)/bpchar(n) then truncate instead of raising 22001), as PostgreSQL's isExplicit.
   */
  readonly impl: (value: unknown, targetTypmod: number, ctx: EvalContext, explicit?: boolean) => unknown;
}
