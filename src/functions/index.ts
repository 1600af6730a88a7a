/**
 * The function library's public face: the default FunctionRegistry with every family registered,
 * plus the helpers the binder and executor share (compareValues, valueKey, applyCoercion).
 */
import { FunctionRegistry } from './registry.ts';
import { numericOperators } from './operators-numeric.ts';
import { compareOperators } from './operators-compare.ts';
import { coreCasts } from './casts.ts';

export { FunctionRegistry, type ResolvedFunction, type ResolvedOperator } from './registry.ts';
export { compareValues, valueKey, compareText, type HashKey } from './compare-values.ts';
export { applyCoercion } from './coercions.ts';
export type * from './registry-types.ts';

let defaultRegistry: FunctionRegistry | undefined;

/** Builds a registry holding every built-in family (a fresh one: callers may add their own entries). */
export function createRegistry(): FunctionRegistry {
  const r = new FunctionRegistry();
  r.registerOperators(numericOperators);
  r.registerOperators(compareOperators);
  r.registerCasts(coreCasts);
  return r;
}

/** The process-wide registry (built on first use). */
export function getDefaultRegistry(): FunctionRegistry {
  defaultRegistry ??= createRegistry();
  return defaultRegistry;
}
