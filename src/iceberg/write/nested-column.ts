/**
 * Nested Iceberg columns (struct, list, map, at any depth) → Arrow Data with the Iceberg field id on every
 * nested field (struct fields, list `element`, map `key`/`value`), so the Parquet schema carries them.
 *
 * Values arrive in the form the reader produces (read/arrow-values.ts), so a value read can be written back
 * unchanged: struct and map columns are jsonb (struct = object keyed by field name, map = object keyed by
 * the key — a non-string key as its JSON text), list columns are arrays (`T[]` of a primitive element,
 * `jsonb[]` of a nested one). Leaves inside JSON are in json-values.ts's form: numbers (exact), ISO date/time
 * strings, `\x…` hex for binary; they go through the SQL type's text input, so errors keep PostgreSQL's
 * wording (22P02 / 22003 / 22008) with the column and field path added. A JSON value of the wrong shape
 * or an unknown struct field is 22023; NULL in a required nested field is 23502.
 *
 * Metrics (column-metrics.ts): one ColumnMetrics per primitive leaf; a null or empty list/map above a leaf
 * counts one null slot for it, as Parquet's column chunk (and so Iceberg Java's value/null counts) does.
 */
import { Field, List, Map_, Struct, makeData, type Data, type DataType } from 'apache-arrow';
import { GatewayError, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { parseJsonb, type JsonbObject, type JsonbValue } from '../../common/pgtypes/json-text.ts';
import { textIn } from '../../common/pgtypes/text-io.ts';
import { DEFAULT_OUTPUT_SETTINGS, type OutputSettings } from '../../common/pgtypes/output-settings.ts';
import { isPgArray } from '../../common/pgtypes/values.ts';
import type { SqlType } from '../../common/pgtypes/oids.ts';
import type { IcebergType, NestedField, PrimitiveType } from '../spec/schema.ts';
import { toSqlType } from '../spec/types.ts';
import { FIELD_ID_KEY } from '../read/arrow-values.ts';
import { arrowColumn, arrowTypeOf } from './arrow-column.ts';
import { variantLeafValues } from '../variant/v3-arrow-column.ts';
import { ColumnMetrics } from './column-metrics.ts';
import { readJsonb } from './jsonb-reader.ts';

/** json-values.ts writes ISO dates and UTC offsets: read them back the same way whatever the session says */
const JSON_LEAF_SETTINGS: OutputSettings = { ...DEFAULT_OUTPUT_SETTINGS, dateStyle: 'ISO, YMD', timeZone: 'UTC' };

const idMeta = (id: number): Map<string, string> => new Map([[FIELD_ID_KEY, String(id)]]);

/** Arrow type of any writable Iceberg type; nested fields carry `PARQUET:field_id` */
export function arrowTypeOfIceberg(t: IcebergType): DataType {
  switch (t.kind) {
    case 'primitive': return arrowTypeOf(t);
    case 'list': return new List(new Field('element', arrowTypeOfIceberg(t.element), !t.elementRequired, idMeta(t.elementId)));
    case 'map': return new Map_(new Field('key_value', new Struct<{ key: DataType; value: DataType }>([
      new Field('key', arrowTypeOfIceberg(t.key), false, idMeta(t.keyId)),
      new Field('value', arrowTypeOfIceberg(t.value), !t.valueRequired, idMeta(t.valueId)),
    ]), false));
    case 'struct': {
      if (t.fields.length === 0) throw pgError(SqlState.feature_not_supported, 'Iceberg structs without fields cannot be written to Parquet');
      return new Struct(t.fields.map((f) => new Field(f.name, arrowTypeOfIceberg(f.type), !f.required, idMeta(f.id))));
    }
  }
}

/** the metrics of a column: a plain ColumnMetrics for a primitive, else a container holding one per leaf */
export function columnMetricsOf(f: NestedField): ColumnMetrics {
  if (f.type.kind === 'primitive') return new ColumnMetrics(f.id, f.type);
  const m = new ColumnMetrics(f.id, { kind: 'primitive', name: f.type.kind });
  const visit = (t: IcebergType, id: number, repeated: boolean): void => {
    if (t.kind === 'primitive') m.leaves.push(new ColumnMetrics(id, t, !repeated));
    else if (t.kind === 'struct') for (const c of t.fields) visit(c.type, c.id, repeated);
    else if (t.kind === 'list') visit(t.element, t.elementId, true);
    else { visit(t.key, t.keyId, true); visit(t.value, t.valueId, true); }
  };
  visit(f.type, f.id, false);
  return m;
}

/** leaf field ids under a type (for counting absent slots) */
function leafIds(t: IcebergType, id: number, out: number[] = []): number[] {
  if (t.kind === 'primitive') out.push(id);
  else if (t.kind === 'struct') for (const c of t.fields) leafIds(c.type, c.id, out);
  else if (t.kind === 'list') leafIds(t.element, t.elementId, out);
  else { leafIds(t.key, t.keyId, out); leafIds(t.value, t.valueId, out); }
  return out;
}

const kindOf = (v: JsonbValue): string => {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'a boolean';
  if (typeof v === 'string') return 'a string';
  if (Array.isArray(v)) return 'an array';
  return 'num' in v ? 'a number' : 'an object';
};
const isObject = (v: JsonbValue): v is JsonbObject => typeof v === 'object' && v !== null && !Array.isArray(v) && !('num' in v);

/** one column being converted: names for messages, leaf metrics by field id */
class Conversion {
  private readonly leafMetrics = new Map<number, ColumnMetrics>();

  constructor(readonly column: NestedField, readonly relation: string, metrics: ColumnMetrics) {
    for (const l of metrics.leaves) this.leafMetrics.set(l.fieldId, l);
  }

  metrics(id: number): ColumnMetrics {
    return this.leafMetrics.get(id) ?? new ColumnMetrics(id, { kind: 'primitive', name: 'unknown' }, false);
  }

  where(path: string): string {
    return path === this.column.name ? ` (column "${this.column.name}")` : ` (column "${this.column.name}", field ${path})`;
  }

  shapeError(path: string, expected: string, v: JsonbValue): GatewayError {
    return pgError(SqlState.invalid_parameter_value, `expected ${expected} for Iceberg ${path === this.column.name ? 'column' : 'field'}, got ${kindOf(v)}${this.where(path)}`, {
      column: this.column.name,
    });
  }

  notNull(path: string): GatewayError {
    return pgError(SqlState.not_null_violation, `null value in column "${this.column.name}" of relation "${this.relation}" violates not-null constraint`, {
      ...(path === this.column.name ? {} : { detail: `Iceberg field ${path} is required.` }), table: this.relation, column: this.column.name,
    });
  }

  /** a JSON scalar → the JS value of the leaf's SQL type */
  leaf(v: JsonbValue, t: PrimitiveType, sql: SqlType, path: string): unknown {
    if (v === null) return null;
    let text: string;
    if (typeof v === 'string') {
      if (t.name === 'boolean') throw this.shapeError(path, 'a JSON boolean', v);
      text = v;
    } else if (typeof v === 'boolean') {
      if (t.name !== 'boolean') throw this.shapeError(path, `a JSON ${jsonKindOf(t)}`, v);
      return v;
    } else if (!Array.isArray(v) && 'num' in v) {
      if (jsonKindOf(t) !== 'number') throw this.shapeError(path, `a JSON ${jsonKindOf(t)}`, v);
      text = v.num;
    } else {
      throw this.shapeError(path, `a JSON ${jsonKindOf(t)} (Iceberg ${t.name})`, v);
    }
    try {
      return textIn(sql.oid, sql.typmod, text, JSON_LEAF_SETTINGS);
    } catch (e) {
      if (!GatewayError.is(e)) throw e;
      throw pgError(e.code, e.message + this.where(path), { ...(e.detail === undefined ? {} : { detail: e.detail }), column: this.column.name });
    }
  }

  /**
   * values of one type at one level → Arrow Data. `undefined` marks a slot under a null struct (it must not
   * be checked against `required`); `json` false: primitive values already in their JS form (a `T[]` column).
   */
  build(values: readonly (JsonbValue | undefined | unknown)[], t: IcebergType, id: number, path: string, required: boolean, json: boolean): Data {
    const length = values.length;
    if (required) for (const v of values) if (v === null) throw this.notNull(path);
    if (t.kind === 'primitive') {
      const sql = toSqlType(t);
      const js = t.name === 'variant' && json ? variantLeafValues(values) : json ? values.map((v) => (v === undefined ? null : this.leaf(v as JsonbValue, t, sql, path))) : values.map((v) => v ?? null);
      return arrowColumn(js, length, t, this.metrics(id));
    }
    const type = arrowTypeOfIceberg(t);
    const nullBitmap = new Uint8Array((length + 7) >> 3);
    let nullCount = 0;
    const present = (i: number): boolean => {
      const v = values[i];
      if (v === null || v === undefined) { nullCount++; return false; }
      nullBitmap[i >> 3]! |= 1 << (i & 7);
      return true;
    };
    const nulls = (): object => (nullCount > 0 ? { nullBitmap } : {});
    if (t.kind === 'struct') {
      const rows: (JsonbObject | undefined)[] = new Array<JsonbObject | undefined>(length);
      for (let i = 0; i < length; i++) {
        if (!present(i)) continue;
        const v = values[i] as JsonbValue;
        if (!isObject(v)) throw this.shapeError(path, 'a JSON object', v);
        for (const k of v.keys) {
          if (!t.fields.some((f) => f.name === k)) {
            throw pgError(SqlState.invalid_parameter_value, `Iceberg struct ${path} has no field "${k}"${this.where(path)}`, {
              hint: `Its fields: ${t.fields.map((f) => f.name).join(', ')}.`, column: this.column.name,
            });
          }
        }
        rows[i] = v;
      }
      const children = t.fields.map((f) => {
        const vals = rows.map((r) => {
          if (r === undefined) return undefined;
          const k = r.keys.indexOf(f.name);
          return k < 0 ? null : r.values[k]!;
        });
        return this.build(vals, f.type, f.id, `${path}.${f.name}`, f.required, true);
      });
      return makeData({ type: type as Struct, length, nullCount, ...nulls(), children });
    }
    // list and map: one child slot per element/entry; a null or empty one leaves one null slot per leaf
    const valueOffsets = new Int32Array(length + 1);
    let absent = 0;
    if (t.kind === 'list') {
      const flat: unknown[] = [];
      for (let i = 0; i < length; i++) {
        if (present(i)) {
          const v = values[i];
          let elems: readonly unknown[];
          if (isPgArray(v)) {
            if (v.dims.length > 1) throw pgError(SqlState.feature_not_supported, `multidimensional arrays cannot be stored in Iceberg lists${this.where(path)}`);
            elems = v.values;
          } else if (Array.isArray(v) && json) elems = v as JsonbValue[];
          else throw this.shapeError(path, json ? 'a JSON array' : 'an array', v as JsonbValue);
          for (const x of elems) flat.push(x);
          if (elems.length === 0) absent++;
        } else absent++;
        valueOffsets[i + 1] = flat.length;
      }
      this.addAbsent(t.element, t.elementId, absent);
      const child = this.build(flat, t.element, t.elementId, `${path}.element`, t.elementRequired, json);
      return makeData({ type: type as List, length, nullCount, ...nulls(), valueOffsets, child });
    }
    const keys: JsonbValue[] = [];
    const vals: JsonbValue[] = [];
    for (let i = 0; i < length; i++) {
      if (present(i)) {
        const v = values[i] as JsonbValue;
        if (!isObject(v)) throw this.shapeError(path, 'a JSON object', v);
        for (let k = 0; k < v.keys.length; k++) {
          keys.push(mapKey(v.keys[k]!, t.key));
          vals.push(v.values[k]!);
        }
        if (v.keys.length === 0) absent++;
      } else absent++;
      valueOffsets[i + 1] = keys.length;
    }
    this.addAbsent(t.key, t.keyId, absent);
    this.addAbsent(t.value, t.valueId, absent);
    const entryType = (type as Map_).children[0]!.type;
    const entries = makeData({
      type: entryType, length: keys.length, nullCount: 0,
      children: [this.build(keys, t.key, t.keyId, `${path}.key`, true, true), this.build(vals, t.value, t.valueId, `${path}.value`, t.valueRequired, true)],
    });
    return makeData({ type: type as Map_, length, nullCount, ...nulls(), valueOffsets, child: entries });
  }

  private addAbsent(t: IcebergType, id: number, n: number): void {
    if (n > 0) for (const leaf of leafIds(t, id)) this.metrics(leaf).addAbsent(n);
  }
}

/** the JSON kind a primitive's read form uses */
function jsonKindOf(t: PrimitiveType): 'number' | 'string' | 'boolean' {
  switch (t.name) {
    case 'int': case 'long': case 'float': case 'double': case 'decimal': return 'number';
    case 'boolean': return 'boolean';
    default: return 'string';
  }
}

/**
 * A map key as the reader writes it: the key itself for string keys, else its JSON text (`"5"`, `"\"2024-01-02\""`).
 * Keys that are not JSON text are taken as strings (`2024-01-02` works too).
 */
function mapKey(k: string, t: IcebergType): JsonbValue {
  if (t.kind === 'primitive' && t.name === 'string') return k;
  try {
    return parseJsonb(k);
  } catch {
    return k;
  }
}

/**
 * One nested column (struct, list or map) of lakegate JS values → Arrow Data; `metrics` from columnMetricsOf.
 * A top-level NULL in a required column is the writer's check (ParquetDataWriter); nested ones are checked here.
 */
export function nestedArrowColumn(values: readonly unknown[], length: number, f: NestedField, metrics: ColumnMetrics, relation = ''): Data {
  const cx = new Conversion(f, relation, metrics);
  metrics.valueCount += length;
  const top: unknown[] = new Array<unknown>(length);
  let nulls = 0;
  for (let i = 0; i < length; i++) {
    const v = values[i];
    if (v === null || v === undefined) { top[i] = null; nulls++; continue; }
    if (f.type.kind === 'list') {
      // `T[]` of a primitive element keeps its JS values; `jsonb[]` elements are parsed
      if (!isPgArray(v)) throw pgError(SqlState.datatype_mismatch, `expected an array value for Iceberg list column "${f.name}"`);
      top[i] = f.type.element.kind === 'primitive' ? v : { ...v, values: v.values.map((x) => (x === null ? null : parseJson(x, f.name))) };
    } else {
      const parsed = parseJson(v, f.name);
      top[i] = parsed;
      if (parsed === null) {
        // jsonb 'null' is a NULL struct/map (it reads back as SQL NULL)
        if (f.required) throw cx.notNull(f.name);
        nulls++;
      }
    }
  }
  metrics.nullCount += nulls;
  const json = !(f.type.kind === 'list' && f.type.element.kind === 'primitive');
  return cx.build(top, f.type, f.id, f.name, false, json);
}

function parseJson(v: unknown, column: string): JsonbValue {
  if (typeof v !== 'string') throw pgError(SqlState.datatype_mismatch, `expected a jsonb value for Iceberg column "${column}"`);
  return readJsonb(v);
}
