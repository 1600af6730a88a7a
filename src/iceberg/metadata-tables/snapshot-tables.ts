/**
 * Metadata tables computed from table metadata JSON alone (no manifest reads), as Trino's Iceberg
 * connector names them: $snapshots, $history, $refs, $metadata_log_entries, $properties.
 * Trino's map(varchar, varchar) `summary` is jsonb here (lakegate has no map type).
 */
import type { ColumnDef } from '../../catalog/table-source.ts';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import type { TableMetadata } from '../spec/table-metadata.ts';
import { toJsonb } from '../spec/json-values.ts';

export const col = (name: string, oid: number, nullable = true): ColumnDef => ({ name, type: sqlType(oid), nullable });
const micros = (ms: bigint): bigint => ms * 1000n;

export const SNAPSHOTS_COLUMNS: readonly ColumnDef[] = [
  col('committed_at', Oid.timestamptz, false), col('snapshot_id', Oid.int8, false), col('parent_id', Oid.int8),
  col('operation', Oid.text), col('manifest_list', Oid.text), col('summary', Oid.jsonb),
];

export function snapshotsRows(md: TableMetadata): unknown[][] {
  return md.snapshots.map((s) => {
    const { operation, ...rest } = s.summary;
    return [micros(s.timestampMs), s.snapshotId, s.parentSnapshotId, operation ?? null, s.manifestList, toJsonb({ ...(operation === undefined ? {} : { operation }), ...rest })];
  });
}

export const HISTORY_COLUMNS: readonly ColumnDef[] = [
  col('made_current_at', Oid.timestamptz, false), col('snapshot_id', Oid.int8, false), col('parent_id', Oid.int8),
  col('is_current_ancestor', Oid.bool, false),
];

/** The current snapshot and its parents, newest first (SnapshotUtil.currentAncestorIds). */
export function currentAncestors(md: TableMetadata): Set<bigint> {
  return ancestorsOf(md, md.currentSnapshotId);
}

export function ancestorsOf(md: TableMetadata, start: bigint | null): Set<bigint> {
  const byId = new Map(md.snapshots.map((s) => [s.snapshotId, s]));
  const out = new Set<bigint>();
  for (let id = start; id !== null && !out.has(id); id = byId.get(id)?.parentSnapshotId ?? null) {
    if (!byId.has(id)) break;
    out.add(id);
  }
  return out;
}

export function historyRows(md: TableMetadata): unknown[][] {
  const ancestors = currentAncestors(md);
  const parent = new Map(md.snapshots.map((s) => [s.snapshotId, s.parentSnapshotId]));
  return md.snapshotLog.map((e) => [micros(e.timestampMs), e.snapshotId, parent.get(e.snapshotId) ?? null, ancestors.has(e.snapshotId)]);
}

export const REFS_COLUMNS: readonly ColumnDef[] = [
  col('name', Oid.text, false), col('type', Oid.text, false), col('snapshot_id', Oid.int8, false),
  col('max_reference_age_in_ms', Oid.int8), col('min_snapshots_to_keep', Oid.int4), col('max_snapshot_age_in_ms', Oid.int8),
];

export function refsRows(md: TableMetadata): unknown[][] {
  return [...md.refs].map(([name, r]) => [name, r.type.toUpperCase(), r.snapshotId, r.maxRefAgeMs ?? null, r.minSnapshotsToKeep ?? null, r.maxSnapshotAgeMs ?? null]);
}

export const METADATA_LOG_COLUMNS: readonly ColumnDef[] = [
  col('timestamp', Oid.timestamptz, false), col('file', Oid.text, false), col('latest_snapshot_id', Oid.int8),
  col('latest_schema_id', Oid.int4), col('latest_sequence_number', Oid.int8),
];

/** Previous metadata files (metadata-log) plus the current one; snapshot columns only for the current file. */
export function metadataLogRows(md: TableMetadata, currentFile: string | null): unknown[][] {
  const rows: unknown[][] = md.metadataLog.map((e) => [micros(e.timestampMs), e.metadataFile, null, null, null]);
  if (currentFile !== null) {
    const snap = md.snapshots.find((s) => s.snapshotId === md.currentSnapshotId);
    rows.push([micros(md.lastUpdatedMs), currentFile, md.currentSnapshotId, snap?.schemaId ?? md.currentSchemaId, snap?.sequenceNumber ?? null]);
  }
  return rows;
}

export const PROPERTIES_COLUMNS: readonly ColumnDef[] = [col('key', Oid.text, false), col('value', Oid.text)];

export function propertiesRows(md: TableMetadata): unknown[][] {
  return Object.entries(md.properties).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
