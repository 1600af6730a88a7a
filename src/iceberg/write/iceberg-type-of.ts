/**
 * PostgreSQL column types → Iceberg primitive types, for CREATE TABLE on an Iceberg namespace.
 * int2/int4 → int, int8 → long, float4 → float, float8 → double, numeric(p,s) → decimal(p,s) (p ≤ 38;
 * numeric without a precision is rejected: Iceberg decimals have a fixed scale and guessing one would
 * silently change values), text/varchar/bpchar/json/jsonb → string, bool → boolean, date, time,
 * timestamp, timestamptz, uuid, bytea → binary, money → long (cents), bit / varbit → string ('0' / '1').
 * Anything else: 0A000 naming the type.
 * Struct and map columns (and lists of them) cannot be spelled as PostgreSQL types: CREATE TABLE gives them
 * in the iceberg_types option (iceberg-types-option.ts); icebergTypeJson writes every kind.
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { Oid, type SqlType } from '../../common/pgtypes/oids.ts';
import { formatType } from '../../common/pgtypes/format-type.ts';
import { elementTypeOf } from '../../common/pgtypes/registry.ts';
import type { IcebergType, PrimitiveType } from '../spec/schema.ts';

const p = (name: string, extra: Partial<PrimitiveType> = {}): PrimitiveType => ({ kind: 'primitive', name, ...extra });

export const MAX_DECIMAL_PRECISION = 38;

export function icebergTypeOf(type: SqlType): PrimitiveType {
  switch (type.oid) {
    case Oid.int2: case Oid.int4: return p('int');
    case Oid.int8: return p('long');
    case Oid.float4: return p('float');
    case Oid.float8: return p('double');
    case Oid.bool: return p('boolean');
    case Oid.text: case Oid.varchar: case Oid.bpchar: case Oid.json: case Oid.jsonb: return p('string');
    case Oid.date: return p('date');
    case Oid.time: return p('time');
    case Oid.timestamp: return p('timestamp');
    case Oid.timestamptz: return p('timestamptz');
    case Oid.uuid: return p('uuid');
    case Oid.bytea: return p('binary');
    // Iceberg has neither: the table property of new-table-metadata.ts (columnTypeProperty) keeps the declared type.
    // money is PostgreSQL's own int64 count of cents (cash.c), so long holds every value exactly and keeps lakegate's
    // values, order, statistics and pushed filters the same; bit strings stay readable as their '0' / '1' text.
    case Oid.money: return p('long');
    case Oid.bit: case Oid.varbit: return p('string');
    case Oid.numeric: {
      if (type.typmod < 4) {
        throw pgError(SqlState.feature_not_supported, 'Iceberg tables do not support numeric without a precision', {
          hint: 'Declare the column as numeric(p, s) with p at most 38.',
        });
      }
      const precision = ((type.typmod - 4) >> 16) & 0xffff;
      const scale = (type.typmod - 4) & 0xffff;
      if (precision > MAX_DECIMAL_PRECISION || scale > precision) {
        throw pgError(SqlState.feature_not_supported, `Iceberg tables do not support type ${formatType(type.oid, type.typmod)}`, {
          hint: 'Iceberg decimals have a precision of at most 38.',
        });
      }
      return p('decimal', { precision, scale });
    }
    default:
      throw pgError(SqlState.feature_not_supported, `Iceberg tables do not support type ${formatType(type.oid, type.typmod)}`);
  }
}

/**
 * A column type: a primitive, or a one-dimensional array of a primitive → list<T> with optional elements.
 * `nextId` hands out the element's field id (after all top-level ids, as Iceberg assigns them).
 */
export function icebergColumnTypeOf(type: SqlType, nextId: () => number): IcebergType {
  const element = elementTypeOf(type.oid);
  if (element === 0 || type.oid === Oid.int2vector || type.oid === Oid.oidvector) return icebergTypeOf(type);
  // read back, list elements carry the Iceberg type's element OID (int8, text), which money / bit would not print as
  if (element === Oid.money || element === Oid.bit || element === Oid.varbit) {
    throw pgError(SqlState.feature_not_supported, `Iceberg tables do not support type ${formatType(type.oid, type.typmod)}`);
  }
  return { kind: 'list', elementId: nextId(), elementRequired: false, element: icebergTypeOf({ oid: element, typmod: type.typmod }) };
}

/** § Appendix C JSON of a column type */
export function icebergTypeJson(t: IcebergType): unknown {
  if (t.kind === 'primitive') return icebergTypeText(t);
  if (t.kind === 'list') return { type: 'list', 'element-id': t.elementId, element: icebergTypeJson(t.element), 'element-required': t.elementRequired };
  if (t.kind === 'map') {
    return { type: 'map', 'key-id': t.keyId, key: icebergTypeJson(t.key), 'value-id': t.valueId, value: icebergTypeJson(t.value), 'value-required': t.valueRequired };
  }
  return {
    type: 'struct',
    fields: t.fields.map((f) => ({ id: f.id, name: f.name, required: f.required, type: icebergTypeJson(f.type), ...(f.doc === undefined ? {} : { doc: f.doc }) })),
  };
}

/** The spec's JSON spelling (§ Appendix C): `decimal(10, 2)`, `int`, `fixed[16]`, … */
export function icebergTypeText(t: PrimitiveType): string {
  if (t.name === 'fixed') return `fixed[${t.length}]`;
  if (t.params !== undefined) return `${t.name}(${t.params})`; // geometry(C), geography(C, A)
  return t.name === 'decimal' ? `decimal(${t.precision}, ${t.scale})` : t.name;
}
