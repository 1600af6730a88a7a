/**
 * json / jsonb functions, operators, casts and aggregates (PostgreSQL 15 jsonfuncs.c / json.c / jsonb.c).
 * json values are their input text (operators return the input's own slices); jsonb values are
 * normalized text (json-value.ts).
 * @see https://www.postgresql.org/docs/15/functions-json.html
 */
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import type { PgArray } from '../common/pgtypes/values.ts';
import type { AggregateDef, CastDef, EvalContext, OperatorDef, RoutineDef, ScalarFunctionDef, SetFunctionDef } from './registry-types.ts';
import { sessionZoneOf } from './datetime-support.ts';
import { resolveSessionZone } from './timezone.ts';
import { escapeJson, jsonbContains, jsonbExists, jsonbText, parseJson, parseJsonb, prettyText, rawSlices, typeofJson, normalize, type JsonValue } from './json-value.ts';
import { toJsonText, toJsonValue } from './json-convert.ts';
import { jsonAggregates } from './json-aggregates.ts';
import { jsonbSet, jsonbConcat, jsonbDeleteKey, stripNulls, compactText } from './jsonb-modify.ts';

const { json: JSON_, jsonb: JSONB, text: TEXT, int4: INT4, bool: BOOL, _text: TEXTARR, any: ANY, anyelement: ANYELEMENT, record: RECORD } = Oid;

type PathStep = string | number;

/** One navigation step; `fromText` means the step came from a text[] path (array positions must parse). */
function child(v: JsonValue, step: PathStep, fromText: boolean): number | null {
  if (v.t === 'obj') {
    if (typeof step !== 'string') return null;
    for (let i = v.entries.length - 1; i >= 0; i--) if (v.entries[i]![0] === step) return i;
    return null;
  }
  if (v.t === 'arr') {
    let idx: number;
    if (typeof step === 'number') idx = step;
    else if (fromText && /^\s*-?\d+\s*$/.test(step)) idx = Number(step);
    else return null;
    if (idx < 0) idx += v.items.length;
    return idx >= 0 && idx < v.items.length ? idx : null;
  }
  return null;
}

/** Follows a path through json text, returning the found value's json text (the input's own slice) or null. */
function navigateJson(text: string, path: readonly PathStep[], fromText: boolean): string | null {
  let cur = text;
  for (const step of path) {
    const v = parseJson(cur);
    const i = child(v, step, fromText);
    if (i === null) return null;
    cur = rawSlices(cur, v)[i]!;
  }
  return cur;
}

function navigateJsonb(text: string, path: readonly PathStep[], fromText: boolean): JsonValue | null {
  let v: JsonValue = parseJsonb(text);
  for (const step of path) {
    const i = child(v, step, fromText);
    if (i === null) return null;
    v = v.t === 'obj' ? v.entries[i]![1] : (v as Extract<JsonValue, { t: 'arr' }>).items[i]!;
  }
  return v;
}

/** ->> / #>> / *_text: strings unescaped, JSON null as SQL NULL, anything else its text. */
function asText(v: JsonValue, raw: string): string | null {
  if (v.t === 'str') return v.v;
  if (v.t === 'null') return null;
  return raw;
}

function textPath(a: unknown): PathStep[] | null {
  const arr = a as PgArray;
  if (arr.values.some((x) => x === null)) return null;
  return arr.values as string[];
}

const jsonGet = (text: string, path: PathStep[], fromText: boolean): string | null => navigateJson(text, path, fromText);
const jsonGetText = (text: string, path: PathStep[], fromText: boolean): string | null => {
  const r = navigateJson(text, path, fromText);
  return r === null ? null : asText(parseJson(r), r.trim());
};
const jsonbGet = (text: string, path: PathStep[], fromText: boolean): string | null => {
  const r = navigateJsonb(text, path, fromText);
  return r === null ? null : jsonbText(r);
};
const jsonbGetText = (text: string, path: PathStep[], fromText: boolean): string | null => {
  const r = navigateJsonb(text, path, fromText);
  return r === null ? null : asText(r, jsonbText(r));
};

const op = (name: string, left: number, right: number, returns: number, impl: OperatorDef['impl'], procName: string, oid: number): OperatorDef =>
  ({ name, left, right, returns, impl, procName, oid });
const S = (v: unknown): string => v as string;

