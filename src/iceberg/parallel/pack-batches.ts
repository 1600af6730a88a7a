/**
 * A scan worker's small batches packed as one (column-transfer.ts), without gluing them first where a column packs
 * piece by piece. A selective pushed filter leaves a few hundred rows of each 8,192-row batch, and the worker sends
 * them on in batches of ~8k rows (scan-worker.ts); gluing made a JS array per column (common/batch-concat.ts) only for
 * packing to read it once more into a typed array. Here int / date, float / double / time and boolean columns, and
 * decimals whose pieces all carry exact doubles at the column's scale, go straight from the pieces into the typed
 * array; any other column — and any column whose pieces hold a value packing would not take — is glued and packed as
 * before, so the packed form is always the one packBatch makes of concatColumns' batch.
 */
import type { Batch } from '../../common/batch.ts';
import { concatColumns } from '../../common/batch-concat.ts';
import { scaledColumnOf } from '../../common/pgtypes/numeric-column.ts';
import type { IcebergType } from '../spec/schema.ts';
import { packBatch, packColumn, type PackedBatch, type PackedColumn } from './column-transfer.ts';

/** what a piece-wise packer needs of a column: its pieces (undefined: a missing column, all NULL) and total rows */
interface Pieces {
  readonly batches: readonly Batch[];
  readonly c: number;
  readonly n: number;
}

/** the NULL mask, allocated at the first NULL only */
function setNull(nulls: Uint8Array | null, n: number, at: number): Uint8Array {
  const m = nulls ?? new Uint8Array(n);
  m[at] = 1;
  return m;
}

/** int32 numbers (or NULL) of every piece, or null at the first other value (packColumn then clones the glued column) */
function int32Pieces({ batches, c, n }: Pieces): PackedColumn | null {
  const out = new Int32Array(n);
  let nulls: Uint8Array | null = null;
  let at = 0;
  for (const b of batches) {
    const col = b.columns[c];
    for (let i = 0; i < b.length; i++, at++) {
      const v = col === undefined ? null : col[i] ?? null;
      if (v === null) { nulls = setNull(nulls, n, at); continue; }
      if (typeof v !== 'number' || (v | 0) !== v || Object.is(v, -0)) return null;
      out[at] = v;
    }
  }
  return { kind: 'i32', values: out, nulls };
}

/** numbers (or NULL) of every piece, or null at the first other value */
function float64Pieces({ batches, c, n }: Pieces): PackedColumn | null {
  const out = new Float64Array(n);
  let nulls: Uint8Array | null = null;
  let at = 0;
  for (const b of batches) {
    const col = b.columns[c];
    for (let i = 0; i < b.length; i++, at++) {
      const v = col === undefined ? null : col[i] ?? null;
      if (v === null) { nulls = setNull(nulls, n, at); continue; }
      if (typeof v !== 'number') return null;
      out[at] = v;
    }
  }
  return { kind: 'f64', values: out, nulls };
}

/** booleans (or NULL) of every piece, or null at the first other value */
function boolPieces({ batches, c, n }: Pieces): PackedColumn | null {
  const out = new Uint8Array(n);
  let nulls: Uint8Array | null = null;
  let at = 0;
  for (const b of batches) {
    const col = b.columns[c];
    for (let i = 0; i < b.length; i++, at++) {
      const v = col === undefined ? null : col[i] ?? null;
      if (v === null) { nulls = setNull(nulls, n, at); continue; }
      if (typeof v !== 'boolean') return null;
      out[at] = v ? 1 : 0;
    }
  }
  return { kind: 'bool', values: out, nulls };
}

/**
 * decimals whose every non-empty piece carries its exact doubles at `scale` (the decoder's: pgtypes/numeric-column.ts),
 * as packAttachedDecimal packs the glued column (which concatColumns attaches the same doubles to), or null
 */
function decimalPieces({ batches, c, n }: Pieces, scale: number): PackedColumn | null {
  const f = new Float64Array(n);
  let nulls: Uint8Array | null = null;
  let at = 0;
  for (const b of batches) {
    if (b.length === 0) continue;
    const col = b.columns[c];
    const att = col === undefined ? undefined : scaledColumnOf(col);
    if (col === undefined || att === undefined || att.scale !== scale || att.f.length < b.length) return null;
    f.set(att.f.length === b.length ? att.f : att.f.subarray(0, b.length), at);
    // a piece its maker knew has no NULL is not looked at (a sparse lazy one has no element to look at)
    if (att.noNulls !== true) {
      for (let i = 0; i < b.length; i++) if (col[i] === null || col[i] === undefined) nulls = setNull(nulls, n, at + i);
    }
    at += b.length;
  }
  return { kind: 'decimal53', values: f, scale, nulls };
}

/** the piece-wise packer of a column type, or null: glued first */
function piecePacker(t: IcebergType): ((p: Pieces) => PackedColumn | null) | null {
  if (t.kind !== 'primitive') return null;
  switch (t.name) {
    case 'int': case 'date': return int32Pieces;
    case 'float': case 'double': case 'time': return float64Pieces;
    case 'boolean': return boolPieces;
    case 'decimal': {
      const scale = t.scale ?? 0;
      return (p) => decimalPieces(p, scale);
    }
    default: return null;
  }
}

/**
 * packBatch(concatColumns(batches, types.length), types, transfer, exact) without gluing the columns that pack piece
 * by piece; `transfer` collects the buffers to move
 */
export function packBatches(batches: readonly Batch[], types: readonly IcebergType[], transfer: ArrayBufferLike[], exact: boolean): PackedBatch {
  if (batches.length === 1) return packBatch(concatColumns(batches, types.length), types, transfer, exact);
  let n = 0;
  for (const b of batches) n += b.length;
  const columns = types.map((t, c) => {
    const p = piecePacker(t)?.({ batches, c, n }) ?? packColumn(gluedColumn(batches, c), n, t);
    if (p.kind !== 'cloned') {
      transfer.push(p.values.buffer);
      if (p.nulls !== null) transfer.push(p.nulls.buffer);
    }
    return p;
  });
  return exact ? { length: n, columns, exact } : { length: n, columns };
}

/** column `c` of the batches glued as concatColumns glues it */
function gluedColumn(batches: readonly Batch[], c: number): readonly unknown[] {
  const one = batches.map((b): Batch => ({ length: b.length, columns: b.columns[c] === undefined ? [] : [b.columns[c]!] }));
  return concatColumns(one, 1).columns[0]!;
}
