/**
 * One Parquet variant column chunk (Arrow: a struct of binary `metadata` and `value`, and, when shredded,
 * `typed_value`; VariantShredding.md) → jsonb text per row (PostgreSQL's normalized form), null for a null
 * group. The Parquet VARIANT annotation is not required: Iceberg's schema says the column is a variant.
 *
 * Shredding: a primitive `typed_value` (int, float, decimal, date, timestamp, string, binary, uuid…) is
 * used when non-null, else `value` is decoded; both null (invalid at the top level) reads as NULL.
 * Shredded objects and arrays (`typed_value` a group or a list) are read by variant-shredded.ts. Malformed
 * variant bytes are XX001 naming the file, the column and the row.
 */
import { makeVector, Type, type Data, type DataType, type Field } from 'apache-arrow';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { jsonbIn } from '../../common/pgtypes/json-text.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { DictionaryCache, VariantFormatError, variantValueToJson } from './variant-decode.ts';
import { shreddedType, typedJson } from './variant-typed.ts';
import { shreddedVariantValues } from './variant-shredded.ts';

/** reads a primitive Arrow chunk as the JS values of an Iceberg primitive type (arrow-values.ts) */
export type PrimitiveReader = (d: Data, t: PrimitiveType) => unknown[];

/** where a chunk comes from, for error messages */
export interface VariantSource {
  readonly uri?: string;
  readonly column?: string;
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
  if (typedData !== undefined && (typedData.typeId === Type.Struct || typedData.typeId === Type.List || typedData.typeId === Type.LargeList)) {
    return shreddedVariantValues(d, metaData, readPrimitive, source);
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