export const jsonOperators: readonly OperatorDef[] = [
  op('->', JSON_, TEXT, JSON_, (l, r) => jsonGet(S(l), [S(r)], false), 'json_object_field', 3962),
  op('->>', JSON_, TEXT, TEXT, (l, r) => jsonGetText(S(l), [S(r)], false), 'json_object_field_text', 3963),
  op('->', JSON_, INT4, JSON_, (l, r) => jsonGet(S(l), [r as number], false), 'json_array_element', 3964),
  op('->>', JSON_, INT4, TEXT, (l, r) => jsonGetText(S(l), [r as number], false), 'json_array_element_text', 3965),
  op('#>', JSON_, TEXTARR, JSON_, (l, r) => { const p = textPath(r); return p && jsonGet(S(l), p, true); }, 'json_extract_path_op', 3966),
  op('#>>', JSON_, TEXTARR, TEXT, (l, r) => { const p = textPath(r); return p && jsonGetText(S(l), p, true); }, 'json_extract_path_text_op', 3967),
  op('->', JSONB, TEXT, JSONB, (l, r) => jsonbGet(S(l), [S(r)], false), 'jsonb_object_field', 3211),
  op('->>', JSONB, TEXT, TEXT, (l, r) => jsonbGetText(S(l), [S(r)], false), 'jsonb_object_field_text', 3477),
  op('->', JSONB, INT4, JSONB, (l, r) => jsonbGet(S(l), [r as number], false), 'jsonb_array_element', 3212),
  op('->>', JSONB, INT4, TEXT, (l, r) => jsonbGetText(S(l), [r as number], false), 'jsonb_array_element_text', 3481),
  op('#>', JSONB, TEXTARR, JSONB, (l, r) => { const p = textPath(r); return p && jsonbGet(S(l), p, true); }, 'jsonb_extract_path_op', 3213),
  op('#>>', JSONB, TEXTARR, TEXT, (l, r) => { const p = textPath(r); return p && jsonbGetText(S(l), p, true); }, 'jsonb_extract_path_text_op', 3206),
  op('@>', JSONB, JSONB, BOOL, (l, r) => jsonbContains(parseJsonb(S(l)), parseJsonb(S(r))), 'jsonb_contains', 3246),
  op('<@', JSONB, JSONB, BOOL, (l, r) => jsonbContains(parseJsonb(S(r)), parseJsonb(S(l))), 'jsonb_contained', 3250),
  op('?', JSONB, TEXT, BOOL, (l, r) => jsonbExists(parseJsonb(S(l)), S(r)), 'jsonb_exists', 3247),
  op('?|', JSONB, TEXTARR, BOOL, (l, r) => { const v = parseJsonb(S(l)); return (r as PgArray).values.some((k) => k !== null && jsonbExists(v, k as string)); }, 'jsonb_exists_any', 3248),
  op('?&', JSONB, TEXTARR, BOOL, (l, r) => { const v = parseJsonb(S(l)); return (r as PgArray).values.every((k) => k === null || jsonbExists(v, k as string)); }, 'jsonb_exists_all', 3249),
  op('||', JSONB, JSONB, JSONB, (l, r) => jsonbText(jsonbConcat(parseJsonb(S(l)), parseJsonb(S(r)))), 'jsonb_concat', 3284),
  op('-', JSONB, TEXT, JSONB, (l, r) => jsonbText(jsonbDeleteKey(parseJsonb(S(l)), S(r))), 'jsonb_delete', 3285),
  op('-', JSONB, INT4, JSONB, (l, r) => jsonbText(jsonbDeleteKey(parseJsonb(S(l)), r as number)), 'jsonb_delete', 3286),
];

// ---- builders ---------------------------------------------------------------------------------------

function buildObjectArgs(args: unknown[], types: readonly { oid: number }[], fname: string): Array<[string, number, unknown, number]> {
  if (args.length % 2 !== 0) {
    throw pgError(SqlState.invalid_parameter_value, 'argument list must have even number of elements', { hint: `The arguments of ${fname}() must consist of alternating keys and values.` });
  }
  const out: Array<[string, number, unknown, number]> = [];
  for (let i = 0; i < args.length; i += 2) {
    if (args[i] === null) throw pgError(SqlState.invalid_parameter_value, `argument ${i + 1} cannot be null`, { hint: 'Object keys should be text.' });
    const kt = types[i]?.oid ?? TEXT;
    const key = typeof args[i] === 'string' ? (args[i] as string) : toJsonText(kt, args[i], resolveSessionZone('UTC')).replace(/^"|"$/g, '');
    out.push([key, kt, args[i + 1] ?? null, types[i + 1]?.oid ?? TEXT]);
  }
  return out;
}

