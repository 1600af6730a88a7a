/**
 * How SQL values are represented in JavaScript everywhere in lakegate (engine, functions, wire encoding,
 * catalog tables). NULL is always `null`. One representation per type family keeps kernels branch-free.
 *
 * | SQL type                                   | JS value                                                  |
 * |--------------------------------------------|-----------------------------------------------------------|
 * | bool                                       | boolean                                                   |
 * | int2, int4, oid, regclass/regtype/regproc/ | number (integer)                                          |
 * |   regnamespace/regrole/regprocedure, xid, cid |                                                        |
 * | int8                                       | bigint                                                    |
 * | float4, float8                             | number (float4 values are rounded with Math.fround)       |
 * | numeric                                    | Numeric (./numeric.ts): exact, keeps the display scale    |
 * | text, varchar, bpchar, name, "char",       | string (bpchar keeps its blank padding)                   |
 * |   json, xml, unknown, refcursor, cstring   |                                                           |
 * | jsonb                                      | string in PostgreSQL's normalized jsonb text form         |
 * | bytea                                      | Uint8Array                                                |
 * | uuid                                       | string, canonical lower-case 8-4-4-4-12                   |
 * | inet, cidr                                 | string: inet_out's text for both types ('10.1.2.3',       |
 * |                                            |   '10.0.0.0/8'); cidr_out adds the mask (inet-value.ts)   |
 * | date                                       | number: days since 1970-01-01 (±Infinity for ±infinity)   |
 * | time                                       | number: microseconds since midnight                       |
 * | timetz                                     | TimeTz                                                    |
 * | timestamp, timestamptz                     | bigint: microseconds since 1970-01-01 00:00:00 (UTC for   |
 * |                                            |   timestamptz; wall clock for timestamp); ±infinity below |
 * | interval                                   | Interval                                                  |
 * | money                                      | bigint: cents (money-text.ts)                             |
 * | bit, varbit                                | string of '0' / '1' (bit-text.ts)                         |
 * | arrays                                     | PgArray                                                   |
 * | record (row constructors)                  | PgRecord                                                  |
 */

/** PostgreSQL's interval: months, days and microseconds are kept apart, as in PostgreSQL. */
export interface Interval {
  readonly months: number;
  readonly days: number;
  readonly micros: bigint;
}

export interface TimeTz {
  /** microseconds since local midnight */
  readonly micros: number;
  /** UTC offset in seconds, east positive (PostgreSQL stores west-positive internally; we don't) */
  readonly offsetSeconds: number;
}

/** PostgreSQL's timestamp 'infinity' and '-infinity' (DT_NOEND / DT_NOBEGIN). */
export const TIMESTAMP_INFINITY = 9223372036854775807n;
export const TIMESTAMP_NEG_INFINITY = -9223372036854775808n;

/**
 * An array value. Elements are JS values of the element type (or null). Multi-dimensional arrays nest:
 * `dims` gives the length of each dimension and `values` is flattened in row-major order.
 * `lowerBounds` are 1 unless the array was built with explicit bounds.
 */
export interface PgArray {
  readonly kind: 'array';
  readonly elementOid: number;
  readonly dims: readonly number[];
  readonly lowerBounds: readonly number[];
  readonly values: readonly unknown[];
}

export function pgArray(elementOid: number, values: readonly unknown[]): PgArray {
  return { kind: 'array', elementOid, dims: values.length === 0 ? [] : [values.length], lowerBounds: values.length === 0 ? [] : [1], values };
}

export function isPgArray(v: unknown): v is PgArray {
  return typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'array';
}

/** An anonymous record (ROW(...)): field values with their type OIDs. */
export interface PgRecord {
  readonly kind: 'record';
  readonly fieldOids: readonly number[];
  readonly values: readonly unknown[];
  /** column names of a named row type (a whole-row reference `t` / `t.*`); absent for anonymous ROW() (f1, f2, ...) */
  readonly fieldNames?: readonly string[];
}

export function isPgRecord(v: unknown): v is PgRecord {
  return typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'record';
}
