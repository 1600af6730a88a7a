/**
 * FunctionCatalog: the slice of the function registry pg_proc / pg_operator / pg_cast / pg_aggregate are
 * generated from (F1's FunctionRegistry satisfies it structurally). The composition root hands it over through
 * createSystemRelations({ functions }) or registerPgCatalog(registry); until then only our own routines show.
 */
import type { CastDef, OperatorDef, RoutineDef } from '../functions/registry-types.ts';

export interface FunctionCatalog {
  allRoutines(): readonly RoutineDef[];
  allOperators(): readonly OperatorDef[];
  allCasts(): readonly CastDef[];
  /** the OID the registry assigned to a definition (FunctionRegistry.oidOf) */
  oidOf?(def: RoutineDef | OperatorDef): number;
}

let active: FunctionCatalog | undefined;

/** Makes `functions` the source of pg_proc & co. and of regproc/regprocedure name resolution. */
export function setFunctionCatalog(functions: FunctionCatalog): void {
  active = functions;
}

export function activeFunctionCatalog(): FunctionCatalog | undefined {
  return active;
}
