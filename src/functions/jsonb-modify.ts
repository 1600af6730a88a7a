/**
 * jsonb modification: jsonb_set (setPath), || (concatenation), - (delete key / index) and
 * json(b)_strip_nulls, with PostgreSQL's rules and error wording.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/jsonfuncs.c
 */
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { escapeJson, type JsonValue } from './json-value.ts';

type Arr = Extract<JsonValue, { t: 'arr' }>;
type Obj = Extract<JsonValue, { t: 'obj' }>;

export function jsonbSet(target: JsonValue, path: readonly (string | null)[], value: JsonValue, create: boolean): JsonValue {
  path.forEach((p, i) => { if (p === null) throw pgError(SqlState.null_value_not_allowed, `path element at position ${i + 1} is null`); });
  if (target.t !== 'obj' && target.t !== 'arr') throw pgError(SqlState.invalid_parameter_value, 'cannot set path in scalar');
  if (path.length === 0) return target;
  return setPath(target, path as string[], 0, value, create);
}

function setPath(v: JsonValue, path: readonly string[], level: number, value: JsonValue, create: boolean): JsonValue {
  const key = path[level]!;
  const last = level === path.length - 1;
  if (v.t === 'obj') {
    const i = v.entries.findIndex(([k]) => k === key);
    if (i >= 0) {
      const entries = v.entries.slice();
      entries[i] = [key, last ? value : setPath(entries[i]![1], path, level + 1, value, create)];
      return { t: 'obj', entries };
    }
    if (last && create) return { t: 'obj', entries: [...v.entries, [key, value] as [string, JsonValue]].sort((a, b) => keyOrder(a[0], b[0])) };
    return v;
  }
  if (v.t === 'arr') {
    if (!/^\s*-?\d+\s*$/.test(key)) throw pgError(SqlState.invalid_text_representation, `path element at position ${level + 1} is not an integer: "${key}"`);
    let idx = Number(key);
    const n = v.items.length;
    if (idx < 0) idx = -idx > n ? -1 : n + idx;
    if (idx >= 0 && idx < n) {
      const items = v.items.slice();
      items[idx] = last ? value : setPath(items[idx]!, path, level + 1, value, create);
      return { t: 'arr', items };
    }
    if (last && create) return { t: 'arr', items: idx < 0 ? [value, ...v.items] : [...v.items, value] };
    return v;
  }
  return v;
}

function keyOrder(a: string, b: string): number {
  const la = Buffer.byteLength(a), lb = Buffer.byteLength(b);
  return la !== lb ? la - lb : Buffer.compare(Buffer.from(a), Buffer.from(b));
}

export function jsonbConcat(a: JsonValue, b: JsonValue): JsonValue {
  if (a.t === 'obj' && b.t === 'obj') {
    const m = new Map<string, JsonValue>(a.entries);
    for (const [k, v] of b.entries) m.set(k, v);
    return { t: 'obj', entries: [...m.entries()].sort((x, y) => keyOrder(x[0], y[0])) };
  }
  const items = (x: JsonValue): JsonValue[] => (x.t === 'arr' ? x.items : [x]);
  return { t: 'arr', items: [...items(a), ...items(b)] };
}

export function jsonbDeleteKey(v: JsonValue, key: string | number): JsonValue {
  if (v.t !== 'obj' && v.t !== 'arr') throw pgError(SqlState.invalid_parameter_value, 'cannot delete from scalar');
  if (typeof key === 'string') {
    if (v.t === 'obj') return { t: 'obj', entries: (v as Obj).entries.filter(([k]) => k !== key) };
    return { t: 'arr', items: (v as Arr).items.filter((x) => !(x.t === 'str' && x.v === key)) };
  }
  if (v.t === 'obj') throw pgError(SqlState.invalid_parameter_value, 'cannot delete from object using integer index');
  const n = v.items.length;
  const idx = key < 0 ? n + key : key;
  if (idx < 0 || idx >= n) return v;
  return { t: 'arr', items: v.items.filter((_x, i) => i !== idx) };
}

export function stripNulls(v: JsonValue): JsonValue {
  if (v.t === 'obj') return { t: 'obj', entries: v.entries.filter(([, x]) => x.t !== 'null').map(([k, x]) => [k, stripNulls(x)]) };
  if (v.t === 'arr') return { t: 'arr', items: v.items.map(stripNulls) };
  return v;
}

/** json text without any whitespace (json_strip_nulls' output layout). */
export function compactText(v: JsonValue): string {
  switch (v.t) {
    case 'null': return 'null';
    case 'bool': return v.v ? 'true' : 'false';
    case 'num': return v.text;
    case 'str': return escapeJson(v.v);
    case 'arr': return '[' + v.items.map(compactText).join(',') + ']';
    case 'obj': return '{' + v.entries.map(([k, x]) => escapeJson(k) + ':' + compactText(x)).join(',') + '}';
  }
}
