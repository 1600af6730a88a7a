/**
 * int2vector / oidvector (pg_index.indkey, pg_proc.proargtypes): space-separated integers in text, a
 * one-dimensional array with lower bound 0 in binary. The JS value is a PgArray of int2 / oid.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/int.c (int2vectorin)
 */
import { Oid } from './oids.ts';
import type { PgArray } from './values.ts';
import { intIn, oidIn } from './scalar-text.ts';

/** int2vectorin / oidvectorin */
export function vectorIn(oid: number, text: string): PgArray {
  const elementOid = oid === Oid.int2vector ? Oid.int2 : Oid.oid;
  const values: number[] = [];
  for (const tok of text.split(/[ \t\n\r\f\v]+/)) {
    if (tok.length === 0) continue;
    values.push(elementOid === Oid.int2 ? intIn(tok, 2) : oidIn(tok));
  }
  return { kind: 'array', elementOid, dims: values.length === 0 ? [] : [values.length], lowerBounds: values.length === 0 ? [] : [0], values };
}

/** int2vectorout / oidvectorout; also accepts a plain number[] */
export function vectorOut(v: PgArray | readonly number[]): string {
  const values = Array.isArray(v) ? (v as readonly number[]) : (v as PgArray).values;
  let s = '';
  for (let i = 0; i < values.length; i++) s += (i > 0 ? ' ' : '') + String(values[i]);
  return s;
}
