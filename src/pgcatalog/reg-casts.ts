/**
 * Casts between the OID alias types and strings: text/varchar/unknown → regclass & co. resolve names through
 * the search path (42P01 `relation "x" does not exist`, ...); reg* → text prints the name. The numeric casts
 * (oid/int2/int4/int8 ⇄ reg*) are in the function library's pg_cast matrix (functions/casts.ts).
 */
import { arrayOut } from '../common/pgtypes/array-text.ts';
import { Oid, isPgArray } from '../common/pgtypes/index.ts';
import type { CastDef } from '../functions/registry-types.ts';
import { snapshotFor } from './eval-snapshot.ts';
import { REG_TYPES, regIn, regOut } from './reg-names.ts';

const STRING_SOURCES = [Oid.text, Oid.varchar, Oid.bpchar, Oid.name, Oid.unknown] as const;
const STRING_TARGETS = [Oid.text, Oid.varchar, Oid.bpchar, Oid.name] as const;

function build(): CastDef[] {
  const out: CastDef[] = [];
  for (const target of REG_TYPES) {
    for (const source of STRING_SOURCES) {
      out.push({
        source, target,
        // pg_cast has text/varchar → regclass as implicit; the rest are I/O conversions (explicit) in PostgreSQL.
        // method 'f' for all: the binder converts unknown literals through a registered text → target function cast.
        context: target === Oid.regclass && (source === Oid.text || source === Oid.varchar) ? 'i' : 'e',
        method: 'f',
        impl: (v, _typmod, ctx) => regIn(target, String(v), snapshotFor(ctx)),
      });
    }
  }
  for (const source of REG_TYPES) {
    for (const target of STRING_TARGETS) {
      out.push({ source, target, context: 'a', method: 'i', impl: (v, _typmod, ctx) => regOut(source, Number(v), snapshotFor(ctx)) });
    }
  }
  // an array of reg* values cast to text prints names too (psql's \dF+ casts ARRAY(… ::regdictionary) to text)
  for (const [arrayOid, elem] of REG_ARRAY_TYPES) {
    for (const target of STRING_TARGETS) {
      out.push({
        source: arrayOid, target, context: 'e', method: 'i',
        impl: (v, _typmod, ctx) => (isPgArray(v) ? arrayOut(v, (e) => (e === null ? 'NULL' : regOut(elem, Number(e), snapshotFor(ctx)))) : String(v)),
      });
    }
  }
  return out;
}

/** PostgreSQL's array type of each reg* type */
const REG_ARRAY_TYPES: readonly (readonly [number, number])[] = [
  [2210, Oid.regclass], [2211, Oid.regtype], [1008, Oid.regproc], [2207, Oid.regprocedure], [2208, Oid.regoper],
  [2209, Oid.regoperator], [4090, Oid.regnamespace], [4097, Oid.regrole], [3735, Oid.regconfig], [3770, Oid.regdictionary],
];

export const regCasts: readonly CastDef[] = build();
