/**
 * The function registry's routines, operators and casts as flat lists, made once per CatalogSnapshot (one statement
 * or one catalog scan): FunctionRegistry.allRoutines() & co. flatten their maps into fresh arrays on every call
 * (~3,000 routines), and per-value catalog functions — regproc output, pg_get_function_arguments in psql's \df+ —
 * would otherwise flatten them once per row.
 */
import type { CastDef, OperatorDef, RoutineDef } from '../functions/registry-types.ts';
import type { CatalogSnapshot } from './catalog-snapshot.ts';

export interface RegistryLists {
  readonly routines: readonly RoutineDef[];
  readonly operators: readonly OperatorDef[];
  readonly casts: readonly CastDef[];
  /** the three lists' sizes: memos kept per registry compare it to see that nothing was added */
  readonly key: string;
}

const EMPTY: RegistryLists = { routines: [], operators: [], casts: [], key: '0:0:0' };
const perSnapshot = new WeakMap<CatalogSnapshot, RegistryLists>();

export function registryLists(snap: CatalogSnapshot): RegistryLists {
  const functions = snap.functions;
  if (functions === undefined) return EMPTY;
  let lists = perSnapshot.get(snap);
  if (lists === undefined) {
    const routines = functions.allRoutines();
    const operators = functions.allOperators();
    const casts = functions.allCasts();
    lists = { routines, operators, casts, key: `${routines.length}:${operators.length}:${casts.length}` };
    perSnapshot.set(snap, lists);
  }
  return lists;
}
