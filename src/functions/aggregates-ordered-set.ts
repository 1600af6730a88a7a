/**
 * Ordered-set aggregates, called as `f(direct args) WITHIN GROUP (ORDER BY x)`: percentile_cont,
 * percentile_disc (a fraction or an array of fractions) and mode. Like PostgreSQL's, their pg_proc
 * signature lists the direct arguments then the aggregated one (percentile_cont(float8, float8)); the
 * binder passes both per row and the executor feeds the rows sorted by the WITHIN GROUP keys.
 * NULL inputs are ignored; a NULL fraction gives NULL.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/orderedsetaggs.c
 */
import { Oid, type SqlType } from '../common/pgtypes/oids.ts';
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { isPgArray, type Interval, type PgArray } from '../common/pgtypes/values.ts';
import type { AggregateDef, AggregateState } from './registry-types.ts';
import { compareValues } from './compare-values.ts';
import { intervalAdd, intervalMul, intervalSub } from './interval-math.ts';

const { float8, interval, _float8, _interval, anyelement, anyarray } = Oid;

function osa(oid: number, name: string, args: number[], returns: number, create: AggregateDef['create'], directArgs: number): AggregateDef {
  return { kind: 'aggregate', oid, name, args, returns, volatility: 'i', strict: false, directArgs, create };
}

function checkFraction(p: number): number {
  if (!(p >= 0 && p <= 1)) {
    throw pgError(SqlState.numeric_value_out_of_range, `percentile value ${Number.isNaN(p) ? 'nan' : String(p)} is not between 0 and 1`);
  }
  return p;
}

type Lerp = (lo: unknown, hi: unknown, pct: number) => unknown;
const floatLerp: Lerp = (lo, hi, pct) => (lo as number) + pct * ((hi as number) - (lo as number));
const intervalLerp: Lerp = (lo, hi, pct) => intervalAdd(intervalMul(intervalSub(hi as Interval, lo as Interval), pct), lo as Interval);

/** the sorted non-null inputs of one group, and the direct argument (the same on every row) */
class SortedInput implements AggregateState {
  readonly rows: unknown[] = [];
  direct: unknown = null;
  seenDirect = false;
  constructor(private readonly finish: (s: SortedInput) => unknown) {}
  step(args: readonly unknown[]): void {
    if (!this.seenDirect && args.length > 1) { this.direct = args[0] ?? null; this.seenDirect = true; }
    const v = args[args.length - 1];
    if (v !== null && v !== undefined) this.rows.push(v);
  }
  final(): unknown {
    return this.finish(this);
  }
}

function cont(rows: readonly unknown[], p: number, lerp: Lerp): unknown {
  checkFraction(p);
  const n = rows.length;
  if (n === 0) return null;
  const first = Math.floor(p * (n - 1));
  const second = Math.ceil(p * (n - 1));
  const lo = rows[first];
  if (second === first) return lo;
  return lerp(lo, rows[second], p * (n - 1) - first);
}

function disc(rows: readonly unknown[], p: number): unknown {
  checkFraction(p);
  const n = rows.length;
  if (n === 0) return null;
  const rownum = Math.ceil(p * n);
  return rows[Math.max(rownum, 1) - 1] ?? null;
}

/** the multi-fraction forms: one result per array element, NULL elements stay NULL, same dimensions */
function multi(fractions: PgArray, elementOid: number, one: (p: number) => unknown): PgArray {
  return { ...fractions, elementOid, values: fractions.values.map((p) => (p === null || p === undefined ? null : one(p as number))) };
}

function single(pick: (rows: readonly unknown[], p: number) => unknown): AggregateDef['create'] {
  return () => new SortedInput((s) => (s.direct === null || s.rows.length === 0 ? null : pick(s.rows, s.direct as number)));
}

/** `element`: the result's element type, which is the aggregated input's */
function many(pick: (rows: readonly unknown[], p: number) => unknown): AggregateDef['create'] {
  return (_ctx, argTypes: readonly SqlType[]) => new SortedInput((s) => {
    if (s.direct === null || !isPgArray(s.direct) || s.rows.length === 0) return null;
    return multi(s.direct, argTypes[1]?.oid ?? 0, (p) => pick(s.rows, p));
  });
}

/** mode(): the most frequent value; among equally frequent ones the first in sort order */
function modeCreate(_ctx: unknown, argTypes: readonly SqlType[]): AggregateState {
  const oid = argTypes[0]?.oid ?? 0;
  return new SortedInput((s) => {
    let best: unknown = null;
    let bestCount = 0;
    let cur: unknown = null;
    let count = 0;
    for (const v of s.rows) {
      if (count > 0 && compareValues(oid, v, cur) === 0) count++;
      else { cur = v; count = 1; }
      if (count > bestCount) { best = cur; bestCount = count; }
    }
    return best;
  });
}

export const orderedSetAggregates: readonly AggregateDef[] = [
  osa(3972, 'percentile_disc', [float8, anyelement], anyelement, single(disc), 1),
  osa(3974, 'percentile_cont', [float8, float8], float8, single((r, p) => cont(r, p, floatLerp)), 1),
  osa(3976, 'percentile_cont', [float8, interval], interval, single((r, p) => cont(r, p, intervalLerp)), 1),
  osa(3978, 'percentile_disc', [_float8, anyelement], anyarray, many(disc), 1),
  osa(3980, 'percentile_cont', [_float8, float8], _float8, many((r, p) => cont(r, p, floatLerp)), 1),
  osa(3982, 'percentile_cont', [_float8, interval], _interval, many((r, p) => cont(r, p, intervalLerp)), 1),
  osa(3984, 'mode', [anyelement], anyelement, (ctx, argTypes) => modeCreate(ctx, argTypes), 0),
];
