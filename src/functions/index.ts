/**
 * The function library's public face: the default FunctionRegistry with every family registered,
 * plus the helpers the binder and executor share (compareValues, valueKey, applyCoercion).
 */
import { FunctionRegistry } from './registry.ts';
import { numericOperators } from './operators-numeric.ts';
import { compareOperators } from './operators-compare.ts';
import { coreCasts } from './casts.ts';
import { stringFunctions } from './string-functions.ts';
import { stringFormatFunctions } from './string-format.ts';
import { regexFunctions } from './regex-functions.ts';
import { stringOperators } from './string-operators.ts';
import { mathFunctions } from './math-functions.ts';
import { aggregateFunctions } from './aggregates.ts';
import { datetimeCasts, datetimeFunctions } from './datetime-functions.ts';
import { datetimeOperators } from './datetime-operators.ts';
import { arrayFunctions, arrayOperators } from './array-functions.ts';
import { jsonCasts, jsonFunctions, jsonOperators } from './json-functions.ts';
import { setReturningFunctions } from './set-returning-functions.ts';
import { uuidFunctions } from './uuid-functions.ts';

export { FunctionRegistry, type ResolvedFunction, type ResolvedOperator } from './registry.ts';
export { compareValues, valueKey, compareText, type HashKey } from './compare-values.ts';
export { applyCoercion } from './coercions.ts';
export type * from './registry-types.ts';

let defaultRegistry: FunctionRegistry | undefined;

/** Builds a registry holding every built-in family (a fresh one: callers may add their own entries). */
export function createRegistry(): FunctionRegistry {
  const r = new FunctionRegistry();
  r.registerRoutines(stringFunctions);
  r.registerRoutines(stringFormatFunctions);
  r.registerRoutines(regexFunctions);
  r.registerRoutines(mathFunctions);
  r.registerRoutines(aggregateFunctions);
  r.registerRoutines(datetimeFunctions);
  r.registerRoutines(arrayFunctions);
  r.registerRoutines(jsonFunctions);
  r.registerRoutines(setReturningFunctions);
  r.registerRoutines(uuidFunctions);
  r.registerOperators(numericOperators);
  r.registerOperators(compareOperators);
  r.registerOperators(stringOperators);
  r.registerOperators(datetimeOperators);
  r.registerOperators(arrayOperators);
  r.registerOperators(jsonOperators);
  r.registerCasts(coreCasts);
  r.registerCasts(datetimeCasts);
  r.registerCasts(jsonCasts);
  return r;
}

/** The process-wide registry (built on first use). */
export function getDefaultRegistry(): FunctionRegistry {
  defaultRegistry ??= createRegistry();
  return defaultRegistry;
}
