/**
 * Row lineage on commit (v3, § Row Lineage → First Row ID Assignment, Snapshot Row IDs): the snapshot's
 * `first-row-id` is the table's `next-row-id`; every data manifest of the new manifest list without a
 * `first_row_id` gets one, in list order, each advancing by its added_rows_count + existing_rows_count (the
 * "simple and valid" estimate of the rows that inherit an id); `added-rows` is the total advance and the
 * table's `next-row-id` becomes first-row-id + added-rows. Delete manifests keep a null first_row_id.
 * Reassigned on every commit attempt, from that attempt's metadata.
 */
import type { ManifestFile } from '../spec/manifest-list.ts';
import type { TableMetadata } from '../spec/table-metadata.ts';

export interface RowLineage {
  readonly manifests: ManifestFile[];
  /** snapshot `first-row-id` */
  readonly firstRowId: bigint;
  /** snapshot `added-rows` */
  readonly addedRows: bigint;
  /** table `next-row-id` after the commit */
  readonly nextRowId: bigint;
}

/** null for v1/v2 tables (no row lineage) */
export function assignRowLineage(md: TableMetadata, manifests: readonly ManifestFile[]): RowLineage | null {
  if (md.formatVersion < 3) return null;
  const firstRowId = md.nextRowId ?? 0n;
  let next = firstRowId;
  const out = manifests.map((m): ManifestFile => {
    if (m.content !== 0 || m.firstRowId !== null) return m;
    const assigned = { ...m, firstRowId: next };
    next += (m.addedRowsCount ?? 0n) + (m.existingRowsCount ?? 0n);
    return assigned;
  });
  return { manifests: out, firstRowId, addedRows: next - firstRowId, nextRowId: next };
}

/** the snapshot fields and table field of a v3 commit, to spread into the metadata JSON */
export function lineageSnapshotFields(l: RowLineage | null): Record<string, bigint> {
  return l === null ? {} : { 'first-row-id': l.firstRowId, 'added-rows': l.addedRows };
}
