/**
 * A comparison of two columns of one row (bound-predicate.ts `compareFields`: TPC-H q12's
 * `l_commitdate < l_receiptdate AND l_shipdate < l_commitdate`), judged in the scan — on Arrow buffers
 * (columnPairLeaf, arrow-row-filter.ts) or on JS values (pairValueTest, parallel/row-filter.ts) — so that the
 * rows failing it never leave the scan worker. As PostgreSQL: a NULL on either side is not TRUE (the row is
 * dropped); integers compare exactly across int and long; a date against a timestamp is that date at midnight.
 *
 * The Arrow leaf reads 32-bit data (int, date32) against 32-bit data, 64-bit (long, timestamp[µs]) against
 * 64-bit, and 32-bit int data against 64-bit (an int column, or one promoted to long); a date against a
 * timestamp is left to the JS test (NOTHING here: the caller then runs it on the rows kept).
 */
import { Type, type Data } from 'apache-arrow';
import { compareOpTest, type BoundPredicate, type CompareOp } from '../scan/bound-predicate.ts';
import { EXACT, NOTHING, isNullAt, validity, type ArrowNode, type Selection } from './arrow-leaf.ts';

type PairPredicate = Extract<BoundPredicate, { kind: 'compareFields' }>;

/** µs per day, as a bigint (a date against a timestamp) */
const DAY_MICROS = 86_400_000_000n;
/**
 * days since 1970 of 294277-01-01, PostgreSQL's end of timestamps: a later date compares as timestamp
 * 'infinity' (date2timestamp_no_overflow), which the test below does not model — such rows are kept
 */
const TIMESTAMP_END_DAYS = 106_762_940;

/** -1 / 0 / 1 of two non-null values of the pair's types (number, bigint, or one of each: JS compares those exactly) */
function order(x: number | bigint, y: number | bigint): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

/** a date value as a timestamp's µs, or undefined when it is not a finite date inside the timestamp range */
function dateMicros(v: unknown): bigint | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v < TIMESTAMP_END_DAYS ? BigInt(v) * DAY_MICROS : undefined;
}

/**
 * The JS-value test of `p` on columns `a` (left) and `b` (right): true = keep the row (it may match). A value
 * this cannot judge (not decoded, an infinite or out-of-range date against a timestamp) keeps the row.
 */
export function pairValueTest(p: PairPredicate, a: number, b: number): (cols: readonly (readonly unknown[])[], r: number) => boolean {
  const test = compareOpTest(p.op);
  const leftDate = p.leftType.name === 'date' && p.rightType.name === 'timestamp';
  const rightDate = p.rightType.name === 'date' && p.leftType.name === 'timestamp';
  if (leftDate || rightDate) {
    return (cols, r) => {
      const x = cols[a]![r], y = cols[b]![r];
      if (x === null || y === null) return false;
      const xm = leftDate ? dateMicros(x) : x, ym = rightDate ? dateMicros(y) : y;
      return typeof xm === 'bigint' && typeof ym === 'bigint' ? test(order(xm, ym)) : true;
    };
  }
  return (cols, r) => {
    const x = cols[a]![r], y = cols[b]![r];
    if (x === null || y === null) return false;
    if ((typeof x !== 'number' && typeof x !== 'bigint') || (typeof y !== 'number' && typeof y !== 'bigint')) return true;
    return test(order(x, y));
  };
}

/** narrows `sel` to the rows where both chunks are non-null */
function bothNonNull(l: Data, r: Data, sel: Selection): void {
  const lb = validity(l), rb = validity(r);
  if (lb === null && rb === null) return;
  const lo = l.offset, ro = r.offset, rows = sel.rows;
  let m = 0;
  for (let k = 0; k < sel.n; k++) {
    const i = rows[k]!;
    if ((lb === null || !isNullAt(lb, lo + i)) && (rb === null || !isNullAt(rb, ro + i))) rows[m++] = i;
  }
  sel.n = m;
}

function pair32(l: Int32Array, r: Int32Array, sel: Selection, test: (c: number) => boolean): void {
  const rows = sel.rows;
  let m = 0;
  for (let k = 0; k < sel.n; k++) {
    const i = rows[k]!;
    const x = l[i]!, y = r[i]!;
    if (test(x < y ? -1 : x > y ? 1 : 0)) rows[m++] = i;
  }
  sel.n = m;
}