type Impl = ScalarFunctionDef['impl'];
const fn = (name: string, args: number[], returns: number, impl: Impl, extra: Partial<ScalarFunctionDef> = {}): ScalarFunctionDef =>
  ({ kind: 'scalar', name, args, returns, impl, volatility: 'i', ...extra });
const zoneOf = (ctx: EvalContext) => sessionZoneOf(ctx);

function arrayLength(text: string, isJsonb: boolean): number {
  const v = parseJson(text);
  if (v.t === 'arr') return v.items.length;
  if (isJsonb || v.t !== 'obj') throw pgError(SqlState.invalid_parameter_value, v.t === 'obj' ? 'cannot get array length of a non-array' : 'cannot get array length of a scalar');
  throw pgError(SqlState.invalid_parameter_value, 'cannot get array length of a non-array');
}

function objectKeys(text: string, fname: string, isJsonb: boolean): string[] {
  const v = isJsonb ? parseJsonb(text) : parseJson(text);
  if (v.t !== 'obj') throw pgError(SqlState.invalid_parameter_value, `cannot call ${fname} on ${v.t === 'arr' ? 'an array' : 'a scalar'}`);
  return v.entries.map(([k]) => k);
}

function* each(text: string, fname: string, isJsonb: boolean, asTextValues: boolean): Generator<unknown[]> {
  const v = isJsonb ? parseJsonb(text) : parseJson(text);
  if (v.t !== 'obj') throw pgError(SqlState.invalid_parameter_value, `cannot call ${fname} on ${v.t === 'arr' ? 'an array' : 'a non-object'}`);
  const raws = isJsonb ? v.entries.map(([, x]) => jsonbText(x)) : rawSlices(text, v);
  for (let i = 0; i < v.entries.length; i++) {
    const [k, x] = v.entries[i]!;
    yield [k, asTextValues ? asText(x, raws[i]!) : raws[i]!];
  }
}

function* elements(text: string, fname: string, isJsonb: boolean, asTextValues: boolean): Generator<unknown> {
  const v = isJsonb ? parseJsonb(text) : parseJson(text);
  if (v.t !== 'arr') {
    if (isJsonb) throw pgError(SqlState.invalid_parameter_value, v.t === 'obj' ? 'cannot extract elements from an object' : 'cannot extract elements from a scalar');
    throw pgError(SqlState.invalid_parameter_value, `cannot call ${fname} on a ${v.t === 'obj' ? 'non-array' : 'scalar'}`);
  }
  const raws = isJsonb ? v.items.map(jsonbText) : rawSlices(text, v);
  for (let i = 0; i < v.items.length; i++) yield asTextValues ? asText(v.items[i]!, raws[i]!) : raws[i]!;
}

const set = (name: string, args: number[], returns: number, impl: SetFunctionDef['impl'], extra: Partial<SetFunctionDef> = {}): SetFunctionDef =>
  ({ kind: 'set', name, args, returns, impl, volatility: 'i', ...extra });
const eachCols = (valueType: number) => () => [{ name: 'key', type: { oid: TEXT, typmod: -1 } }, { name: 'value', type: { oid: valueType, typmod: -1 } }];

function variadicPath(a: unknown[]): PathStep[] | null {
  return textPath(a[1]);
}

