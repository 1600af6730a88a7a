/**
 * Partition tuples of a spec: the bound transforms of each partition field (spec order), the tuple of one
 * row, its key (to group rows by partition) and its path `ts_day=2024-01-02/id_bucket=3` (Java's
 * PartitionSpec.partitionToPath: URL-encoded `name=humanString`, `null` for nulls).
 */
import type { PartitionSpec } from '../spec/partition-spec.ts';
import type { Schema } from '../spec/schema.ts';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { partitionTransform, type PartitionTransform } from './partition-transform.ts';
import { singleValueBytes } from '../write/single-value-bytes.ts';

export interface BoundPartitionField {
  readonly fieldId: number;
  readonly name: string;
  readonly sourceId: number;
  /** position of the source column among the schema's top-level fields */
  readonly sourcePos: number;
  readonly transform: PartitionTransform;
}

export function bindPartitionSpec(spec: PartitionSpec, schema: Schema): BoundPartitionField[] {
  return spec.fields.map((f) => {
    const sourcePos = schema.fields.findIndex((c) => c.id === f.sourceId);
    const src = schema.fields[sourcePos];
    if (src === undefined) throw pgError(SqlState.feature_not_supported, `partition field "${f.name}" has a nested or missing source field ${f.sourceId}`);
    return { fieldId: f.fieldId, name: f.name, sourceId: f.sourceId, sourcePos, transform: partitionTransform(f.transform, src.type) };
  });
}

/** a string key identifying a partition tuple (bounds bytes are exact per value) */
export function partitionKey(fields: readonly BoundPartitionField[], tuple: readonly unknown[]): string {
  return fields.map((f, i) => {
    const v = tuple[i];
    return v === null || v === undefined ? 'N' : 'V' + Buffer.from(singleValueBytes(f.transform.resultType, v)).toString('hex');
  }).join('/');
}

/** java.net.URLEncoder (UTF-8): like encodeURIComponent, but space → `+` and `!'()~` escaped too */
const encode = (s: string): string =>
  encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function partitionPath(fields: readonly BoundPartitionField[], tuple: readonly unknown[]): string {
  return fields.map((f, i) => `${encode(f.name)}=${encode(f.transform.toHumanString(tuple[i] ?? null))}`).join('/');
}
