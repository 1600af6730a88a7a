/**
 * pgtypes: PostgreSQL's type system as lakegate carries it — OIDs and typmods (oids.ts), the JS value of
 * each type (values.ts), pg_type facts (registry.ts), format_type (format-type.ts), the exact decimal
 * (numeric.ts) and the text and binary wire formats (text-io.ts, binary-io.ts).
 */
export * from './oids.ts';
export * from './values.ts';
export { type PgTypeInfo, PG_CATALOG_NAMESPACE, typeInfo, typeByName, arrayTypeOf, elementTypeOf, isArrayType, allTypes } from './registry.ts';
export { formatType, numericTypmodOut, intervalTypmodOut } from './format-type.ts';
export { Numeric, divRound, pow10 } from './numeric.ts';
export { numericSqrt, numericExp, numericLn, numericLog, numericPower } from './numeric-math.ts';
export { numericToBinary, numericFromBinary } from './numeric-binary.ts';
export { DEFAULT_OUTPUT_SETTINGS } from './output-settings.ts';
export { textIn, textOut } from './text-io.ts';
export { binaryIn, binaryOut } from './binary-io.ts';
export { float4Out, float8Out, floatIn } from './float-text.ts';
export { boolIn, boolOut, intIn, int8In, oidIn, uuidIn, byteaIn, byteaOut } from './scalar-text.ts';
export { jsonIn, jsonbIn, escapeJson } from './json-text.ts';
export { dateIn, dateOut, timeIn, timeOut, timetzIn, timetzOut, timestampIn, timestampOut, timestamptzIn, timestamptzOut } from './datetime-text.ts';
export { intervalIn, intervalOut } from './interval-text.ts';
export { arrayIn, arrayOut } from './array-text.ts';
export { recordOut } from './record-text.ts';
export { type TimeZone, findTimeZone, sessionTimeZone, localToUtcOffset } from './timezone.ts';
export { daysFromCivil, civilFromDays, PG_EPOCH_DAYS, PG_EPOCH_USECS } from './calendar.ts';
export { intervalTypmod } from './interval-typmod.ts';
export { vectorIn, vectorOut } from './vector-text.ts';
export { dateStyleKind, zoneAbbreviation } from './datestyle-format.ts';
