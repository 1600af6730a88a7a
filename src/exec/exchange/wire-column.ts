/**
 * One column of JS values (common/pgtypes/values.ts) for a trip between threads in a hash-partitioned final
 * aggregate (exchange/): numbers, int64 bigints, booleans and finite Numerics that fit 64 bits unscaled go
 * into typed arrays whose buffers are transferred (moved, not copied, so neither thread pays a structured
 * clone per value); anything else travels as the array itself, structured-cloned (Numerics tagged by
 * cloneable.ts). Unlike column-transfer.ts this needs no column type: aggregate state fields and keys are
 * packed by the JS types they hold, and a column that mixes types falls back to the cloned form.
 */
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { fromCloneable, needsTagging, toCloneable } from '../../iceberg/parallel/cloneable.ts';
import { numericOfUnscaled } from '../../iceberg/read/arrow-fast-columns.ts';
import { estimateArrayBytes } from '../memory/size-estimate.ts';

export type WireColumn =
  | { readonly kind: 'f64'; readonly values: Float64Array; readonly nulls: Uint8Array | null }
  | { readonly kind: 'i64'; readonly values: BigInt64Array; readonly nulls: Uint8Array | null }
  | { readonly kind: 'bool'; readonly values: Uint8Array; readonly nulls: Uint8Array | null }
  | { readonly kind: 'numeric'; readonly values: BigInt64Array; readonly scales: Int16Array; readonly nulls: Uint8Array | null }
  | { readonly kind: 'cloned'; readonly values: readonly unknown[]; readonly tagged: boolean }
  /** every value the same primitive (a state field such as a sum's scale or NaN count): nothing per value */
  | { readonly kind: 'const'; readonly value: string | number | bigint | boolean | null; readonly length: number };

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** the JS type every non-null value of `col` has, or null when they differ (or a value is undefined) */
function soleType(col: ArrayLike<unknown>, n: number): string | null {
  let t: string | null = null;
  for (let i = 0; i < n; i++) {
    const v = col[i];
    if (v === null) continue;
    const k = typeof v === 'object' ? (Numeric.isNumeric(v) && v.isFinite() ? 'numeric' : 'object') : typeof v;
    if (t === null) t = k;
    else if (t !== k) return null;
  }
  return t;
}

function nullMask(col: ArrayLike<unknown>, n: number): Uint8Array | null {
  let mask: Uint8Array | null = null;
  for (let i = 0; i < n; i++) if (col[i] === null) (mask ??= new Uint8Array(n))[i] = 1;
  return mask;
}

function cloned(col: ArrayLike<unknown>): WireColumn {
  const values = Array.from(col);
  const tagged = values.some(needsTagging);
  return { kind: 'cloned', values: tagged ? values.map(toCloneable) : values, tagged };
}

/** the one primitive every value of `col` is (Object.is: -0 and NaN kept apart), or undefined */
function constantOf(col: ArrayLike<unknown>, n: number): { value: string | number | bigint | boolean | null } | undefined {
  if (n === 0) return undefined;
  const v = col[0];
  if (v !== null && typeof v !== 'number' && typeof v !== 'bigint' && typeof v !== 'string' && typeof v !== 'boolean') return undefined;
  for (let i = 1; i < n; i++) if (!Object.is(col[i], v)) return undefined;
  return { value: v };
}

