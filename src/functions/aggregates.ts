/**
 * Aggregate functions: count, sum, avg, min/max, bool_and/bool_or/every, bit_and/bit_or/bit_xor,
 * string_agg, array_agg, the stddev/variance family and corr/covar/regr_* (aggregates-regr.ts), with
 * PostgreSQL 15's pg_proc OIDs and result types (sum(int4) → int8, sum(int8) → numeric, avg(int) → numeric ...).
 * Every state implements combine.
 * COUNT(DISTINCT ...) and ORDER BY inside aggregates are the executor's job.
 * @see https://www.postgresql.org/docs/15/functions-aggregate.html
 */
import { FoldState } from './fold-state.ts';
import { Oid, type SqlType } from '../common/pgtypes/oids.ts';
import type { Numeric } from '../common/pgtypes/numeric.ts';
import { GatewayError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { type PgArray } from '../common/pgtypes/values.ts';
import type { AggregateDef, AggregateState } from './registry-types.ts';
import { compareValues } from './compare-values.ts';
import { checkInt8, floatArith } from './int-arith.ts';
import { FloatStats, NumericStats, type StatKind } from './aggregates-stats.ts';
import { regressionAggregates } from './aggregates-regr.ts';
import { NumericSum } from './numeric-sum.ts';
import { intervalAdd, intervalDiv } from './interval-math.ts';
import type { Interval } from '../common/pgtypes/values.ts';

const { int2, int4, int8, float4, float8, numeric, bool, text, bytea } = Oid;

function agg(oid: number, name: string, args: number[], returns: AggregateDef['returns'], create: AggregateDef['create'], strict = true): AggregateDef {
  return { kind: 'aggregate', oid, name, args, returns, volatility: 'i', strict, create };
}

/** avg(interval): interval sum divided by the count (interval_avg). */
class IntervalAvgState implements AggregateState {
  sum: Interval | null = null;
  n = 0;
  step(args: readonly unknown[]): void {
    const x = args[0] as Interval;
    this.sum = this.sum === null ? x : intervalAdd(this.sum, x);
    this.n++;
  }
  combine(other: AggregateState): void {
    const o = other as IntervalAvgState;
    if (o.sum === null) return;
    this.sum = this.sum === null ? o.sum : intervalAdd(this.sum, o.sum);
    this.n += o.n;
  }
  final(): unknown {
    return this.sum === null ? null : intervalDiv(this.sum, this.n);
  }
}

/** counts in a double (exact far beyond any row count), so a row allocates no bigint */
export class CountState implements AggregateState {
  n = 0;
  step(): void {
    this.n++;
  }
  combine(other: AggregateState): void {
    this.n += (other as CountState).n;
  }
  final(): unknown {
    return BigInt(this.n);
  }
}

/** sum(int2/int4) → int8: a double while exact (|sum| ≤ 2^53 - 2^31), a bigint beyond */
const INT_SUM_LIMIT = 2 ** 53 - 2 ** 31;
class IntSumState implements AggregateState {
  small = 0;
  big = 0n;
  seen = false;
  step(args: readonly unknown[]): void {
    this.seen = true;
    const t = this.small + (args[0] as number);
    if (t > INT_SUM_LIMIT || t < -INT_SUM_LIMIT) { this.big = checkInt8(this.big + BigInt(t)); this.small = 0; }
    else this.small = t;
  }
  combine(other: AggregateState): void {
    const o = other as IntSumState;
    if (!o.seen) return;
    this.seen = true;
    this.big = checkInt8(this.big + o.big + BigInt(o.small));
  }
  final(): unknown {
    return this.seen ? checkInt8(this.big + BigInt(this.small)) : null;
  }
}

/** sum(int8) / sum(numeric) → numeric, exact (numeric-sum.ts) */
export class NumericSumState implements AggregateState {
  readonly sum = new NumericSum();
  /** the running sum the vector kernels add numerics to directly (NumericSum.addScaled), as step() would */
  scaledSum(): NumericSum | null {
    return this.sum;
  }
  step(args: readonly unknown[]): void {
    const v = args[0];
    if (typeof v === 'bigint' || typeof v === 'number') this.sum.addInteger(v);
    else this.sum.add(v as Numeric);
  }
  combine(other: AggregateState): void {
    this.sum.merge((other as NumericSumState).sum);
  }
  final(): unknown {
    return this.sum.result();
  }
}

function sumDef(oid: number, arg: number, ret: number): AggregateDef {
  if (ret === int8) return agg(oid, 'sum', [arg], ret, () => new IntSumState());
  if (ret === numeric) return agg(oid, 'sum', [arg], ret, () => new NumericSumState());
  const merge = (a: unknown, b: unknown): unknown => floatArith('+', ret, a as number, b as number);
  return agg(oid, 'sum', [arg], ret, () => new FoldState<unknown>(merge));
}

function statDefs(name: string, kind: StatKind, oids: Record<number, number>): AggregateDef[] {
  const out: AggregateDef[] = [];
  for (const [argText, oid] of Object.entries(oids)) {
    const arg = Number(argText);
    const isFloat = arg === float4 || arg === float8;
    out.push(agg(oid, name, [arg], isFloat ? float8 : numeric, () => (isFloat ? new FloatStats(kind) : new NumericStats(kind, kind !== 'avg'))));
  }
  return out;
}

const MINMAX_TYPES: ReadonlyArray<readonly [number, number, number]> = [
  // [type, max oid, min oid]
  [int8, 2115, 2131], [int4, 2116, 2132], [int2, 2117, 2133], [Oid.oid, 2118, 2134], [float4, 2119, 2135], [float8, 2120, 2136],
  [Oid.date, 2122, 2138], [Oid.time, 2123, 2139], [Oid.timetz, 2124, 2140], [Oid.timestamp, 2126, 2142],
  [Oid.timestamptz, 2127, 2143], [Oid.interval, 2128, 2144], [text, 2129, 2145], [numeric, 2130, 2146], [Oid.bpchar, 2244, 2245],
  [Oid.anyarray, 2050, 2051], [Oid.xid8, 5099, 5100],
];

function minMax(): AggregateDef[] {
  const out: AggregateDef[] = [];
  for (const [type, maxOid, minOid] of MINMAX_TYPES) {
    const cmpOf = (t: readonly SqlType[]) => (a: unknown, b: unknown): number => compareValues(t[0]?.oid ?? type, a, b);
    out.push(
      agg(maxOid, 'max', [type], type, (_c, t) => {
        const cmp = cmpOf(t);
        return new FoldState<unknown>((a, b) => (cmp(a, b) > 0 ? a : b)); // ties keep the newer value, as *_larger
      }),
      agg(minOid, 'min', [type], type, (_c, t) => {
        const cmp = cmpOf(t);
        return new FoldState<unknown>((a, b) => (cmp(a, b) < 0 ? a : b));
      }),
    );
  }
  return out;
}

function bitDefs(): AggregateDef[] {
  const out: AggregateDef[] = [];
  const ops = { bit_and: [2236, 2238, 2240], bit_or: [2237, 2239, 2241], bit_xor: [6164, 6165, 6166] } as const;
  for (const [name, [o2, o4, o8]] of Object.entries(ops)) {
    const numOp = (a: number, b: number): number => (name === 'bit_and' ? a & b : name === 'bit_or' ? a | b : a ^ b);
    const bigOp = (a: bigint, b: bigint): bigint => (name === 'bit_and' ? a & b : name === 'bit_or' ? a | b : a ^ b);
    out.push(
      agg(o2, name, [int2], int2, () => new FoldState<number>(numOp)),
      agg(o4, name, [int4], int4, () => new FoldState<number>(numOp)),
      agg(o8, name, [int8], int8, () => new FoldState<bigint>(bigOp)),
    );
  }
  return out;
}

/** string_agg(value, delimiter): NULL values are skipped, a NULL delimiter counts as empty. */
class StringAggState implements AggregateState {
  parts: Array<string | Uint8Array> = [];
  delims: Array<string | Uint8Array> = [];
  constructor(private readonly bytes: boolean) {}
  step(args: readonly unknown[]): void {
    const v = args[0];
    if (v === null || v === undefined) return;
    this.parts.push(v as string | Uint8Array);
    this.delims.push((args[1] ?? (this.bytes ? new Uint8Array() : '')) as string | Uint8Array);
  }
  combine(other: AggregateState): void {
    const o = other as StringAggState;
    this.parts.push(...o.parts);
    this.delims.push(...o.delims);
  }
  final(): unknown {
    if (this.parts.length === 0) return null;
    if (!this.bytes) {
      let s = this.parts[0] as string;
      for (let i = 1; i < this.parts.length; i++) s += (this.delims[i] as string) + (this.parts[i] as string);
      return s;
    }
    const chunks: Uint8Array[] = [this.parts[0] as Uint8Array];
    for (let i = 1; i < this.parts.length; i++) chunks.push(this.delims[i] as Uint8Array, this.parts[i] as Uint8Array);
    return new Uint8Array(Buffer.concat(chunks));
  }
}

/** array_agg(anynonarray) keeps NULLs; array_agg(anyarray) stacks equal-shaped arrays into one more dimension. */
class ArrayAggState implements AggregateState {
  values: unknown[] = [];
  constructor(private readonly elementOid: number, private readonly ofArrays: boolean) {}
  step(args: readonly unknown[]): void {
    const v = args[0] ?? null;
    if (this.ofArrays) {
      if (v === null) throw new GatewayError(SqlState.null_value_not_allowed, 'cannot accumulate null arrays');
      const a = v as PgArray;
      if (a.values.length === 0) throw new GatewayError(SqlState.array_subscript_error, 'cannot accumulate empty arrays');
      const first = this.values[0] as PgArray | undefined;
      if (first !== undefined && (first.dims.length !== a.dims.length || first.dims.some((d, i) => d !== a.dims[i]))) {
        throw new GatewayError(SqlState.array_subscript_error, 'cannot accumulate arrays of different dimensionality');
      }
    }
    this.values.push(v);
  }
  combine(other: AggregateState): void {
    const o = (other as ArrayAggState).values;
    if (this.ofArrays && this.values.length > 0 && o.length > 0) {
      const a = this.values[0] as PgArray;
      const b = o[0] as PgArray;
      if (a.dims.length !== b.dims.length || a.dims.some((d, i) => d !== b.dims[i])) {
        throw new GatewayError(SqlState.array_subscript_error, 'cannot accumulate arrays of different dimensionality');
      }
    }
    this.values.push(...o);
  }
  final(): unknown {
    if (this.values.length === 0) return null;
    if (!this.ofArrays) {
      return { kind: 'array', elementOid: this.elementOid, dims: [this.values.length], lowerBounds: [1], values: this.values } satisfies PgArray;
    }
    const first = this.values[0] as PgArray;
    return {
      kind: 'array', elementOid: first.elementOid, dims: [this.values.length, ...first.dims], lowerBounds: [1, ...first.lowerBounds],
      values: this.values.flatMap((a) => (a as PgArray).values),
    } satisfies PgArray;
  }
}

export const aggregateFunctions: readonly AggregateDef[] = [
  agg(2803, 'count', [], int8, () => new CountState()),
  agg(2147, 'count', [Oid.any], int8, () => new CountState()),
  sumDef(2109, int2, int8), sumDef(2108, int4, int8), sumDef(2107, int8, numeric), sumDef(2114, numeric, numeric),
  sumDef(2110, float4, float4), sumDef(2111, float8, float8),
  agg(2113, 'sum', [Oid.interval], Oid.interval, () => new FoldState<Interval>(intervalAdd)),
  agg(2106, 'avg', [Oid.interval], Oid.interval, () => new IntervalAvgState()),
  ...statDefs('avg', 'avg', { [int8]: 2100, [int4]: 2101, [int2]: 2102, [numeric]: 2103, [float4]: 2104, [float8]: 2105 }),
  ...statDefs('stddev', 'stddev_samp', { [int8]: 2154, [int4]: 2155, [int2]: 2156, [float4]: 2157, [float8]: 2158, [numeric]: 2159 }),
  ...statDefs('stddev_samp', 'stddev_samp', { [int8]: 2712, [int4]: 2713, [int2]: 2714, [float4]: 2715, [float8]: 2716, [numeric]: 2717 }),
  ...statDefs('stddev_pop', 'stddev_pop', { [int8]: 2724, [int4]: 2725, [int2]: 2726, [float4]: 2727, [float8]: 2728, [numeric]: 2729 }),
  ...statDefs('variance', 'var_samp', { [int8]: 2148, [int4]: 2149, [int2]: 2150, [float4]: 2151, [float8]: 2152, [numeric]: 2153 }),
  ...statDefs('var_samp', 'var_samp', { [int8]: 2641, [int4]: 2642, [int2]: 2643, [float4]: 2644, [float8]: 2645, [numeric]: 2646 }),
  ...statDefs('var_pop', 'var_pop', { [int8]: 2718, [int4]: 2719, [int2]: 2720, [float4]: 2721, [float8]: 2722, [numeric]: 2723 }),
  ...minMax(),
  agg(2517, 'bool_and', [bool], bool, () => new FoldState<boolean>((a, b) => a && b)),
  agg(2518, 'bool_or', [bool], bool, () => new FoldState<boolean>((a, b) => a || b)),
  agg(2519, 'every', [bool], bool, () => new FoldState<boolean>((a, b) => a && b)),
  ...bitDefs(),
  agg(3538, 'string_agg', [text, text], text, () => new StringAggState(false), false),
  agg(3545, 'string_agg', [bytea, bytea], bytea, () => new StringAggState(true), false),
  agg(2335, 'array_agg', [Oid.anynonarray], Oid.anyarray, (_c, t) => new ArrayAggState(t[0]?.oid ?? text, false), false),
  agg(4053, 'array_agg', [Oid.anyarray], Oid.anyarray, (_c, t) => new ArrayAggState(t[0]?.oid ?? text, true), false),
  ...regressionAggregates,
];

