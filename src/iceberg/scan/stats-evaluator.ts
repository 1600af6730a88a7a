/**
 * "Might this set of rows match?" for a BoundPredicate over per-field statistics: Iceberg's inclusive metrics
 * evaluator (Java InclusiveMetricsEvaluator), shared by manifest partition summaries, partition tuples, data
 * file metrics and Parquet row-group statistics. `false` means no row can match; unknown statistics answer
 * `true`.
 *
 * PostgreSQL order: NaN is above every float, so `x > v`, `x >= v`, `x <> v` may match NaN rows, which
 * Iceberg bounds never include: those prune float columns only when the NaN count is known to be 0.
 * Truncated string bounds stay valid: a truncated lower bound is ≤ the minimum, and writers round a
 * truncated upper bound up.
 */
import { compareValues, type BoundPredicate } from './bound-predicate.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { anyKeyWithin, sortedIntegerKeys } from './sorted-in-keys.ts';

export interface FieldStats {
  /** undefined: unknown. Never NaN. */
  readonly lower?: unknown;
  readonly upper?: unknown;
  readonly nullCount?: number;
  /** values including nulls and NaNs */
  readonly valueCount?: number;
  readonly nanCount?: number;
  /** known to hold only nulls */
  readonly allNull?: boolean;
}

export type StatsLookup = (fieldId: number) => FieldStats | undefined;

const isFloat = (t: PrimitiveType): boolean => t.name === 'float' || t.name === 'double';

function allNull(s: FieldStats): boolean {
  return s.allNull === true || (s.nullCount !== undefined && s.valueCount !== undefined && s.nullCount === s.valueCount && s.valueCount > 0);
}

/** every non-null value is NaN (counts known) */
function allNaN(t: PrimitiveType, s: FieldStats): boolean {
  return isFloat(t) && s.nanCount !== undefined && s.nanCount > 0 && s.valueCount !== undefined && s.nullCount !== undefined
    && s.nanCount === s.valueCount - s.nullCount;
}

function codePointPrefix(s: string, n: number): string {
  let out = '';
  let k = 0;
  for (const c of s) {
    if (k++ >= n) break;
    out += c;
  }
  return out;
}

export function mightMatch(b: BoundPredicate, stats: StatsLookup): boolean {
  switch (b.kind) {
    case 'true': return true;
    case 'false': return false;
    case 'and': return b.args.every((a) => mightMatch(a, stats));
    case 'or': return b.args.some((a) => mightMatch(a, stats));
    case 'compareFields': return true; // a column pair: no statistics of one column decide it
    default: break;
  }
  const s = stats(b.fieldId);
  if (s === undefined) return true;
  switch (b.kind) {
    case 'isNull': return s.nullCount === undefined || s.nullCount > 0;
    case 'isNotNull': return !allNull(s);
    default: break;
  }
  if (allNull(s)) return false;
  const t = b.type;
  const lo = s.lower;
  const hi = s.upper;
  if (b.kind === 'in') return !allNaN(t, s) && inMightMatch(t, lo, hi, b.values);
  if (b.kind === 'startsWith') {
    const n = [...b.prefix].length;
    if (typeof lo === 'string' && compareValues(t, codePointPrefix(lo, n), b.prefix) > 0) return false;
    if (typeof hi === 'string' && compareValues(t, codePointPrefix(hi, n), b.prefix) < 0) return false;
    return true;
  }
  const v = b.value;
  const nanFree = !isFloat(t) || s.nanCount === 0;
  // only >, >= and <> can hold on NaN (above every float)
  if (allNaN(t, s)) return b.op === '>' || b.op === '>=' || b.op === '<>';
  switch (b.op) {
    case '=': return eqMightMatch(t, lo, hi, v);
    case '<': return lo === undefined || compareValues(t, lo, v) < 0;
    case '<=': return lo === undefined || compareValues(t, lo, v) <= 0;
    case '>': return !nanFree || hi === undefined || compareValues(t, hi, v) > 0;
    case '>=': return !nanFree || hi === undefined || compareValues(t, hi, v) >= 0;
    case '<>':
      // lower = upper = v: every non-null value is v (nulls never match <>)
      return !nanFree || lo === undefined || hi === undefined || compareValues(t, lo, v) !== 0 || compareValues(t, hi, v) !== 0;
  }
}

/** some value within [lo, hi]: by binary search over a long integer list (sorted-in-keys.ts) */
function inMightMatch(t: PrimitiveType, lo: unknown, hi: unknown, values: readonly unknown[]): boolean {
  const sorted = sortedIntegerKeys(values);
  const hit = sorted === null ? null : anyKeyWithin(sorted, lo, hi);
  return hit ?? values.some((v) => eqMightMatch(t, lo, hi, v));
}

function eqMightMatch(t: PrimitiveType, lo: unknown, hi: unknown, v: unknown): boolean {
  if (lo !== undefined && compareValues(t, v, lo) < 0) return false;
  if (hi !== undefined && compareValues(t, v, hi) > 0) return false;
  return true;
}