/** Packs `col`; the buffers to move are pushed to `transfer`. */
export function packColumn(col: ArrayLike<unknown>, transfer: ArrayBufferLike[]): WireColumn {
  const n = col.length;
  const same = constantOf(col, n);
  if (same !== undefined) return { kind: 'const', value: same.value, length: n };
  const t = soleType(col, n);
  const nulls = t === null ? null : nullMask(col, n);
  let out: WireColumn | null = null;
  if (t === 'number') {
    const values = new Float64Array(n);
    for (let i = 0; i < n; i++) values[i] = (col[i] as number | null) ?? 0;
    out = { kind: 'f64', values, nulls };
  } else if (t === 'bigint') {
    const values = new BigInt64Array(n);
    for (let i = 0; i < n; i++) {
      const v = (col[i] as bigint | null) ?? 0n;
      if (v < INT64_MIN || v > INT64_MAX) return cloned(col);
      values[i] = v;
    }
    out = { kind: 'i64', values, nulls };
  } else if (t === 'boolean') {
    const values = new Uint8Array(n);
    for (let i = 0; i < n; i++) values[i] = col[i] === true ? 1 : 0;
    out = { kind: 'bool', values, nulls };
  } else if (t === 'numeric') {
    const values = new BigInt64Array(n);
    const scales = new Int16Array(n);
    for (let i = 0; i < n; i++) {
      const v = col[i] as Numeric | null;
      if (v === null) continue;
      if (v.unscaled < INT64_MIN || v.unscaled > INT64_MAX || v.scale > 0x7fff) return cloned(col);
      values[i] = v.unscaled;
      scales[i] = v.scale;
    }
    transfer.push(scales.buffer);
    out = { kind: 'numeric', values, scales, nulls };
  }
  if (out === null) return cloned(col);
  transfer.push(out.values.buffer);
  if (nulls !== null) transfer.push(nulls.buffer);
  return out;
}

/** The values of a packed column, as they were packed (NULLs included). */
export function unpackColumn(w: WireColumn): unknown[] {
  return unpackRows(w, 0, w.kind === 'const' ? w.length : w.values.length);
}

/**
 * Rows from … to-1 of a packed column (worker-rows.ts cuts a task's rows into batches whose arrays stay small
 * enough for V8's young generation: a JS array of more than ~16k entries is a large object, mapped fresh and
 * faulted in page by page — 50 ns per value on the dev VM against 3–10 below that size).
 */
export function unpackRows(w: WireColumn, from: number, to: number): unknown[] {
  const n = to - from;
  if (w.kind === 'cloned') {
    const vals = from === 0 && to === w.values.length ? w.values : w.values.slice(from, to);
    return w.tagged ? vals.map(fromCloneable) : (vals as unknown[]);
  }
  if (w.kind === 'const') return new Array<unknown>(n).fill(w.value);
  const out = new Array<unknown>(n);
  const nulls = w.nulls;
  // one loop per array type: a loop over both would load elements polymorphically
  if (w.kind === 'f64') { const v = w.values; for (let i = 0; i < n; i++) out[i] = v[from + i]; }
  else if (w.kind === 'i64') { const v = w.values; for (let i = 0; i < n; i++) out[i] = v[from + i]; }
  else if (w.kind === 'bool') { const v = w.values; for (let i = 0; i < n; i++) out[i] = v[from + i] === 1; }
  else for (let i = 0; i < n; i++) out[i] = numericOfUnscaled(w.values[from + i]!, w.scales[from + i]!);
  if (nulls !== null) for (let i = 0; i < n; i++) if (nulls[from + i] === 1) out[i] = null;
  return out;
}

/** The buffers of packed columns (to move them on to another thread). */
export function buffersOf(cols: readonly WireColumn[], out: ArrayBufferLike[]): void {
  for (const w of cols) {
    if (w.kind === 'cloned' || w.kind === 'const') continue;
    out.push(w.values.buffer);
    if (w.kind === 'numeric') out.push(w.scales.buffer);
    if (w.nulls !== null) out.push(w.nulls.buffer);
  }
}

/** Estimated bytes packed columns hold (typed buffers exactly, cloned arrays as size-estimate.ts estimates them). */
export function wireBytes(cols: readonly WireColumn[]): number {
  let bytes = 0;
  for (const w of cols) {
    if (w.kind === 'const') continue;
    if (w.kind === 'cloned') { bytes += estimateArrayBytes(w.values); continue; }
    bytes += w.values.byteLength + (w.nulls?.byteLength ?? 0) + (w.kind === 'numeric' ? w.scales.byteLength : 0);
  }
  return bytes;
}
