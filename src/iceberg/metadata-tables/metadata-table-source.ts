/**
 * MetadataTableSource: a read-only TableSource over one Iceberg table's metadata — Trino's
 * `"t$snapshots"`, `"t$history"`, `"t$manifests"`, `"t$files"`, `"t$entries"`, `"t$partitions"`, `"t$refs"`,
 * `"t$metadata_log_entries"`, `"t$properties"`. Rows are computed at scan time from the metadata the base
 * IcebergTableSource is pinned to (the one the statement bound to). Snapshot-scoped kinds ($manifests,
 * $files, $entries, $partitions) follow the base's snapshot, so `FOR SYSTEM_VERSION AS OF` works on them.
 */
import type { ColumnDef, ScanContext, TableSource } from '../../catalog/table-source.ts';
import { batchFromRows, type Batch } from '../../common/batch.ts';
import type { IcebergTableSource } from '../iceberg-table-source.ts';
import {
  HISTORY_COLUMNS, METADATA_LOG_COLUMNS, PROPERTIES_COLUMNS, REFS_COLUMNS, SNAPSHOTS_COLUMNS,
  historyRows, metadataLogRows, propertiesRows, refsRows, snapshotsRows,
} from './snapshot-tables.ts';
import {
  ENTRIES_COLUMNS, FILES_COLUMNS, MANIFESTS_COLUMNS, PARTITIONS_COLUMNS,
  entriesRows, filesRows, manifestsRows, partitionsRows,
} from './file-tables.ts';

export const METADATA_TABLE_KINDS = [
  'snapshots', 'history', 'manifests', 'files', 'entries', 'partitions', 'refs', 'metadata_log_entries', 'properties',
] as const;
export type MetadataTableKind = (typeof METADATA_TABLE_KINDS)[number];

export function isMetadataTableKind(k: string): k is MetadataTableKind {
  return (METADATA_TABLE_KINDS as readonly string[]).includes(k);
}

/** `orders$files` → { base: 'orders', kind: 'files' }; null when the name has no `$<known kind>` suffix */
export function splitMetadataTableName(name: string): { base: string; kind: MetadataTableKind } | null {
  const at = name.lastIndexOf('$');
  if (at <= 0) return null;
  const kind = name.slice(at + 1);
  return isMetadataTableKind(kind) ? { base: name.slice(0, at), kind } : null;
}

const SNAPSHOT_SCOPED: ReadonlySet<MetadataTableKind> = new Set(['manifests', 'files', 'entries', 'partitions']);

const COLUMNS: Readonly<Record<MetadataTableKind, readonly ColumnDef[]>> = {
  snapshots: SNAPSHOTS_COLUMNS, history: HISTORY_COLUMNS, manifests: MANIFESTS_COLUMNS, files: FILES_COLUMNS,
  entries: ENTRIES_COLUMNS, partitions: PARTITIONS_COLUMNS, refs: REFS_COLUMNS,
  metadata_log_entries: METADATA_LOG_COLUMNS, properties: PROPERTIES_COLUMNS,
};

export class MetadataTableSource implements TableSource {
  readonly columns: readonly ColumnDef[];
  readonly at?: (asOf: string) => TableSource;

  constructor(
    readonly kind: MetadataTableKind,
    readonly base: IcebergTableSource,
    /** the base table's current metadata file, for $metadata_log_entries' last row */
    readonly metadataLocation: string | null = null,
  ) {
    this.columns = COLUMNS[kind];
    if (SNAPSHOT_SCOPED.has(kind)) this.at = (asOf) => new MetadataTableSource(kind, base.at(asOf), metadataLocation);
  }

  async rows(): Promise<unknown[][]> {
    const { io, metadata: md, snapshot } = this.base;
    switch (this.kind) {
      case 'snapshots': return snapshotsRows(md);
      case 'history': return historyRows(md);
      case 'refs': return refsRows(md);
      case 'metadata_log_entries': return metadataLogRows(md, this.metadataLocation);
      case 'properties': return propertiesRows(md);
      case 'manifests': return manifestsRows(io, md, snapshot);
      case 'files': return filesRows(io, md, snapshot);
      case 'entries': return entriesRows(io, md, snapshot);
      case 'partitions': return partitionsRows(io, md, snapshot);
    }
  }

  async *scan(ctx: Pick<ScanContext, 'signal'>): AsyncIterable<Batch> {
    ctx.signal.throwIfAborted();
    const rows = await this.rows();
    if (rows.length > 0) yield batchFromRows(rows, this.columns.length);
  }
}
