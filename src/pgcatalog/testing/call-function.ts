/**
 * Calls a pgcatalog routine by name and argument types, the way the executor would (strict: NULL in → NULL out).
 */
import { sqlType, type SqlType } from '../../common/pgtypes/index.ts';
import type { EvalContext, RoutineDef } from '../../functions/registry-types.ts';
import { declaredReturnType } from '../routine-oids.ts';
import { allPgcatalogFunctions } from '../functions.ts';

export function findRoutine(name: string, args: readonly number[]): RoutineDef {
  const def = allPgcatalogFunctions.find((f) => f.name === name && f.args.length === args.length && f.args.every((a, i) => a === args[i]));
  if (def === undefined) throw new Error(`no routine ${name}(${args.join(',')})`);
  return def;
}

export function callFunction(ctx: EvalContext, name: string, args: readonly number[], values: unknown[], argTypes?: readonly SqlType[]): unknown {
  const def = findRoutine(name, args);
  const types = argTypes ?? args.map((a) => sqlType(a));
  if (def.kind === 'aggregate') throw new Error('aggregate');
  if (def.strict !== false && values.some((v) => v === null)) return null;
  if (def.kind === 'set') return [...def.impl(values, ctx, types)];
  return def.impl(values, ctx, types, sqlType(declaredReturnType(def.returns, args)));
}
