/**
 * compareValues / valueKey: PostgreSQL's btree ordering (the type's default opclass) and a hash key with
 * the same equality, for every type in values.ts. Sort, merge join, min/max and the comparison operators
 * use compareValues; hash join and hash aggregate use valueKey.
 * Text compares bytewise in UTF-8 (the C collation). Floats and numeric sort NaN above everything, as PostgreSQL.
 */
import { Oid } from '../common/pgtypes/oids.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { elementTypeOf } from '../common/pgtypes/registry.ts';
import { isPgArray, isPgRecord, type Interval, type PgArray, type TimeTz } from '../common/pgtypes/values.ts';
import { compareJsonb, jsonbKey } from './jsonb-order.ts';
import { compareInet } from '../common/pgtypes/inet-value.ts';

const DAY_MICROS = 86_400_000_000n;

/** Code-point (= UTF-8 byte) order of two JS strings. */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // surrogates (U+10000..) sort above U+E000..U+FFFF in code-point order
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length < 0 ? -1 : a.length === b.length ? 0 : 1;
}

/** bpchar ignores trailing blanks (bpcharcmp). */
export function trimTrailingBlanks(s: string): string {
  let e = s.length;
  while (e > 0 && s.charCodeAt(e - 1) === 32) e--;
  return e === s.length ? s : s.slice(0, e);
}

function cmpNum(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === b) return 0;
  // NaN is larger than everything and equal to itself (float8_cmp_internal)
  const an = Number.isNaN(a);
  const bn = Number.isNaN(b);
  return an && bn ? 0 : an ? 1 : -1;
}

function cmpBig(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function cmpBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** interval_cmp_value: months count as 30 days, days as 24 hours. */
export function intervalSpan(v: Interval): bigint {
  return (BigInt(v.months) * 30n + BigInt(v.days)) * DAY_MICROS + v.micros;
}

function cmpTimeTz(a: TimeTz, b: TimeTz): number {
  const ua = a.micros - a.offsetSeconds * 1e6;
  const ub = b.micros - b.offsetSeconds * 1e6;
  if (ua !== ub) return ua < ub ? -1 : 1;
  // PostgreSQL then orders by its west-positive zone: a larger east offset sorts first
  return cmpNum(-a.offsetSeconds, -b.offsetSeconds);
}

/** array_cmp: element-wise (NULL above any value), then element count, dimensions, lower bounds. */
function cmpArray(a: PgArray, b: PgArray, elemOid: number): number {
  const n = Math.min(a.values.length, b.values.length);
  for (let i = 0; i < n; i++) {
    const x = a.values[i];
    const y = b.values[i];
    if (x === null || x === undefined) {
      if (y === null || y === undefined) continue;
      return 1;
    }
    if (y === null || y === undefined) return -1;
    const c = compareValues(elemOid, x, y);
    if (c !== 0) return c;
  }
  if (a.values.length !== b.values.length) return a.values.length < b.values.length ? -1 : 1;
  if (a.dims.length !== b.dims.length) return a.dims.length < b.dims.length ? -1 : 1;
  for (let i = 0; i < a.dims.length; i++) {
    if (a.dims[i] !== b.dims[i]) return a.dims[i]! < b.dims[i]! ? -1 : 1;
    if (a.lowerBounds[i] !== b.lowerBounds[i]) return a.lowerBounds[i]! < b.lowerBounds[i]! ? -1 : 1;
  }
  return 0;
}

/**
 * Total order of two non-null values of type `oid` (negative, 0, positive). Unknown types fall back to
 * comparing their text form, so the function never throws on a well-typed value.
 */
export function compareValues(oid: number, a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return cmpNum(a, b);
  if (typeof a === 'bigint' && typeof b === 'bigint') return cmpBig(a, b);
  if (typeof a === 'string' && typeof b === 'string') {
    if (oid === Oid.bpchar) return compareText(trimTrailingBlanks(a), trimTrailingBlanks(b));
    if (oid === Oid.jsonb) return compareJsonb(a, b);
    if (oid === Oid.inet || oid === Oid.cidr) return compareInet(a, b); // network_cmp, not text order
    return compareText(a, b);
  }
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Numeric.isNumeric(a) && Numeric.isNumeric(b)) return a.compare(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) return cmpBytes(a, b);
  if (isPgArray(a) && isPgArray(b)) return cmpArray(a, b, elementTypeOf(oid) || a.elementOid);
  if (isPgRecord(a) && isPgRecord(b)) {
    const n = Math.min(a.values.length, b.values.length);
    for (let i = 0; i < n; i++) {
      const x = a.values[i];
      const y = b.values[i];
      if (x === null || x === undefined || y === null || y === undefined) {
        if ((x ?? null) === (y ?? null)) continue;
        return x === null || x === undefined ? 1 : -1;
      }
      const c = compareValues(a.fieldOids[i] ?? 0, x, y);
      if (c !== 0) return c;
    }
    return a.values.length - b.values.length;
  }
  if (oid === Oid.interval || isInterval(a)) return cmpBig(intervalSpan(a as Interval), intervalSpan(b as Interval));
  if (oid === Oid.timetz || isTimeTz(a)) return cmpTimeTz(a as TimeTz, b as TimeTz);
  // mixed number/bigint (int4 vs int8 operands that were not coerced)
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) {
    return cmpNum(Number(a), Number(b));
  }
  return compareText(String(a), String(b));
}

