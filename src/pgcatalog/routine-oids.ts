/**
 * The OIDs pg_proc / pg_operator list for registry entries: PostgreSQL's own when the definition carries one,
 * otherwise a stable OID derived from the signature (same in every session, so regproc values survive).
 */
import type { SqlType } from '../common/pgtypes/oids.ts';
import { Oid, sqlType } from '../common/pgtypes/oids.ts';
import type { DeclaredType, OperatorDef, ReturnTypeFn, RoutineDef } from '../functions/registry-types.ts';
import { synthesizedOperatorOid, synthesizedRoutineOid } from './well-known-oids.ts';

export function routineOid(def: RoutineDef): number {
  return def.oid ?? synthesizedRoutineOid(def.name, def.args);
}

export function operatorOid(def: OperatorDef): number {
  return def.oid ?? synthesizedOperatorOid(def.name, def.left, def.right);
}

/** The declared return type OID; computed ones are evaluated with the declared argument types. */
export function declaredReturnType(returns: DeclaredType | ReturnTypeFn, args: readonly DeclaredType[]): number {
  if (typeof returns === 'number') return returns;
  try {
    const t: SqlType = returns(args.map((a) => sqlType(a)));
    return t.oid;
  } catch {
    return Oid.anyelement;
  }
}
