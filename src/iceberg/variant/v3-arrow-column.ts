/**
 * Writing the v3 types to Parquet (§ Parquet type mapping): variant → a group of required binary `metadata`
 * and `value` (no field ids inside, unshredded; the Parquet VARIANT annotation cannot be set through Arrow,
 * so readers go by the Iceberg schema, as lakegate does), geometry / geography → binary holding the WKB
 * bytes as given (bytea). Metrics: value and null counts only — Iceberg's bounds for these types are bounding
 * boxes and per-path variant objects, not min/max values, and none are better than wrong ones.
 * write/arrow-column.ts calls in here for these type names.
 */
import { Binary, Field, Struct, makeData, type Data, type DataType } from 'apache-arrow';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { readJsonb } from '../write/jsonb-reader.ts';
import { jsonbToText, type JsonbValue } from '../../common/pgtypes/json-text.ts';
import { encodeVariant } from './variant-encode.ts';

/** the type names this file writes */
export const V3_WRITTEN_TYPES: ReadonlySet<string> = new Set(['variant', 'geometry', 'geography']);

const variantType = (): Struct => new Struct([new Field('metadata', new Binary(), false), new Field('value', new Binary(), false)]);

export function v3ArrowType(t: PrimitiveType): DataType {
  return t.name === 'variant' ? variantType() : new Binary();
}

/** the counts a column's ColumnMetrics takes (structural: write/column-metrics.ts) */
interface Counts { valueCount: number; nullCount: number }

function binaryData(parts: readonly Uint8Array[], length: number, nullBitmap: Uint8Array | null, nullCount: number): Data {
  const valueOffsets = new Int32Array(length + 1);
  let total = 0;
  for (let i = 0; i < length; i++) {
    total += parts[i]!.length;
    if (total > 0x7fffffff) throw pgError(SqlState.program_limit_exceeded, 'Arrow column chunk exceeds 2 GiB');
    valueOffsets[i + 1] = total;
  }
  const data = new Uint8Array(total);
  for (let i = 0; i < length; i++) data.set(parts[i]!, valueOffsets[i]!);
  return makeData({ type: new Binary(), length, nullCount, ...(nullBitmap === null ? {} : { nullBitmap }), valueOffsets, data });
}

/**
 * `length` values (jsonb text for variant, Uint8Array for geometry / geography; null for NULL) → Arrow Data.
 * jsonb NULL and the jsonb value `null` differ: the first is a null group, the second a variant null.
 */
export function v3ArrowColumn(values: readonly unknown[], length: number, t: PrimitiveType, m: Counts, column = ''): Data {
  const nullBitmap = new Uint8Array((length + 7) >> 3);
  let nullCount = 0;
  const empty = new Uint8Array(0);
  const metas: Uint8Array[] = new Array<Uint8Array>(length);
  const vals: Uint8Array[] = new Array<Uint8Array>(length);
  for (let i = 0; i < length; i++) {
    const v = values[i];
    if (v === null || v === undefined) {
      nullCount++;
      metas[i] = empty;
      vals[i] = empty;
      continue;
    }
    nullBitmap[i >> 3]! |= 1 << (i & 7);
    if (t.name === 'variant') {
      if (typeof v !== 'string') throw pgError(SqlState.datatype_mismatch, `expected a jsonb value for Iceberg variant column${column === '' ? '' : ` "${column}"`}`);
      const enc = encodeVariant(readJsonb(v));
      metas[i] = enc.metadata;
      vals[i] = enc.value;
    } else {
      if (!(v instanceof Uint8Array)) throw pgError(SqlState.datatype_mismatch, `expected a bytea value for Iceberg ${t.name} column${column === '' ? '' : ` "${column}"`}`);
      vals[i] = v;
    }
  }
  m.valueCount += length;
  m.nullCount += nullCount;
  const bitmap = nullCount > 0 ? nullBitmap : null;
  if (t.name !== 'variant') return binaryData(vals, length, bitmap, nullCount);
  // the group's children are required: a null group still holds (empty) slots underneath
  const children = [binaryData(metas, length, null, 0), binaryData(vals, length, null, 0)];
  return makeData({ type: variantType(), length, nullCount, ...(bitmap === null ? {} : { nullBitmap: bitmap }), children });
}

/**
 * Variant values inside a struct, list or map written from jsonb (write/nested-column.ts): the nested writer
 * hands each leaf as a parsed JSON value; a variant leaf takes any JSON (object, array, scalar), so it goes
 * back to jsonb text for v3ArrowColumn. A JSON null (or a slot under a null parent) is a null variant group:
 * it reads back as null either way, and a required field's check sees it as NULL.
 */
export function variantLeafValues(values: readonly unknown[]): unknown[] {
  return values.map((v) => (v === undefined || v === null ? null : jsonbToText(v as JsonbValue)));
}
