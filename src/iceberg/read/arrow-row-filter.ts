/**
 * Pushed filters evaluated on Arrow buffers, before any value becomes a JS value: late materialization's
 * first phase (late-materialization.ts) then converts only the rows that may match, also in the filter
 * columns. A point lookup `WHERE o_orderkey = k` over 1.5M rows used to turn every int8 into a BigInt and
 * call a comparison closure per row; here it is one loop over the Int32 halves of the int64 buffer.
 *
 * Handled conjuncts: `col op constant` on int / date (32-bit) and long / timestamp[µs] (64-bit, or 32-bit
 * data of a promoted int column), IS [NOT] NULL. Conjuncts not handled here (OR, IN, strings, decimals,
 * floats — NaN rules) keep every row and the result says it is not `complete`: the caller then runs the
 * JS-value filter on the rows kept; when no conjunct is handled it runs that filter alone.
 */
import { Type, type Data } from 'apache-arrow';
import { compareOpTest, type BoundPredicate, type CompareOp } from '../scan/bound-predicate.ts';

/**
 * indexes (ascending) of the rows of `length` that may match, `complete` when every conjunct was judged (else
 * the caller applies the whole filter to those rows' values too), or null when nothing here could judge them
 */
export type ArrowRowSelect = (data: readonly (Data | undefined)[], length: number) => { readonly rows: number[]; readonly complete: boolean } | null;

/** ANDs a conjunct into `keep` (1 = may match); false when it cannot judge this data (then it keeps all) */
type Leaf = (data: readonly (Data | undefined)[], length: number, keep: Uint8Array) => boolean;

const INT32_TYPES = new Set(['int', 'date']);
const INT64_TYPES = new Set(['long', 'timestamp', 'timestamptz']);

function validity(d: Data): Uint8Array | null {
  return d.nullable && d.nullCount > 0 ? (d.nullBitmap as Uint8Array) : null;
}

const isNullAt = (bm: Uint8Array, pos: number): boolean => (bm[pos >> 3]! & (1 << (pos & 7))) === 0;

/** clears `keep` of null rows and of rows whose value fails `test(compare(row))` */
function apply32(d: Data, length: number, keep: Uint8Array, value: number, test: (c: number) => boolean): void {
  const vals = d.values as Int32Array;
  const bm = validity(d), off = d.offset;
  for (let i = 0; i < length; i++) {
    if (keep[i] === 0) continue;
    if (bm !== null && isNullAt(bm, off + i)) { keep[i] = 0; continue; }
    const v = vals[i]!;
    if (!test(v < value ? -1 : v > value ? 1 : 0)) keep[i] = 0;
  }
}

function apply64(d: Data, length: number, keep: Uint8Array, value: bigint, test: (c: number) => boolean): void {
  const big = d.values as BigInt64Array;
  const words = new Int32Array(big.buffer, big.byteOffset, big.length * 2);
  const lows = new Uint32Array(big.buffer, big.byteOffset, big.length * 2);
  const chi = Number(BigInt.asIntN(32, value >> 32n)), clo = Number(BigInt.asUintN(32, value));
  const bm = validity(d), off = d.offset;
  for (let i = 0; i < length; i++) {
    if (keep[i] === 0) continue;
    if (bm !== null && isNullAt(bm, off + i)) { keep[i] = 0; continue; }
    const hi = words[2 * i + 1]!;
    let c: number;
    if (hi !== chi) c = hi < chi ? -1 : 1;
    else {
      const lo = lows[2 * i]!;
      c = lo < clo ? -1 : lo > clo ? 1 : 0;
    }
    if (!test(c)) keep[i] = 0;
  }
}

function leafOf(p: BoundPredicate, indexOfId: ReadonlyMap<number, number>): Leaf | null {
  if (p.kind === 'isNull' || p.kind === 'isNotNull') {
    const c = indexOfId.get(p.fieldId);
    if (c === undefined) return null;
    const wantNull = p.kind === 'isNull';
    return (data, length, keep) => {
      const d = data[c];
      if (d === undefined) return false;
      const bm = validity(d), off = d.offset;
      for (let i = 0; i < length; i++) if ((bm !== null && isNullAt(bm, off + i)) !== wantNull) keep[i] = 0;
      return true;
    };
  }
  if (p.kind !== 'compare') return null;
  const c = indexOfId.get(p.fieldId);
  if (c === undefined) return null;
  const test = compareOpTest(p.op);
  if (INT32_TYPES.has(p.type.name) && typeof p.value === 'number' && Number.isInteger(p.value)) {
    const value = p.value;
    return (data, length, keep) => {
      const d = data[c];
      if (d === undefined || !(d.values instanceof Int32Array) || (d.typeId !== Type.Int && d.typeId !== Type.Date)) return false;
      apply32(d, length, keep, value, test);
      return true;
    };
  }
  if (INT64_TYPES.has(p.type.name) && typeof p.value === 'bigint') {
    const value = p.value;
    const small = value >= -(2n ** 31n) && value < 2n ** 31n;
    return (data, length, keep) => {
      const d = data[c];
      if (d === undefined) return false;
      if (d.values instanceof BigInt64Array && (d.typeId === Type.Int || d.typeId === Type.Timestamp)) apply64(d, length, keep, value, test);
      else if (d.values instanceof Int32Array && d.typeId === Type.Int && p.type.name === 'long') {
        // an int column promoted to long: its 32-bit values against a constant beyond int range
        if (small) apply32(d, length, keep, Number(value), test);
        else apply32(d, length, keep, value < 0n ? -(2 ** 31) - 1 : 2 ** 31, test);
      } else return false;
      return true;
    };
  }
  return null;
}

/** The Arrow-level select of `p` (columns by field id → index in the data array), or null when no conjunct is handled. */
export function compileArrowSelect(p: BoundPredicate, indexOfId: ReadonlyMap<number, number>): ArrowRowSelect | null {
  const conjuncts = p.kind === 'and' ? p.args : [p];
  const all = conjuncts.map((q) => leafOf(q, indexOfId));
  const leaves = all.filter((l): l is Leaf => l !== null);
  if (leaves.length === 0) return null;
  const allHandled = leaves.length === all.length;
  return (data, length) => {
    const keep = new Uint8Array(length).fill(1);
    let judged = 0;
    for (const leaf of leaves) if (leaf(data, length, keep)) judged++;
    if (judged === 0) return null;
    const rows: number[] = [];
    for (let i = 0; i < length; i++) if (keep[i] === 1) rows.push(i);
    return { rows, complete: allHandled && judged === leaves.length };
  };
}
