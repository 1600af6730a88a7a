/**
 * A shredded variant's `typed_value` of a primitive type (VariantShredding.md § Shredded Value Types): which
 * Iceberg primitive its Arrow type reads as, and the JSON text of one value, printed as the variant decoder
 * prints the same primitive (so shredded and unshredded values read identically).
 */
import { Type, type DataType } from 'apache-arrow';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { float4Out } from '../../common/pgtypes/float-text.ts';
import { jsonLeaf, jsonText } from '../spec/json-values.ts';
import type { PrimitiveType } from '../spec/schema.ts';

const p = (name: string, extra: Partial<PrimitiveType> = {}): PrimitiveType => ({ kind: 'primitive', name, ...extra });

/** the Iceberg primitive a shredded `typed_value` Arrow type reads as (§ VariantShredding shredded types) */
export function shreddedType(t: DataType, where: string): PrimitiveType {
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
  }
  throw pgError(SqlState.feature_not_supported, `shredded variant typed_value of type ${String(t)} is not supported${where}`);
}

/** a shredded primitive's JS value → JSON text as the variant decoder prints the same primitive */
export function typedJson(t: PrimitiveType, v: unknown): string {
  if (t.name === 'float') return Number.isFinite(v) ? float4Out(v as number) : `"${float4Out(v as number)}"`;
  return jsonText(jsonLeaf(t, v));
}
