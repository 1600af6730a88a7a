/**
 * The OIDs pg_proc / pg_operator list for registry entries: PostgreSQL's own when the definition carries one,
 * otherwise a stable OID derived from the signature (same in every session, so regproc values survive).
 */
import { Oid, sqlType, type SqlType } from '../common/pgtypes/index.ts';
import type { DeclaredType, OperatorDef, ReturnTypeFn, RoutineDef } from '../functions/registry-types.ts';
import type { FunctionCatalog } from './function-catalog.ts';
import { synthesizedOperatorOid, synthesizedRoutineOid } from './well-known-oids.ts';

/** The registry's OID for the definition when it assigns one (FunctionRegistry.oidOf), else the def's own or a stable one. */
export function routineOid(def: RoutineDef, functions?: FunctionCatalog): number {
  return registryOid(def, functions) ?? def.oid ?? synthesizedRoutineOid(def.name, def.args);
}

export function operatorOid(def: OperatorDef, functions?: FunctionCatalog): number {
  return registryOid(def, functions) ?? def.oid ?? synthesizedOperatorOid(def.name, def.left, def.right);
}

function registryOid(def: RoutineDef | OperatorDef, functions: FunctionCatalog | undefined): number | undefined {
  if (functions?.oidOf === undefined) return undefined;
  try {
    return functions.oidOf(def);
  } catch {
    return undefined;
  }
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
