/**
 * Small builders for RoutineDefs that fill in PostgreSQL's pg_proc OID for the signature (data/pg-proc-oids.ts).
 */
import type { DeclaredType, ReturnTypeFn, ScalarFunctionDef, SetFunctionDef, Volatility } from '../../functions/registry-types.ts';
import { PG_PROC_OIDS } from '../data/pg-proc-oids.ts';

export function pgProcOid(name: string, args: readonly DeclaredType[]): number | undefined {
  return PG_PROC_OIDS[`${name}(${args.join(',')})`];
}

export interface RoutineOptions {
  readonly volatility?: Volatility;
  readonly strict?: boolean;
  readonly defaults?: number;
  readonly description?: string;
}

export function scalar(
  name: string,
  args: readonly DeclaredType[],
  returns: DeclaredType | ReturnTypeFn,
  impl: ScalarFunctionDef['impl'],
  options: RoutineOptions = {},
): ScalarFunctionDef {
  const oid = pgProcOid(name, args);
  return { kind: 'scalar', name, args, returns, impl, volatility: options.volatility ?? 's', ...(oid === undefined ? {} : { oid }), ...stripUndefined(options) };
}

export function setReturning(
  name: string,
  args: readonly DeclaredType[],
  returns: DeclaredType,
  impl: SetFunctionDef['impl'],
  outColumns?: SetFunctionDef['outColumns'],
  options: RoutineOptions = {},
): SetFunctionDef {
  const oid = pgProcOid(name, args);
  return {
    kind: 'set', name, args, returns, impl, volatility: options.volatility ?? 's',
    ...(oid === undefined ? {} : { oid }), ...(outColumns === undefined ? {} : { outColumns }), ...stripUndefined(options),
  };
}

function stripUndefined(o: RoutineOptions): RoutineOptions {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as RoutineOptions;
}
