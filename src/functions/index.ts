/**
 * The function library's public face: the default FunctionRegistry with every family registered
 * (string, regex, math, aggregates, numeric/comparison operators, casts, and date/time, array, json,
 * set-returning, uuid, inet/cidr, bit/varbit and money from their own files), plus the helpers the binder and executor share:
 * compareValues / valueKey (sort, join, hash), applyCoercion (CAST, assignment, implicit coercion),
 * textInput / textOutput (session-aware I/O functions).
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
import { orderedSetAggregates } from './aggregates-ordered-set.ts';
import { datetimeCasts, datetimeFunctions } from './datetime-functions.ts';
import { datetimeOperators } from './datetime-operators.ts';
import { arrayFunctions, arrayOperators } from './array-functions.ts';
import { jsonCasts, jsonFunctions, jsonOperators } from './json-functions.ts';
import { setReturningFunctions } from './set-returning-functions.ts';
import { uuidFunctions } from './uuid-functions.ts';
import { inetCasts, inetFunctions, inetOperators } from './inet-functions.ts';
import { bitCasts, bitFunctions, bitOperatorFunctions, bitOperators } from './bit-functions.ts';
import { moneyCasts, moneyFunctions, moneyOperatorFunctions, moneyOperators } from './money-functions.ts';
import { byteaBitFunctions } from './bytea-bit-functions.ts';

export { FunctionRegistry, type ResolvedFunction, type ResolvedOperator, type ResolveOptions } from './registry.ts';
export { selectCommonType } from './common-type.ts';
export { compareValues, valueKey, compareText, type HashKey } from './compare-values.ts';
export { applyCoercion, type CoercionSource } from './coercions.ts';
export { textInput, textOutput, outputSettingsOf, setRegTextOutput } from './text-io.ts';
export { like, likeEscape, similarToEscape } from './like.ts';
export { bpcharLength, varcharLength } from './char-length.ts';
export { dateToTimestamp, sessionZoneOf, timestampToTimestamptz } from './datetime-support.ts';
export { compileRegex } from './regex.ts';
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
  r.registerRoutines(orderedSetAggregates);
  r.registerRoutines(datetimeFunctions);
  r.registerRoutines(arrayFunctions);
  r.registerRoutines(jsonFunctions);
  r.registerRoutines(setReturningFunctions);
  r.registerRoutines(uuidFunctions);
  r.registerRoutines(inetFunctions);
  r.registerRoutines(bitFunctions);
  r.registerRoutines(bitOperatorFunctions);
  r.registerRoutines(moneyFunctions);
  r.registerRoutines(moneyOperatorFunctions);
  r.registerRoutines(byteaBitFunctions);
  r.registerOperators(numericOperators);
  r.registerOperators(compareOperators);
  r.registerOperators(stringOperators);
  r.registerOperators(datetimeOperators);
  r.registerOperators(arrayOperators);
  r.registerOperators(jsonOperators);
  r.registerOperators(inetOperators);
  r.registerOperators(bitOperators);
  r.registerOperators(moneyOperators);
  r.registerCasts(coreCasts);
  r.registerCasts(datetimeCasts);
  r.registerCasts(jsonCasts);
  r.registerCasts(inetCasts);
  r.registerCasts(bitCasts);
  r.registerCasts(moneyCasts);
  return r;
}

/** The process-wide registry (built on first use). */
export function getDefaultRegistry(): FunctionRegistry {
  defaultRegistry ??= createRegistry();
  return defaultRegistry;
}
