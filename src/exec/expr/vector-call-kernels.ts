/**
 * Vector kernels of a few hot scalar functions (vector-row-kernels.ts callKernel asks here first):
 *  - extract(field from date) / date_part(field, date) with a constant field: the civil date computed from the
 *    day number in doubles (no timestamp bigint, no Numeric per row; extract's numerics are shared per value);
 *  - substring / substr(text, constant start [, constant count]): a UTF-16 slice when no surrogate pair comes
 *    before the slice's end (PostgreSQL counts code points; those rows go through substrChars).
 * Anything else a kernel meets (±infinity, a date far from 1970, a negative count) goes through the function's
 * own implementation for that row, so answers and errors stay the function's.
 * @see https://www.postgresql.org/docs/15/functions-datetime.html#FUNCTIONS-DATETIME-EXTRACT
 * @see https://www.postgresql.org/docs/15/functions-string.html
 */
import { civilInto, daysFromCivil, type CivilDate } from '../../common/pgtypes/calendar.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { parseUnit, TYPE_DATE, type Unit } from '../../functions/datetime-units.ts';
import type { Expr } from '../../sql/index.ts';
import type { ExecContext } from '../context.ts';
import { mapNonNull } from './vector-values.ts';
import type { VecFn } from './vector-types.ts';

type Call = Extract<Expr, { kind: 'Call' }>;
/** one row's answer through the function itself (the kernel's fallback for the rows it does not take) */
type Slow = (vals: unknown[]) => unknown;

/** dates farther from 1970 than this (or ±infinity) take the function's own path */
const PLAIN_DAYS = 10_000_000;

/** the fields computed here from a date's day number; the others (week, isoyear, julian…) stay on the function */
const DATE_FIELDS = new Set<Unit>(['year', 'month', 'day', 'quarter', 'decade', 'century', 'millennium', 'dow', 'isodow', 'doy', 'epoch']);

/** a special kernel for `e`, or null when the generic per-row call applies */
export function specialCallKernel(e: Call, args: readonly VecFn[], ctx: ExecContext): VecFn | null {
  const { def, argTypes, type } = e;
  const slow: Slow = (vals) => def.impl(vals, ctx, argTypes, type);
  const name = def.name;
  if ((name === 'extract' || name === 'date_part') && args.length === 2 && argTypes[1]?.oid === Oid.date) {
    const unit = constText(e.args[0]!);
    return unit === null ? null : datePartKernel(unit, name === 'extract', args[1]!, slow);
  }
  if ((name === 'substring' || name === 'substr') && (args.length === 2 || args.length === 3) && argTypes[0]?.oid === Oid.text
    && argTypes[1]?.oid === Oid.int4 && (args.length === 2 || argTypes[2]?.oid === Oid.int4)) {
    const start = constInt(e.args[1]!);
    const count = args.length === 3 ? constInt(e.args[2]!) : undefined;
    if (start === null || count === null) return null;
    return substringKernel(start, count, args[0]!, slow);
  }
  return null;
}

function constText(e: Expr): string | null {
  return e.kind === 'Literal' && typeof e.value === 'string' ? e.value : null;
}

function constInt(e: Expr): number | null {
  return e.kind === 'Literal' && typeof e.value === 'number' && Number.isInteger(e.value) ? e.value : null;
}

/**
 * the civil date of the row at hand: calendar.ts civilFromDays returns a new [y, m, d] array, one per row here
 * (TPC-H Q9's extract(year from o_orderdate): 1.9–3.3 % of its main thread)
 */
const CIVIL: CivilDate = { y: 0, m: 0, d: 0 };

/** the field `unit` of the day number `d` (|d| < PLAIN_DAYS), as extract(field from date) computes it */
function fieldOfDays(unit: Unit, d: number): number {
  if (unit === 'epoch') return d * 86400;
  if (unit === 'dow' || unit === 'isodow') {
    const w = (((d + 4) % 7) + 7) % 7;
    return unit === 'isodow' && w === 0 ? 7 : w;
  }
  civilInto(d, CIVIL);
  const y = CIVIL.y, m = CIVIL.m, day = CIVIL.d;
  switch (unit) {
    case 'year': return y > 0 ? y : y - 1;
    case 'month': return m;
    case 'day': return day;
    case 'quarter': return Math.trunc((m - 1) / 3) + 1;
    case 'decade': return y >= 0 ? Math.trunc(y / 10) : -Math.trunc((8 - (y - 1)) / 10);
    case 'century': return y > 0 ? Math.trunc((y + 99) / 100) : -Math.trunc((99 - (y - 1)) / 100);
    case 'millennium': return y > 0 ? Math.trunc((y + 999) / 1000) : -Math.trunc((999 - (y - 1)) / 1000);
    default: return d - daysFromCivil(y, 1, 1) + 1; // doy
  }
}

/**
 * extract / date_part over a date column: date_part's float8 is the field itself (PostgreSQL casts the date to
 * timestamp at midnight: the same fields), extract's numeric of scale 0 is one shared Numeric per field value
 */
function datePartKernel(unitText: string, numeric: boolean, arg: VecFn, slow: Slow): VecFn | null {
  let unit: Unit;
  try { unit = parseUnit(unitText, TYPE_DATE); } catch { return null; }
  if (!DATE_FIELDS.has(unit)) return null;
  const shared = new Map<number, Numeric>();
  // epoch values are all different: no sharing
  const share = unit !== 'epoch';
  // consecutive rows often fall in one year (sorted or clustered dates): keep the last day's answer
  let lastDay = NaN, last: unknown = null;
  return mapNonNull(arg, (d) => {
    if (d === lastDay) return last;
    if (!(typeof d === 'number' && d < PLAIN_DAYS && d > -PLAIN_DAYS)) return slow([unitText, d]);
    const f = fieldOfDays(unit, d);
    let r: unknown = f;
    if (numeric) {
      let k = share ? shared.get(f) : undefined;
      if (k === undefined) { k = Numeric.of(BigInt(f), 0); if (share && shared.size < 4096) shared.set(f, k); }
      r = k;
    }
    lastDay = d; last = r;
    return r;
  });
}

/** true when s[0, end) holds no UTF-16 surrogate (so code units are characters there) */
function plainUpTo(s: string, end: number): boolean {
  const e = Math.min(end, s.length);
  for (let k = 0; k < e; k++) { const c = s.charCodeAt(k); if (c >= 0xd800 && c <= 0xdfff) return false; }
  return true;
}

/** substring(s from start [for count]) with constant bounds (text_substr: code points, 1-based, clamped) */
function substringKernel(start: number, count: number | undefined, arg: VecFn, slow: Slow): VecFn | null {
  // a negative count is an error for every non-NULL row: the function raises it
  if (count !== undefined && count < 0) return null;
  const from = Math.max(start, 1) - 1;
  // exclusive end as a 0-based code-unit offset when the characters are code units
  const end = count === undefined ? Infinity : start + count - 1;
  const empty = end <= from;
  const args: unknown[] = count === undefined ? [null, start] : [null, start, count];
  return mapNonNull(arg, (s) => {
    if (empty) return '';
    if (typeof s === 'string' && plainUpTo(s, end === Infinity ? from : end)) return end === Infinity ? s.slice(from) : s.slice(from, end);
    args[0] = s;
    return slow(args.slice());
  });
}