const scalarFunctions: ScalarFunctionDef[] = [
  fn('to_json', [ANYELEMENT], JSON_, (a, ctx, t) => toJsonText(t[0]?.oid ?? TEXT, a[0], zoneOf(ctx)), { volatility: 's', oid: 3176 }),
  fn('to_jsonb', [ANYELEMENT], JSONB, (a, ctx, t) => jsonbText(toJsonValue(t[0]?.oid ?? TEXT, a[0], zoneOf(ctx))), { volatility: 's', oid: 3787 }),
  fn('row_to_json', [RECORD], JSON_, (a, ctx, t) => toJsonText(t[0]?.oid ?? RECORD, a[0], zoneOf(ctx)), { volatility: 's', oid: 3155 }),
  fn('json_build_object', [ANY], JSON_, (a, ctx, t) => {
    const pairs = buildObjectArgs(a, t, 'json_build_object');
    if (pairs.length === 0) return '{}';
    return '{' + pairs.map(([k, , v, vt]) => `${escapeJson(k)} : ${toJsonText(vt, v, zoneOf(ctx))}`).join(', ') + '}';
  }, { variadic: ANY, strict: false, volatility: 's', oid: 3200 }),
  fn('json_build_object', [], JSON_, () => '{}', { oid: 3201 }),
  fn('jsonb_build_object', [ANY], JSONB, (a, ctx, t) => {
    const pairs = buildObjectArgs(a, t, 'jsonb_build_object');
    return jsonbText(normalize({ t: 'obj', entries: pairs.map(([k, , v, vt]) => [k, toJsonValue(vt, v, zoneOf(ctx))]) }));
  }, { variadic: ANY, strict: false, volatility: 's', oid: 3273 }),
  fn('jsonb_build_object', [], JSONB, () => '{}', { oid: 3274 }),
  fn('json_build_array', [ANY], JSON_, (a, ctx, t) => '[' + a.map((v, i) => toJsonText(t[i]?.oid ?? TEXT, v, zoneOf(ctx))).join(', ') + ']', { variadic: ANY, strict: false, volatility: 's', oid: 3198 }),
  fn('json_build_array', [], JSON_, () => '[]', { oid: 3199 }),
  fn('jsonb_build_array', [ANY], JSONB, (a, ctx, t) => jsonbText({ t: 'arr', items: a.map((v, i) => toJsonValue(t[i]?.oid ?? TEXT, v, zoneOf(ctx))) }), { variadic: ANY, strict: false, volatility: 's', oid: 3271 }),
  fn('jsonb_build_array', [], JSONB, () => '[]', { oid: 3272 }),
  fn('json_array_length', [JSON_], INT4, (a) => arrayLength(S(a[0]), false), { oid: 3956 }),
  fn('jsonb_array_length', [JSONB], INT4, (a) => arrayLength(S(a[0]), true), { oid: 3207 }),
  fn('json_typeof', [JSON_], TEXT, (a) => typeofJson(parseJson(S(a[0]))), { oid: 3968 }),
  fn('jsonb_typeof', [JSONB], TEXT, (a) => typeofJson(parseJson(S(a[0]))), { oid: 3210 }),
  fn('jsonb_pretty', [JSONB], TEXT, (a) => prettyText(parseJsonb(S(a[0]))), { oid: 3306 }),
  fn('jsonb_set', [JSONB, TEXTARR, JSONB, BOOL], JSONB, (a) => jsonbText(jsonbSet(parseJsonb(S(a[0])), (a[1] as PgArray).values as (string | null)[], parseJsonb(S(a[2])), (a[3] ?? true) as boolean)), { defaults: 1, oid: 3305 }),
  fn('jsonb_strip_nulls', [JSONB], JSONB, (a) => jsonbText(stripNulls(parseJsonb(S(a[0])))), { oid: 3262 }),
  fn('json_strip_nulls', [JSON_], JSON_, (a) => compactText(stripNulls(parseJson(S(a[0])))), { oid: 3261 }),
  fn('json_extract_path', [JSON_, TEXTARR], JSON_, (a) => { const p = variadicPath(a); return p && jsonGet(S(a[0]), p, true); }, { variadic: TEXT, oid: 3951 }),
  fn('json_extract_path_text', [JSON_, TEXTARR], TEXT, (a) => { const p = variadicPath(a); return p && jsonGetText(S(a[0]), p, true); }, { variadic: TEXT, oid: 3953 }),
  fn('jsonb_extract_path', [JSONB, TEXTARR], JSONB, (a) => { const p = variadicPath(a); return p && jsonbGet(S(a[0]), p, true); }, { variadic: TEXT, oid: 3217 }),
  fn('jsonb_extract_path_text', [JSONB, TEXTARR], TEXT, (a) => { const p = variadicPath(a); return p && jsonbGetText(S(a[0]), p, true); }, { variadic: TEXT, oid: 3940 }),
];

