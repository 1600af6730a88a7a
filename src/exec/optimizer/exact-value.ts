/**
 * Converting a comparison constant to the column's type without changing the comparison's answer
 * (push_down_filter only pushes such predicates): integers across int2/int4/int8 when they fit, integers
 * into float8 when exactly representable, date ↔ timestamp (a timestamp bound that is not midnight still
 * gives an exact date bound for < <= > >=), and date → timestamptz at the session's TimeZone (what
 * PostgreSQL's timestamptz-vs-date operators do themselves; optimized plans are kept per TimeZone).
 * timestamp vs timestamptz: never converted.
 */
import { Oid } from '../../common/pgtypes/oids.ts';

export type CompareOp = '=' | '<>' | '<' | '<=' | '>' | '>=';

const DAY_US = 86_400_000_000n;
const INT_RANGE: Readonly<Record<number, readonly [bigint, bigint]>> = {
  [Oid.int2]: [-32768n, 32767n],
  [Oid.int4]: [-2147483648n, 2147483647n],
  [Oid.int8]: [-9223372036854775808n, 9223372036854775807n],
};

/** column types whose comparisons a source can evaluate on its own (Iceberg bounds, Parquet statistics) */
export const PUSHABLE_TYPES: ReadonlySet<number> = new Set([
  Oid.bool, Oid.int2, Oid.int4, Oid.int8, Oid.float4, Oid.float8, Oid.numeric, Oid.text, Oid.varchar, Oid.bpchar, Oid.date, Oid.timestamp, Oid.timestamptz, Oid.uuid,
]);

/**
 * `col op value` with value of type `from`, as `col op' value'` with value' of the column's type `to` (typmod
 * `toTypmod`); null if not exact.
 */
/** conversions that depend on session settings (supplied by the optimizer from the execution context) */
export interface SessionConversions {
  /** a date (days since 2000-01-01) as timestamptz µs: midnight of that day in the session TimeZone */
  dateToTimestamptz(days: number): bigint;
}

export function exactCompare(op: CompareOp, value: unknown, from: number, to: number, toTypmod = -1, session?: SessionConversions): { op: CompareOp; value: unknown } | null {
  if (value === null || value === undefined) return null;
  if (to === Oid.bpchar) return from === Oid.bpchar && op === '=' ? paddedChar(value, toTypmod) : null;
  if (from === to || (isText(from) && isText(to))) return { op, value };
  const fromRange = INT_RANGE[from];
  const toRange = INT_RANGE[to];
  if (fromRange !== undefined && toRange !== undefined) {
    const n = BigInt(value as number | bigint);
    if (n < toRange[0] || n > toRange[1]) return null;
    return { op, value: to === Oid.int8 ? n : Number(n) };
  }
  if (fromRange !== undefined && to === Oid.float8) {
    const n = Number(value as number | bigint);
    return Number.isSafeInteger(n) ? { op, value: n } : null;
  }
  if (from === Oid.date && to === Oid.timestamp) {
    return typeof value === 'number' && Number.isFinite(value) ? { op, value: BigInt(value) * DAY_US } : null;
  }
  if (from === Oid.timestamp && to === Oid.date) return timestampToDate(op, value as bigint);
  if (from === Oid.date && to === Oid.timestamptz && session !== undefined) {
    return typeof value === 'number' && Number.isFinite(value) ? { op, value: session.dateToTimestamptz(value) } : null;
  }
  return null;
}

/** whether exactCompare knows how to convert `from` values to `to` (a null answer then means "never equal") */
export function convertibleTypes(from: number, to: number): boolean {
  if (from === to || (isText(from) && isText(to))) return true;
  if (INT_RANGE[from] !== undefined && INT_RANGE[to] !== undefined) return true;
  return (from === Oid.date && to === Oid.timestamp) || (from === Oid.timestamp && to === Oid.date);
}

/**
 * char(n) values are stored blank-padded to n and compare ignoring trailing blanks: `col = 'ab'` is
 * `stored = 'ab' padded to n`. Only equality (ordering with blanks differs); never for char without length.
 */
function paddedChar(value: unknown, typmod: number): { op: CompareOp; value: unknown } | null {
  if (typeof value !== 'string' || typmod < 5) return null;
  const n = typmod - 4;
  const core = value.replace(/ +$/, '');
  const len = [...core].length;
  return len > n ? null : { op: '=', value: core + ' '.repeat(n - len) };
}

function isText(oid: number): boolean {
  return oid === Oid.text || oid === Oid.varchar;
}

const MAX_DAYS = 2_000_000_000n;

function timestampToDate(op: CompareOp, ts: bigint): { op: CompareOp; value: unknown } | null {
  const day = ts >= 0n ? ts / DAY_US : -((-ts + DAY_US - 1n) / DAY_US); // floor
  if (day > MAX_DAYS || day < -MAX_DAYS) return null; // ±infinity and beyond date's range
  if (day * DAY_US === ts) return { op, value: Number(day) };
  // ts inside day D: d < ts ⇔ d <= D; d > ts ⇔ d > D; equality can never hold
  if (op === '<' || op === '<=') return { op: '<=', value: Number(day) };
  if (op === '>' || op === '>=') return { op: '>', value: Number(day) };
  return null;
}

/** `a op b` read as `b op' a` */
export function flipOp(op: CompareOp): CompareOp {
  return op === '<' ? '>' : op === '>' ? '<' : op === '<=' ? '>=' : op === '>=' ? '<=' : op;
}
