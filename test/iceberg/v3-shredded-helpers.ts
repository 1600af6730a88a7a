/**
 * Shredded variant files as another engine writes them (Parquet VariantShredding.md), for the v3 variant
 * tests: a layout (primitive typed_value, object of shredded fields, array of shredded elements) and per row
 * a slot tree; every `value` of a row is encoded with that row's one metadata dictionary.
 */
import { Binary, Field, Int32, List, Struct, makeData, type Data, type DataType } from 'apache-arrow';
import { parseJsonb } from '../../src/common/pgtypes/json-text.ts';
import { encodeVariants } from '../../src/iceberg/variant/variant-encode.ts';
import { binary, bitmap, ID, int32Column, parquetOf, type TypedColumn } from './v3-helpers.ts';

/** a shredding layout (VariantShredding.md): a primitive typed_value, an object of shredded fields, or an array */
export type Shredding =
  | { readonly primitive: TypedColumn }
  | { readonly object: Readonly<Record<string, Shredding>> }
  | { readonly array: Shredding };

/**
 * one shredded slot: `value` (JSON text, encoded with the row's metadata; or `raw` bytes) and/or `typed` (by
 * the layout: the primitive, a record of field slots, an array of element slots); an absent slot: both null
 */
export interface Slot {
  readonly value?: string;
  readonly raw?: Uint8Array;
  readonly typed?: unknown;
}

function slotValues(layout: Shredding, slot: Slot | undefined, out: Slot[]): void {
  if (slot === undefined) return;
  if (slot.value !== undefined) out.push(slot);
  if (slot.typed === undefined) return;
  if ('object' in layout) for (const [k, l] of Object.entries(layout.object)) slotValues(l, (slot.typed as Record<string, Slot | undefined>)[k], out);
  if ('array' in layout) for (const e of slot.typed as Slot[]) slotValues(layout.array, e, out);
}

function groupType(layout: Shredding): Struct {
  return new Struct([new Field('value', new Binary(), true), new Field('typed_value', typedType(layout), true)]);
}

function typedType(layout: Shredding): DataType {
  if ('primitive' in layout) return layout.primitive.type;
  if ('object' in layout) return new Struct(Object.entries(layout.object).map(([k, l]) => new Field(k, groupType(l), false)));
  return new List(new Field('element', groupType(layout.array), false));
}

function typedData(layout: Shredding, typed: readonly unknown[], bytes: Map<Slot, Uint8Array>): Data {
  if ('primitive' in layout) return layout.primitive.build(typed);
  const n = typed.length;
  const valid = typed.map((t) => t !== undefined);
  const nulls = valid.filter((v) => !v).length;
  const nullable = nulls > 0 ? { nullBitmap: bitmap(valid) } : {};
  if ('object' in layout) {
    const children = Object.entries(layout.object).map(([k, l]) => groupData(l, typed.map((t) => (t as Record<string, Slot> | undefined)?.[k]), bytes));
    return makeData({ type: typedType(layout) as Struct, length: n, nullCount: nulls, ...nullable, children });
  }
  const offs = new Int32Array(n + 1);
  const elems: Slot[] = [];
  typed.forEach((t, i) => { if (t !== undefined) elems.push(...(t as Slot[])); offs[i + 1] = elems.length; });
  return makeData({ type: typedType(layout) as List, length: n, nullCount: nulls, ...nullable, valueOffsets: offs, child: groupData(layout.array, elems, bytes) });
}

function groupData(layout: Shredding, slots: readonly (Slot | undefined)[], bytes: Map<Slot, Uint8Array>): Data {
  const value = binary(slots.map((s) => (s === undefined ? null : bytes.get(s) ?? s.raw ?? null)));
  return makeData({ type: groupType(layout), length: slots.length, nullCount: 0, children: [value, typedData(layout, slots.map((s) => s?.typed), bytes)] });
}

/** a Parquet file: `id` int (field 1), `v` variant (field 2) shredded by `layout`; a row's slot undefined: NULL */
export function shreddedVariantParquet(rows: readonly { readonly id: number; readonly slot?: Slot }[], layout: Shredding): Uint8Array {
  const bytes = new Map<Slot, Uint8Array>();
  const metas = rows.map((r) => {
    const withValues: Slot[] = [];
    slotValues(layout, r.slot, withValues);
    const enc = encodeVariants(withValues.map((s) => parseJsonb(s.value!)));
    withValues.forEach((s, k) => bytes.set(s, enc.values[k]!));
    return r.slot === undefined ? new Uint8Array(0) : enc.metadata;
  });
  const top = groupData(layout, rows.map((r) => r.slot), bytes);
  const vType = new Struct([new Field('metadata', new Binary(), false), ...groupType(layout).children]);
  const isNull = rows.map((r) => r.slot === undefined);
  const nulls = isNull.filter(Boolean).length;
  const v = makeData({
    type: vType, length: rows.length, nullCount: nulls, ...(nulls > 0 ? { nullBitmap: bitmap(isNull.map((x) => !x)) } : {}),
    children: [binary(metas), ...top.children],
  });
  return parquetOf([
    { field: new Field('id', new Int32(), true, ID(1)), data: int32Column(rows.map((r) => r.id)) },
    { field: new Field('v', vType, true, ID(2)), data: v },
  ]);
}
