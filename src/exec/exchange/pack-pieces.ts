/**
 * One column of several batches packed as one WireColumn (wire-column.ts) in a single pass, without gluing the
 * pieces into a JS array first: a scan task's rows that all go to one set (partial/worker-rows.ts, TPC-H Q13's
 * ~300k o_custkey per run at SF 0.2). packColumn over a glued array walked every value six times (all-NULL test,
 * gather, constant test, type test, NULL mask, copy); here numbers and booleans are copied straight into their
 * typed array while the same pass notes NULLs and whether every value is one constant. Anything else (bigints,
 * strings, Numerics, mixed types) is glued and handed to packColumn, so the packed form is always the one
 * packColumn would have made of the glued column.
 */
import { isNullColumn } from '../../common/batch.ts';
import { packColumn, type WireColumn } from './wire-column.ts';

/** a piece: the first `length` rows of `column` */
export interface ColumnPiece {
  readonly column: readonly unknown[];
  readonly length: number;
}

/** the pieces glued end to end */
function glued(pieces: readonly ColumnPiece[], n: number): unknown[] {
  const out = new Array<unknown>(n);
  let at = 0;
  for (const p of pieces) {
    const src = p.column;
    for (let i = 0; i < p.length; i++) out[at++] = src[i];
  }
  return out;
}

/** the pieces as packColumn packs them glued (`n` = the sum of their lengths); buffers to move go to `transfer` */
export function packPieces(pieces: readonly ColumnPiece[], n: number, transfer: ArrayBufferLike[]): WireColumn {
  // a column nobody reads is a shared NULL column in every piece: one constant, no look at its rows
  if (pieces.every((p) => p.length === 0 || isNullColumn(p.column))) return n === 0 ? packColumn([], transfer) : { kind: 'const', value: null, length: n };
  let kind: 'number' | 'boolean' | null = null;
  for (const p of pieces) {
    for (let i = 0; i < p.length && kind === null; i++) {
      const v = p.column[i];
      if (typeof v === 'number') kind = 'number';
      else if (typeof v === 'boolean') kind = 'boolean';
      else if (v !== null) return packColumn(glued(pieces, n), transfer);
    }
    if (kind !== null) break;
  }
  if (kind === null) return { kind: 'const', value: null, length: n };
  const packed = kind === 'number' ? numbers(pieces, n) : booleans(pieces, n);
  if (packed === null) return packColumn(glued(pieces, n), transfer);
  if ('value' in packed) return { kind: 'const', value: packed.value, length: n };
  transfer.push(packed.values.buffer);
  if (packed.nulls !== null) transfer.push(packed.nulls.buffer);
  return kind === 'number'
    ? { kind: 'f64', values: packed.values as Float64Array, nulls: packed.nulls }
    : { kind: 'bool', values: packed.values as Uint8Array, nulls: packed.nulls };
}

type Packed = { readonly values: Float64Array | Uint8Array; readonly nulls: Uint8Array | null } | { readonly value: number | boolean | null };

/** numbers (or NULL) into a Float64Array, or null at the first other value; a constant when every value is one (Object.is) */
function numbers(pieces: readonly ColumnPiece[], n: number): Packed | null {
  const values = new Float64Array(n);
  let nulls: Uint8Array | null = null;
  const first = pieces.find((p) => p.length > 0)!.column[0];
  let same = true, at = 0;
  for (const p of pieces) {
    const src = p.column;
    for (let i = 0; i < p.length; i++, at++) {
      const v = src[i];
      if (typeof v === 'number') values[at] = v;
      else if (v === null) (nulls ??= new Uint8Array(n))[at] = 1;
      else return null;
      if (same && !Object.is(v, first)) same = false;
    }
  }
  return same ? { value: first as number | null } : { values, nulls };
}

/** booleans (or NULL) into a Uint8Array, or null at the first other value; a constant when every value is one */
function booleans(pieces: readonly ColumnPiece[], n: number): Packed | null {
  const values = new Uint8Array(n);
  let nulls: Uint8Array | null = null;
  const first = pieces.find((p) => p.length > 0)!.column[0];
  let same = true, at = 0;
  for (const p of pieces) {
    const src = p.column;
    for (let i = 0; i < p.length; i++, at++) {
      const v = src[i];
      if (v === true) values[at] = 1;
      else if (v === null) (nulls ??= new Uint8Array(n))[at] = 1;
      else if (v !== false) return null;
      if (same && v !== first) same = false;
    }
  }
  return same ? { value: first as boolean | null } : { values, nulls };
}
