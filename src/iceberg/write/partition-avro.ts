/**
 * The partition side of a manifest for a partitioned spec: the Avro `partition` record (field 102) built
 * from the spec's result types, as Iceberg Java writes it (optional fields with the partition field ids;
 * date/time/timestamp logical types, decimal as fixed, uuid as fixed[16]), its values, the manifest header
 * `partition-spec` JSON, and the manifest list's field summaries (§ Manifest Lists: contains_null,
 * contains_nan, lower/upper bounds in § Appendix D binary form). Named Avro types get the partition field id
 * in their name: two decimal fields of one type must not redefine the same name.
 */
import type { Numeric } from '../../common/pgtypes/numeric.ts';
import type { FieldSummary } from '../spec/manifest-list.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import type { BoundPartitionField } from '../transforms/partition-path.ts';
import { compareBytes, singleValueBytes, uuidToBytes, bigIntToMinimalBE } from './single-value-bytes.ts';

export interface ManifestPartitioning {
  readonly specId: number;
  readonly fields: readonly BoundPartitionField[];
}

/** bytes Java uses for a decimal(p, s) fixed: the smallest n with 2^(8n-1) > 10^p */
export function decimalRequiredBytes(precision: number): number {
  let n = 1;
  while (2n ** BigInt(8 * n - 1) <= 10n ** BigInt(precision)) n++;
  return n;
}

function avroType(t: PrimitiveType, fieldId: number): unknown {
  switch (t.name) {
    case 'boolean': case 'int': case 'long': case 'float': case 'double': case 'string': return t.name;
    case 'date': return { type: 'int', logicalType: 'date' };
    case 'time': return { type: 'long', logicalType: 'time-micros' };
    case 'timestamp': return { type: 'long', logicalType: 'timestamp-micros', 'adjust-to-utc': false };
    case 'timestamptz': return { type: 'long', logicalType: 'timestamp-micros', 'adjust-to-utc': true };
    case 'uuid': return { type: 'fixed', name: `uuid_fixed_${fieldId}`, size: 16, logicalType: 'uuid' };
    case 'fixed': return { type: 'fixed', name: `fixed_${fieldId}`, size: t.length ?? 0 };
    case 'binary': return 'bytes';
    case 'decimal': return { type: 'fixed', name: `decimal_fixed_${fieldId}`, size: decimalRequiredBytes(t.precision ?? 38), logicalType: 'decimal', precision: t.precision, scale: t.scale };
    default: throw new Error(`no Avro partition type for ${t.name}`);
  }
}

export function partitionRecordSchema(p: ManifestPartitioning): object {
  return {
    type: 'record', name: 'r102',
    fields: p.fields.map((f) => ({ name: f.name, type: ['null', avroType(f.transform.resultType, f.fieldId)], default: null, 'field-id': f.fieldId })),
  };
}

function avroValue(t: PrimitiveType, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (t.name) {
    case 'long': case 'time': case 'timestamp': case 'timestamptz': return BigInt(v as number | bigint);
    case 'uuid': return Buffer.from(uuidToBytes(v as string));
    case 'binary': case 'fixed': return Buffer.from(v as Uint8Array);
    case 'decimal': {
      const size = decimalRequiredBytes(t.precision ?? 38);
      const min = bigIntToMinimalBE((v as Numeric).unscaled);
      const out = Buffer.alloc(size, (min[0]! & 0x80) !== 0 ? 0xff : 0); // sign-extended
      out.set(min, size - min.length);
      return out;
    }
    default: return v;
  }
}

export function partitionRecord(p: ManifestPartitioning, tuple: readonly unknown[]): Record<string, unknown> {
  return Object.fromEntries(p.fields.map((f, i) => [f.name, avroValue(f.transform.resultType, tuple[i])]));
}

/** manifest header `partition-spec`: the spec's fields as JSON */
export function partitionSpecHeader(p: ManifestPartitioning): string {
  return JSON.stringify(p.fields.map((f) => ({ name: f.name, transform: f.transform.text, 'source-id': f.sourceId, 'field-id': f.fieldId })));
}

/** Iceberg's order of two non-null values of type t */
function compareValues(t: PrimitiveType, a: unknown, b: unknown): number {
  switch (t.name) {
    case 'int': case 'date': case 'time': case 'float': case 'double': return (a as number) - (b as number);
    case 'long': case 'timestamp': case 'timestamptz': { const x = BigInt(a as bigint); const y = BigInt(b as bigint); return x < y ? -1 : x > y ? 1 : 0; }
    case 'boolean': return Number(a) - Number(b);
    case 'decimal': { const x = (a as Numeric).unscaled; const y = (b as Numeric).unscaled; return x < y ? -1 : x > y ? 1 : 0; }
    default: return compareBytes(singleValueBytes(t, a), singleValueBytes(t, b));
  }
}

/** one field summary per partition field over the partition tuples of a manifest's files */
export function fieldSummaries(p: ManifestPartitioning, tuples: readonly (readonly unknown[])[]): FieldSummary[] {
  return p.fields.map((f, i) => {
    const t = f.transform.resultType;
    let containsNull = false;
    let containsNan = false;
    let lo: unknown = null;
    let hi: unknown = null;
    for (const tuple of tuples) {
      const v = tuple[i];
      if (v === null || v === undefined) { containsNull = true; continue; }
      if (typeof v === 'number' && Number.isNaN(v)) { containsNan = true; continue; }
      if (lo === null || compareValues(t, v, lo) < 0) lo = v;
      if (hi === null || compareValues(t, v, hi) > 0) hi = v;
    }
    return {
      containsNull, containsNan,
      lowerBound: lo === null ? null : singleValueBytes(t, lo),
      upperBound: hi === null ? null : singleValueBytes(t, hi),
    };
  });
}
