/**
 * Values of PostgreSQL's catalog vector types. int2vector and oidvector subscript from 0 (indkey[0]), so their
 * PgArray lower bound is 0; ordinary arrays (_int2, _oid, _text) start at 1.
 */
import { Oid, pgArray, type PgArray } from '../../common/pgtypes/index.ts';

function vector(elementOid: number, values: readonly number[]): PgArray {
  return { kind: 'array', elementOid, dims: [values.length], lowerBounds: [0], values };
}

export function int2vector(values: readonly number[]): PgArray {
  return vector(Oid.int2, values);
}

export function oidvector(values: readonly number[]): PgArray {
  return vector(Oid.oid, values);
}

export function int2Array(values: readonly number[]): PgArray {
  return pgArray(Oid.int2, values);
}

export function oidArray(values: readonly number[]): PgArray {
  return pgArray(Oid.oid, values);
}

export function textArray(values: readonly string[]): PgArray {
  return pgArray(Oid.text, values);
}

export function charArray(values: readonly string[]): PgArray {
  return pgArray(Oid.char, values);
}
