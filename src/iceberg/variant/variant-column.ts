/**
 * One Parquet variant column chunk (Arrow: a struct of binary `metadata` and `value`, and, when shredded,
 * `typed_value`; VariantShredding.md) → jsonb text per row (PostgreSQL's normalized form), null for a null
 * group. The Parquet VARIANT annotation is not required: Iceberg's schema says the column is a variant.
 *
 * Shredding: a primitive `typed_value` (int, float, decimal, date, timestamp, string, binary, uuid…) is
 * used when non-null, else `value` is decoded; both null (invalid at the top level) reads as NULL.
 * Shredded objects and arrays (`typed_value` a group) are 0A000. Malformed variant bytes are XX001 naming
 * the file, the column and the row.
 */
import { makeVector, Type, type Data, type DataType, type Field } from 'apache-arrow';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { float4Out } from '../../common/pgtypes/float-text.ts';
import { jsonbIn } from '../../common/pgtypes/json-text.ts';
import { jsonLeaf, jsonText } from '../spec/json-values.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { DictionaryCache, VariantFormatError, variantValueToJson } from './variant-decode.ts';

/** reads a primitive Arrow chunk as the JS values of an Iceberg primitive type (arrow-values.ts) */
export type PrimitiveReader = (d: Data, t: PrimitiveType) => unknown[];

/** where a chunk comes from, for error messages */
export interface VariantSource {
  readonly uri?: string;
  readonly column?: string;
}

const p = (name: string, extra: Partial<PrimitiveType> = {}): PrimitiveType => ({ kind: 'primitive', name, ...extra });

/** the Iceberg primitive a shredded `typed_value` Arrow type reads as (§ VariantShredding shredded types) */
function shreddedType(t: DataType, where: string): PrimitiveType {
  const x = t as DataType & { bitWidth?: number; precision?: number; scale?: number; unit?: number; timezone?: string | null; byteWidth?: number };
  switch (t.typeId) {
    case Type.Bool: return p('boolean');
    case Type.Int: return (x.bitWidth ?? 32) <= 32 ? p('int') : p('long');
    case Type.Float: return (x.precision ?? 2) === 1 ? p('float') : p('double'); // Precision.SINGLE = 1
    case Type.Decimal: return p('decimal', { precision: x.precision ?? 38, scale: x.scale ?? 0 });
    case Type.Date: return p('date');
    case Type.Time: return p('time');
    case Type.Timestamp: return p(x.timezone ? 'timestamptz' : 'timestamp');
    case Type.Utf8: case Type.LargeUtf8: return p('string');
    case Type.Binary: case Type.LargeBinary: return p('binary');
    case Type.FixedSizeBinary: if (x.byteWidth === 16) return p('uuid'); break;
    case Type.Struct: case Type.List: case Type.LargeList:
      throw pgError(SqlState.feature_not_supported, `shredded variant ${t.typeId === Type.Struct ? 'objects' : 'arrays'} are not supported${where}`, {
        hint: 'Only variants shredded as top-level primitives (typed_value of a primitive type) can be read.',
      });
  }
  throw pgError(SqlState.feature_not_supported, `shredded variant typed_value of type ${String(t)} is not supported${where}`);
}

/** a shredded primitive's JS value → JSON text as the variant decoder prints the same primitive */
function typedJson(t: PrimitiveType, v: unknown): string {
  if (t.name === 'float') return Number.isFinite(v) ? float4Out(v as number) : `"${float4Out(v as number)}"`;
  return jsonText(jsonLeaf(t, v));
}

export function variantColumnValues(d: Data, readPrimitive: PrimitiveReader, source: VariantSource = {}): unknown[] {
  const where = `${source.column === undefined ? '' : ` in column "${source.column}"`}${source.uri === undefined ? '' : ` of file "${source.uri}"`}`;
  const fields = (d.type as DataType & { children?: Field[] }).children;
  if (d.typeId !== Type.Struct || fields === undefined) {
    throw pgError(SqlState.data_corrupted, `could not read Parquet file${source.uri === undefined ? '' : ` "${source.uri}"`}: variant column${source.column === undefined ? '' : ` "${source.column}"`} is ${String(d.type)}, not a group of metadata and value`);
  }
  const child = (name: string): Data | undefined => {
    const k = fields.findIndex((f) => f.name === name);
    return k < 0 ? undefined : d.children[k];
  };
  const metaData = child('metadata');
  const valueData = child('value');
  const typedData = child('typed_value');
  if (metaData === undefined || (valueData === undefined && typedData === undefined)) {
    throw pgError(SqlState.data_corrupted, `could not read Parquet file${source.uri === undefined ? '' : ` "${source.uri}"`}: variant group${source.column === undefined ? '' : ` "${source.column}"`} lacks its metadata or value field`);
  }
  const typedType = typedData === undefined ? null : shreddedType(typedData.type, where);
  const typed = typedData === undefined || typedType === null ? null : readPrimitive(typedData, typedType);
  const meta = makeVector(metaData);
  const value = valueData === undefined ? null : makeVector(valueData);
  const dicts = new DictionaryCache();
  const out = new Array<unknown>(d.length);
  for (let i = 0; i < d.length; i++) {
    if (d.nullCount > 0 && !d.getValid(i)) { out[i] = null; continue; }
    const tv = typed?.[i];
    if (tv !== null && tv !== undefined) { out[i] = jsonbIn(typedJson(typedType!, tv)); continue; }
    const vb = value?.get(i) as Uint8Array | null | undefined;
    if (vb === null || vb === undefined) { out[i] = null; continue; }
    try {
      const mb = meta.get(i) as Uint8Array | null;
      if (mb === null) throw new VariantFormatError('null variant metadata');
      out[i] = jsonbIn(variantValueToJson(vb, dicts.get(mb)));
    } catch (e) {
      if (!(e instanceof VariantFormatError)) throw e;
      throw pgError(SqlState.data_corrupted, `could not read Parquet file${source.uri === undefined ? '' : ` "${source.uri}"`}: malformed variant value${source.column === undefined ? '' : ` in column "${source.column}"`} at row ${i} of the batch: ${e.message}`);
    }
  }
  return out;
}
