/**
 * Shredded variant objects and arrays (Parquet VariantShredding.md) → jsonb text per row. A shredded value is
 * a group of optional `value` (variant bytes, decoded with the row's top-level metadata) and `typed_value`:
 *   - a primitive: the value itself (variant-typed.ts);
 *   - a group (object): one field per shredded key, each itself a group of `value` / `typed_value`; a key's
 *     group with both null is a missing key. A non-null `value` beside it is a partially shredded object:
 *     it must be an object, and holds the other keys (none of the shredded ones);
 *   - a LIST (array) whose element is such a group; an element with both null is invalid.
 * value \ typed_value (§ Value shredding): both null = missing (valid only for object fields; at the top level
 * read as SQL NULL, as for primitives), value only = any variant, typed_value only = the shredded type, both =
 * a partially shredded object. Anything else, and malformed bytes, are XX001 naming the file and the column.
 */
import { makeVector, Type, type Data, type DataType, type Field } from 'apache-arrow';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { escapeJson, jsonbIn } from '../../common/pgtypes/json-text.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { DictionaryCache, VariantFormatError, variantObjectEntries, variantValueToJson } from './variant-decode.ts';
import { shreddedType, typedJson } from './variant-typed.ts';

type PrimitiveReader = (d: Data, t: PrimitiveType) => unknown[];

/** JSON text of slot `i` of one shredded level, undefined = missing; `dict` is the row's metadata dictionary */
type SlotReader = (i: number, dict: readonly string[]) => string | undefined;

/** a shredding rule broken by the file (becomes XX001) */
class ShreddingError extends Error {}

const valid = (d: Data, i: number): boolean => d.nullCount === 0 || d.getValid(i);

function childrenOf(d: Data): { name: string; data: Data }[] {
  const fields = (d.type as DataType & { children?: Field[] }).children ?? [];
  return fields.map((f, k) => ({ name: f.name, data: d.children[k]! }));
}

/** a reader for `typed_value` data (any shredded type) */
function typedReader(typed: Data, readPrimitive: PrimitiveReader, path: string): SlotReader {
  if (typed.typeId === Type.Struct) {
    const fields = childrenOf(typed).map((f) => {
      if (f.data.typeId !== Type.Struct) throw new ShreddingError(`shredded field ${path}.${f.name} is ${String(f.data.type)}, not a group of value and typed_value`);
      return { name: f.name, read: groupReader(f.data, readPrimitive, `${path}.${f.name}`) };
    });
    return (i, dict) => {
      if (!valid(typed, i)) return undefined;
      const parts: string[] = [];
      for (const f of fields) {
        const v = f.read(i, dict);
        if (v !== undefined) parts.push(`${escapeJson(f.name)}:${v}`);
      }
      return `{${parts.join(',')}}`;
    };
  }
  if (typed.typeId === Type.List || typed.typeId === Type.LargeList) {
    const elem = typed.children[0]!;
    if (elem.typeId !== Type.Struct) throw new ShreddingError(`shredded array ${path} has elements of ${String(elem.type)}, not groups of value and typed_value`);
    const read = groupReader(elem, readPrimitive, `${path}[]`);
    const offsets = typed.valueOffsets as Int32Array | BigInt64Array;
    return (i, dict) => {
      if (!valid(typed, i)) return undefined;
      const parts: string[] = [];
      for (let j = Number(offsets[i]!); j < Number(offsets[i + 1]!); j++) {
        const v = read(j, dict);
        if (v === undefined) throw new ShreddingError(`element ${j - Number(offsets[i]!)} of shredded array ${path} has neither value nor typed_value`);
        parts.push(v);
      }
      return `[${parts.join(',')}]`;
    };
  }
  const t = shreddedType(typed.type, ` at ${path}`);
  const values = readPrimitive(typed, t);
  return (i) => {
    const v = values[i];
    return v === null || v === undefined ? undefined : typedJson(t, v);
  };
}

/** a reader for one shredded group (`value` and/or `typed_value`) */
function groupReader(group: Data, readPrimitive: PrimitiveReader, path: string): SlotReader {
  const kids = childrenOf(group);
  const valueData = kids.find((k) => k.name === 'value')?.data;
  const typedData = kids.find((k) => k.name === 'typed_value')?.data;
  if (valueData === undefined && typedData === undefined) throw new ShreddingError(`shredded group ${path} has neither value nor typed_value`);
  const value = valueData === undefined ? null : makeVector(valueData);
  const typed = typedData === undefined ? null : typedReader(typedData, readPrimitive, path);
  const isObject = typedData?.typeId === Type.Struct;
  return (i, dict) => {
    if (!valid(group, i)) return undefined;
    const vb = value?.get(i) as Uint8Array | null | undefined;
    const tv = typed?.(i, dict);
    if (tv === undefined) return vb === null || vb === undefined ? undefined : variantValueToJson(vb, dict);
    if (vb === null || vb === undefined) return tv;
    if (!isObject) throw new ShreddingError(`${path} has both value and a non-object typed_value`);
    // partially shredded object: the other keys are in `value`
    const rest = variantObjectEntries(vb, dict);
    if (rest === null) throw new ShreddingError(`${path} is a partially shredded object whose value is not an object`);
    const shredded = new Set(childrenOf(typedData!).map((f) => f.name));
    const extra = rest.map(([k, v]) => {
      if (shredded.has(k)) throw new ShreddingError(`${path} has key "${k}" both shredded and in its value`);
      return `${escapeJson(k)}:${v}`;
    });
    return extra.length === 0 ? tv : tv === '{}' ? `{${extra.join(',')}}` : `${tv.slice(0, -1)},${extra.join(',')}}`;
  };
}

/** a top-level variant group whose `typed_value` is an object or array → jsonb text per row (NULL: null group or nothing) */
export function shreddedVariantValues(d: Data, metaData: Data, readPrimitive: PrimitiveReader, source: { readonly uri?: string; readonly column?: string }): unknown[] {
  const file = source.uri === undefined ? '' : ` "${source.uri}"`;
  const column = source.column ?? 'variant';
  const out = new Array<unknown>(d.length);
  let i = 0;
  try {
    const read = groupReader(d, readPrimitive, column);
    const meta = makeVector(metaData);
    const dicts = new DictionaryCache();
    for (; i < d.length; i++) {
      if (!valid(d, i)) { out[i] = null; continue; }
      const mb = meta.get(i) as Uint8Array | null;
      if (mb === null) throw new VariantFormatError('null variant metadata');
      const text = read(i, dicts.get(mb));
      out[i] = text === undefined ? null : jsonbIn(text);
    }
  } catch (e) {
    if (!(e instanceof VariantFormatError || e instanceof ShreddingError)) throw e;
    throw pgError(SqlState.data_corrupted, `could not read Parquet file${file}: malformed shredded variant in column "${column}" at row ${i} of the batch: ${e.message}`);
  }
  return out;
}