/** 64-bit against 64-bit by their 32-bit words (high signed, low unsigned): no BigInt per row */
function pair64(l: BigInt64Array, r: BigInt64Array, sel: Selection, test: (c: number) => boolean): void {
  const lw = new Int32Array(l.buffer, l.byteOffset, l.length * 2), lu = new Uint32Array(l.buffer, l.byteOffset, l.length * 2);
  const rw = new Int32Array(r.buffer, r.byteOffset, r.length * 2), ru = new Uint32Array(r.buffer, r.byteOffset, r.length * 2);
  const rows = sel.rows;
  let m = 0;
  for (let k = 0; k < sel.n; k++) {
    const i = rows[k]!;
    const xh = lw[2 * i + 1]!, yh = rw[2 * i + 1]!;
    let c: number;
    if (xh !== yh) c = xh < yh ? -1 : 1;
    else {
      const xl = lu[2 * i]!, yl = ru[2 * i]!;
      c = xl < yl ? -1 : xl > yl ? 1 : 0;
    }
    if (test(c)) rows[m++] = i;
  }
  sel.n = m;
}

/** 32-bit int data (left) against 64-bit (right): the int's high word is its sign */
function pair32x64(l: Int32Array, r: BigInt64Array, sel: Selection, test: (c: number) => boolean): void {
  const rw = new Int32Array(r.buffer, r.byteOffset, r.length * 2), ru = new Uint32Array(r.buffer, r.byteOffset, r.length * 2);
  const rows = sel.rows;
  let m = 0;
  for (let k = 0; k < sel.n; k++) {
    const i = rows[k]!;
    const x = l[i]!, xh = x < 0 ? -1 : 0, yh = rw[2 * i + 1]!;
    let c: number;
    if (xh !== yh) c = xh < yh ? -1 : 1;
    else {
      const xl = x >>> 0, yl = ru[2 * i]!;
      c = xl < yl ? -1 : xl > yl ? 1 : 0;
    }
    if (test(c)) rows[m++] = i;
  }
  sel.n = m;
}

/** the order with the sides swapped (`a < b` is `b > a`) */
const SWAPPED: Readonly<Record<CompareOp, CompareOp>> = { '=': '=', '<>': '<>', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** the chunk's kind for a pair: 32-bit int or date32 values, 64-bit int or timestamp[µs] values, or neither */
function kindOf(d: Data): 'int32' | 'date32' | 'int64' | 'ts64' | null {
  if (d.values instanceof Int32Array) {
    if (d.typeId === Type.Int) return 'int32';
    if (d.typeId === Type.Date && (d.type as { unit?: number }).unit === 0) return 'date32';
  } else if (d.values instanceof BigInt64Array) {
    if (d.typeId === Type.Int) return 'int64';
    if (d.typeId === Type.Timestamp && (d.type as { unit?: number }).unit === 2) return 'ts64';
  }
  return null;
}

/** The Arrow leaf of a column pair (`a`, `b`: indexes in the data array), or null for a date against a timestamp. */
export function columnPairLeaf(p: PairPredicate, a: number, b: number): ArrowNode | null {
  const mixedTime = (p.leftType.name === 'date') !== (p.rightType.name === 'date');
  if (mixedTime) return null;
  const test = compareOpTest(p.op), swapped = compareOpTest(SWAPPED[p.op]);
  return (data, _length, sel) => {
    const l = data[a], r = data[b];
    if (l === undefined || r === undefined) return NOTHING;
    const lk = kindOf(l), rk = kindOf(r);
    if (lk === null || rk === null) return NOTHING;
    const l32 = lk === 'int32' || lk === 'date32', r32 = rk === 'int32' || rk === 'date32';
    // dates only against dates, timestamps against timestamps, integers against integers (of either width)
    if ((lk === 'date32') !== (rk === 'date32') || (lk === 'ts64') !== (rk === 'ts64')) return NOTHING;
    bothNonNull(l, r, sel);
    if (l32 && r32) pair32(l.values as Int32Array, r.values as Int32Array, sel, test);
    else if (!l32 && !r32) pair64(l.values as BigInt64Array, r.values as BigInt64Array, sel, test);
    else if (l32) pair32x64(l.values as Int32Array, r.values as BigInt64Array, sel, test);
    else pair32x64(r.values as Int32Array, l.values as BigInt64Array, sel, swapped);
    return EXACT;
  };
}
