/**
 * Partition specs and sort orders (§ Partition Specs, § Sort Orders). Transforms are only parsed here:
 * reading takes partition values from the manifests, so no transform is evaluated.
 */
import type { IcebergType, Schema } from './schema.ts';
import { indexById } from './schema.ts';

export interface PartitionField {
  readonly sourceId: number;
  /** v3 multi-argument transforms */
  readonly sourceIds?: readonly number[];
  readonly fieldId: number;
  readonly name: string;
  /** as written: identity, bucket[N], truncate[W], year, month, day, hour, void, or unknown ones */
  readonly transform: string;
}
export interface PartitionSpec {
  readonly specId: number;
  readonly fields: readonly PartitionField[];
}
export interface SortField {
  readonly sourceId: number;
  readonly transform: string;
  readonly direction: 'asc' | 'desc';
  readonly nullOrder: 'nulls-first' | 'nulls-last';
}
export interface SortOrder {
  readonly orderId: number;
  readonly fields: readonly SortField[];
}

type Json = Record<string, unknown>;

/** `fields` may be a bare v1 list; then field ids start at 1000 when absent (§ Appendix E). */
export function parsePartitionSpec(json: unknown, defaultSpecId = 0): PartitionSpec {
  const o = Array.isArray(json) ? { 'spec-id': defaultSpecId, fields: json } : (json as Json);
  const fields = ((o['fields'] as unknown[]) ?? []).map((f, i): PartitionField => {
    const p = f as Json;
    const field: { -readonly [K in keyof PartitionField]: PartitionField[K] } = {
      sourceId: Number(p['source-id'] ?? (p['source-ids'] as unknown[] | undefined)?.[0]),
      fieldId: p['field-id'] === undefined ? 1000 + i : Number(p['field-id']),
      name: String(p['name']),
      transform: String(p['transform']),
    };
    if (Array.isArray(p['source-ids'])) field.sourceIds = p['source-ids'].map(Number);
    return field;
  });
  return { specId: Number(o['spec-id'] ?? defaultSpecId), fields };
}

export function parseSortOrder(json: unknown): SortOrder {
  const o = json as Json;
  return {
    orderId: Number(o['order-id'] ?? 0),
    fields: ((o['fields'] as unknown[]) ?? []).map((f) => {
      const s = f as Json;
      return {
        sourceId: Number(s['source-id']),
        transform: String(s['transform']),
        direction: s['direction'] === 'desc' ? 'desc' : 'asc',
        nullOrder: s['null-order'] === 'nulls-last' ? 'nulls-last' : 'nulls-first',
      } as const;
    }),
  };
}

/** A spec is unpartitioned when it has no fields or only void transforms (a v1 dropped field). */
export function isUnpartitioned(spec: PartitionSpec): boolean {
  return spec.fields.every((f) => f.transform === 'void');
}

/**
 * The Iceberg type of a partition field's value (§ Partition Transforms, "Result type"):
 * identity/truncate/void keep the source type, bucket/year/month/hour give int, day gives date.
 */
export function partitionResultType(field: PartitionField, schema: Schema): IcebergType {
  const t = field.transform;
  if (t.startsWith('bucket') || t === 'year' || t === 'month' || t === 'hour') return { kind: 'primitive', name: 'int' };
  if (t === 'day') return { kind: 'primitive', name: 'date' };
  const source = indexById(schema).get(field.sourceId);
  return source?.type ?? { kind: 'primitive', name: 'unknown' };
}
