/**
 * int2vector → int2[] and oidvector → oid[]: binary-coercible in PostgreSQL (parse_coerce.c treats the catalog
 * vector types as arrays), so `attnum = ANY(indkey::int2[])` works. The 0 lower bound is kept, as PostgreSQL does.
 */
import { Oid, type PgArray } from '../common/pgtypes/index.ts';
import type { CastDef } from '../functions/registry-types.ts';

function toArray(elementOid: number): CastDef['impl'] {
  return (v) => ({ ...(v as PgArray), elementOid });
}

export const vectorCasts: readonly CastDef[] = [
  { source: Oid.int2vector, target: Oid._int2, context: 'i', method: 'b', impl: toArray(Oid.int2) },
  { source: Oid.oidvector, target: Oid._oid, context: 'i', method: 'b', impl: toArray(Oid.oid) },
];