function isInterval(v: unknown): v is Interval {
  return typeof v === 'object' && v !== null && 'months' in v && 'micros' in v;
}

function isTimeTz(v: unknown): v is TimeTz {
  return typeof v === 'object' && v !== null && 'offsetSeconds' in v;
}

export type HashKey = string | number | bigint | boolean;

/**
 * A primitive key with the same equality as compareValues(oid, ·, ·) === 0, for Map-based hash tables.
 * Integers in the safe range map to numbers whatever their type, so int4 and int8 keys meet.
 */
export function valueKey(oid: number, v: unknown): HashKey {
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : v === 0 ? 0 : v;
  if (typeof v === 'bigint') return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return oid === Oid.bpchar ? trimTrailingBlanks(v) : oid === Oid.jsonb ? jsonbKey(v) : v;
  if (Numeric.isNumeric(v)) return numericKey(v);
  if (v instanceof Uint8Array) return '\\x' + Buffer.from(v).toString('hex');
  if (isPgArray(v)) {
    const e = elementTypeOf(oid) || v.elementOid;
    return `{${v.dims.join(',')}|${v.lowerBounds.join(',')}|${v.values.map((x) => (x === null || x === undefined ? 'N' : keyText(valueKey(e, x)))).join(',')}}`;
  }
  if (isPgRecord(v)) {
    return `(${v.values.map((x, i) => (x === null || x === undefined ? 'N' : keyText(valueKey(v.fieldOids[i] ?? 0, x)))).join(',')})`;
  }
  if (isInterval(v)) return intervalSpan(v);
  if (isTimeTz(v)) return `${v.micros}/${v.offsetSeconds}`;
  return String(v);
}

function keyText(k: HashKey): string {
  return typeof k === 'string' ? JSON.stringify(k) : typeof k === 'bigint' ? `${k}n` : String(k);
}

/** Numeric values equal as numbers share a key: 1.50 and 1.5 → '1.5'; small integers become numbers. */
function numericKey(n: Numeric): HashKey {
  if (!n.isFinite()) return n.toString();
  let u = n.unscaled;
  let s = n.scale;
  while (s > 0 && u % 10n === 0n) {
    u /= 10n;
    s--;
  }
  if (s === 0 && u >= -9007199254740991n && u <= 9007199254740991n) return Number(u);
  return Numeric.of(u, s).toString();
}
