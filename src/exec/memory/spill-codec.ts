/**
 * Rows ↔ bytes for spill files. A frame is encoded column by column as JSON (fast in V8 both ways) with a
 * kind per column: `j` JSON-safe primitives (strings, finite numbers, booleans, null), `d` numbers with NaN /
 * ±Infinity / -0 (written as strings), `i` bigints (decimal strings), `n` Numeric (unscaled digits and scale),
 * and `v` for anything else (interval, timetz, bytea, arrays, records, mixed columns): V8's structured
 * serialization (node:v8) in base64, with Numeric tagged inside it. Values come back exactly (-0, NaN, scale
 * of numerics); a class instance other than Numeric cannot be spilled (SpillUnsupported).
 */
import { deserialize, serialize } from 'node:v8';
import { Numeric } from '../../common/pgtypes/numeric.ts';

const NUMERIC_TAG = '\u0000lakegate.numeric';

export class SpillUnsupported extends Error {
  override name = 'SpillUnsupported';
}

type Tagged = { [NUMERIC_TAG]: [number, bigint, number] };
type ColumnKind = 'j' | 'd' | 'i' | 'n' | 'v';
type EncodedColumn = [ColumnKind, unknown[] | string];

/** the narrowest kind holding every value of the column */
function columnKind(col: readonly unknown[]): ColumnKind {
  let text = false;
  let special = false;
  let plain = false;
  let typed: 'i' | 'n' | null = null;
  for (let i = 0; i < col.length; i++) {
    const v = col[i];
    if (v === null) continue;
    switch (typeof v) {
      case 'string': case 'boolean':
        text = true;
        break;
      case 'number':
        plain = true;
        if (!Number.isFinite(v) || Object.is(v, -0)) special = true;
        break;
      case 'bigint':
        if (typed === 'n') return 'v';
        typed = 'i';
        break;
      case 'object':
        if (typed === 'i' || !Numeric.isNumeric(v)) return 'v';
        typed = 'n';
        break;
      default:
        return 'v';
    }
    if (typed !== null && (text || plain)) return 'v';
  }
  if (typed !== null) return typed;
  // numbers written as strings ("NaN", "-0") cannot share a column with real strings
  if (special) return text ? 'v' : 'd';
  return 'j';
}

function encodeColumn(col: unknown[]): EncodedColumn {
  const kind = columnKind(col);
  switch (kind) {
    case 'j': return ['j', col];
    case 'd': return ['d', col.map((v) => (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0)) ? (Object.is(v, -0) ? '-0' : String(v)) : v))];
    case 'i': return ['i', col.map((v) => (v === null ? null : String(v)))];
    case 'n': return ['n', col.map((v) => {
      if (v === null) return null;
      const n = v as Numeric;
      return n.kind === 0 ? [n.unscaled.toString(), n.scale] : n.kind;
    })];
    case 'v': return ['v', serialize(col.map(encodeValue)).toString('base64')];
  }
}

function decodeColumn([kind, data]: EncodedColumn): unknown[] {
  switch (kind) {
    case 'j': return data as unknown[];
    case 'd': return (data as unknown[]).map((v) => (typeof v === 'string' ? (v === '-0' ? -0 : Number(v)) : v));
    case 'i': return (data as (string | null)[]).map((v) => (v === null ? null : BigInt(v)));
    case 'n': return (data as ([string, number] | number | null)[]).map((v) =>
      v === null ? null : typeof v === 'number' ? numericOfKind(v, 0n, 0) : Numeric.of(BigInt(v[0]), v[1]));
    case 'v': return (deserialize(Buffer.from(data as string, 'base64')) as unknown[]).map(decodeValue);
  }
}

function numericOfKind(kind: number, unscaled: bigint, scale: number): Numeric {
  return kind === 0 ? Numeric.of(unscaled, scale) : kind === 1 ? Numeric.NaN : kind === 2 ? Numeric.POSITIVE_INFINITY : Numeric.NEGATIVE_INFINITY;
}

function encodeValue(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || v instanceof Uint8Array) {
    if (typeof v === 'function' || typeof v === 'symbol') throw new SpillUnsupported(`cannot spill a ${typeof v}`);
    return v;
  }
  if (Numeric.isNumeric(v)) return { [NUMERIC_TAG]: [v.kind, v.unscaled, v.scale] } satisfies Tagged;
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) throw new SpillUnsupported(`cannot spill a ${(v as object).constructor.name}`);
  const values = (v as { values?: unknown }).values;
  if (!Array.isArray(values) || !values.some((x) => typeof x === 'object' && x !== null)) return v;
  // PgArray / PgRecord holding objects (numeric[] and friends): encode the elements
  return { ...v, values: values.map(encodeValue) };
}

function decodeValue(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || v instanceof Uint8Array) return v;
  const tagged = (v as Partial<Tagged>)[NUMERIC_TAG];
  if (tagged !== undefined) return numericOfKind(tagged[0], tagged[1], tagged[2]);
  const values = (v as { values?: unknown }).values;
  if (Array.isArray(values)) for (let i = 0; i < values.length; i++) values[i] = decodeValue(values[i]);
  return v;
}

/** rows (arrays of SQL values, all of the same width) → one frame */
export function encodeRows(rows: readonly (readonly unknown[])[]): Buffer {
  const n = rows.length;
  const width = n === 0 ? 0 : rows[0]!.length;
  const cols: EncodedColumn[] = [];
  for (let c = 0; c < width; c++) {
    const col = new Array<unknown>(n);
    for (let r = 0; r < n; r++) { const v = rows[r]![c]; col[r] = v === undefined ? null : v; }
    cols.push(encodeColumn(col));
  }
  return Buffer.from(JSON.stringify([n, cols]), 'utf8');
}

/** a frame back to rows */
export function decodeRows(frame: Buffer): unknown[][] {
  const [n, encoded] = JSON.parse(frame.toString('utf8')) as [number, EncodedColumn[]];
  const cols = encoded.map(decodeColumn);
  const rows = new Array<unknown[]>(n);
  for (let r = 0; r < n; r++) {
    const row = new Array<unknown>(cols.length);
    for (let c = 0; c < cols.length; c++) row[c] = cols[c]![r];
    rows[r] = row;
  }
  return rows;
}
