/** ARRAY[...] construction (incl. nested → multi-dimensional) and subscripting, as PostgreSQL's array code. */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { isPgArray, pgArray, type PgArray } from '../../common/pgtypes/values.ts';

export function makeArray(elemOid: number, values: unknown[], nested: boolean): PgArray {
  if (!nested) return pgArray(elemOid, values);
  const subs = values.filter((v): v is PgArray => v !== null && isPgArray(v));
  if (subs.length === 0) return pgArray(elemOid, []);
  const dims = subs[0]!.dims;
  if (subs.length !== values.length || subs.some((s) => s.dims.length !== dims.length || s.dims.some((d, i) => d !== dims[i]))) {
    throw pgError(SqlState.array_subscript_error, 'multidimensional arrays must have array expressions with matching dimensions');
  }
  if (dims.length === 0) return pgArray(subs[0]!.elementOid, []);
  return { kind: 'array', elementOid: subs[0]!.elementOid, dims: [subs.length, ...dims], lowerBounds: [1, ...subs[0]!.lowerBounds], values: subs.flatMap((s) => s.values) };
}

interface Index { readonly lower: unknown; readonly upper: unknown; readonly slice: boolean }

/** array[i][j] / array[a:b]; out-of-range gives NULL (element) or an empty array (slice) */
export function evalSubscript(v: unknown, idx: readonly Index[], elemOid: number): unknown {
  if (v === null) return null;
  if (!isPgArray(v)) {
    // int2vector / oidvector as plain arrays: subscripts start at 0, as in PostgreSQL
    if (Array.isArray(v)) return evalSubscript({ ...pgArray(elemOid, v), lowerBounds: v.length === 0 ? [] : [0] }, idx, elemOid);
    return null;
  }
  if (idx.some((x) => x.upper === null || (x.slice && x.lower === null))) return null;
  const slice = idx.some((x) => x.slice);
  if (!slice) {
    if (idx.length !== v.dims.length) return null;
    let off = 0;
    for (let d = 0; d < idx.length; d++) {
      const k = Number(idx[d]!.upper) - v.lowerBounds[d]!;
      if (k < 0 || k >= v.dims[d]!) return null;
      off = off * v.dims[d]! + k;
    }
    return v.values[off] ?? null;
  }
  if (v.dims.length !== 1) return pgArray(v.elementOid, []);
  const lb = v.lowerBounds[0]!;
  const lo = Math.max(idx[0]!.lower === undefined ? lb : Number(idx[0]!.lower), lb);
  const hi = Math.min(idx[0]!.upper === undefined ? lb + v.dims[0]! - 1 : Number(idx[0]!.upper), lb + v.dims[0]! - 1);
  if (hi < lo) return pgArray(v.elementOid, []);
  return pgArray(v.elementOid, v.values.slice(lo - lb, hi - lb + 1));
}