const setFunctions: SetFunctionDef[] = [
  set('json_object_keys', [JSON_], TEXT, (a) => objectKeys(S(a[0]), 'json_object_keys', false), { oid: 3957 }),
  set('jsonb_object_keys', [JSONB], TEXT, (a) => objectKeys(S(a[0]), 'jsonb_object_keys', true), { oid: 3931 }),
  set('json_each', [JSON_], RECORD, (a) => each(S(a[0]), 'json_each', false, false), { outColumns: eachCols(JSON_), oid: 3958 }),
  set('json_each_text', [JSON_], RECORD, (a) => each(S(a[0]), 'json_each_text', false, true), { outColumns: eachCols(TEXT), oid: 3959 }),
  set('jsonb_each', [JSONB], RECORD, (a) => each(S(a[0]), 'jsonb_each', true, false), { outColumns: eachCols(JSONB), oid: 3208 }),
  set('jsonb_each_text', [JSONB], RECORD, (a) => each(S(a[0]), 'jsonb_each_text', true, true), { outColumns: eachCols(TEXT), oid: 3932 }),
  set('json_array_elements', [JSON_], JSON_, (a) => elements(S(a[0]), 'json_array_elements', false, false), { oid: 3955 }),
  set('json_array_elements_text', [JSON_], TEXT, (a) => elements(S(a[0]), 'json_array_elements_text', false, true), { oid: 3969 }),
  set('jsonb_array_elements', [JSONB], JSONB, (a) => elements(S(a[0]), 'jsonb_array_elements', true, false), { oid: 3219 }),
  set('jsonb_array_elements_text', [JSONB], TEXT, (a) => elements(S(a[0]), 'jsonb_array_elements_text', true, true), { oid: 3465 }),
];

export const jsonFunctions: readonly RoutineDef[] = [...scalarFunctions, ...setFunctions, ...(jsonAggregates as readonly AggregateDef[])];

// ---- casts ------------------------------------------------------------------------------------------

const JSONB_TYPE_NAMES: Record<string, string> = { null: 'null', bool: 'boolean', num: 'numeric', str: 'string', arr: 'array', obj: 'object' };

function jsonbScalar(text: string, want: 'num' | 'bool', targetName: string): JsonValue {
  const v = parseJsonb(text);
  if (v.t !== want) throw pgError(SqlState.invalid_parameter_value, `cannot cast jsonb ${JSONB_TYPE_NAMES[v.t]} to type ${targetName}`);
  return v;
}

function jsonbNumber(text: string, targetName: string): Numeric {
  return Numeric.parse((jsonbScalar(text, 'num', targetName) as { text: string }).text);
}

function toInt(n: Numeric, name: string, min: number, max: number): number {
  const r = n.round(0);
  if (r.compare(Numeric.fromNumber(min)) < 0 || r.compare(Numeric.fromNumber(max)) > 0) throw pgError(SqlState.numeric_value_out_of_range, `${name} out of range`);
  return r.toNumber();
}

const cast = (source: number, target: number, context: CastDef['context'], method: CastDef['method'], impl: CastDef['impl']): CastDef => ({ source, target, context, method, impl });

export const jsonCasts: readonly CastDef[] = [
  cast(JSON_, JSONB, 'a', 'i', (v) => jsonbText(parseJsonb(S(v)))),
  cast(JSONB, JSON_, 'a', 'i', (v) => v),
  cast(JSONB, BOOL, 'e', 'f', (v) => (jsonbScalar(S(v), 'bool', 'boolean') as { v: boolean }).v),
  cast(JSONB, Oid.numeric, 'e', 'f', (v) => jsonbNumber(S(v), 'numeric')),
  cast(JSONB, Oid.int2, 'e', 'f', (v) => toInt(jsonbNumber(S(v), 'smallint'), 'smallint', -32768, 32767)),
  cast(JSONB, INT4, 'e', 'f', (v) => toInt(jsonbNumber(S(v), 'integer'), 'integer', -2147483648, 2147483647)),
  cast(JSONB, Oid.int8, 'e', 'f', (v) => jsonbNumber(S(v), 'bigint').round(0).toBigInt('bigint')),
  cast(JSONB, Oid.float4, 'e', 'f', (v) => Math.fround(jsonbNumber(S(v), 'real').toNumber())),
  cast(JSONB, Oid.float8, 'e', 'f', (v) => jsonbNumber(S(v), 'double precision').toNumber()),
];
