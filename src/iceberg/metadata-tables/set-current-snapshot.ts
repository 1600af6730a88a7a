/**
 * Spark's `rollback_to_snapshot` and `set_current_snapshot` procedures as one metadata change
 * (Iceberg Java SetSnapshotOperation / TableMetadata.Builder.setBranchSnapshot): a new metadata file that is
 * the current one with `current-snapshot-id`, `refs.main`, `snapshot-log`, `metadata-log` and
 * `last-updated-ms` updated, then a compare-and-swap of the catalog pointer (40001 when another writer
 * moved it first). The document is re-parsed with lossless-json so every other field, number and key order
 * is written back exactly as read (snapshot ids exceed 2^53).
 */
import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { LosslessNumber, parse, stringify } from 'lossless-json';
import { notSupported, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { IcebergIO } from '../io.ts';
import { parseTableMetadata } from '../spec/table-metadata.ts';
import { metadataFileVersion } from '../spec/metadata-file.ts';
import { ancestorsOf } from './snapshot-tables.ts';

/** The part of catalog/iceberg's IcebergCatalog this needs (structural: iceberg/ does not import catalog/). */
export interface MetadataPointerStore {
  loadTableLocation(id: { readonly namespace: readonly string[]; readonly name: string }): Promise<{ readonly metadataLocation: string }>;
  commitTable(id: { readonly namespace: readonly string[]; readonly name: string }, expectedMetadataLocation: string, newMetadataLocation: string): Promise<void>;
}

export interface SetCurrentSnapshotRequest {
  readonly io: IcebergIO;
  readonly catalog: MetadataPointerStore;
  readonly table: { readonly namespace: readonly string[]; readonly name: string };
  readonly snapshotId: bigint;
  /** rollback_to_snapshot: the snapshot must be an ancestor of the current one */
  readonly requireAncestor: boolean;
  readonly nowMs?: bigint;
}

export interface SetCurrentSnapshotResult {
  readonly previousSnapshotId: bigint | null;
  readonly currentSnapshotId: bigint;
  /** null when the snapshot already was current (nothing written) */
  readonly metadataLocation: string | null;
}

type Json = Record<string, unknown>;
const num = (v: bigint): LosslessNumber => new LosslessNumber(String(v));
const DEFAULT_PREVIOUS_VERSIONS_MAX = 100;

/**
 * `<dir of current>/<version+1, %05d>-<uuid>.metadata.json` (catalog/iceberg/warehouse-layout.ts naming,
 * BaseMetastoreTableOperations.newTableMetadataFilePath). The current file's folder is kept, so relocated
 * tables (path maps) and `write.metadata.path` keep working.
 */
export function nextMetadataFile(currentMetadataLocation: string): string {
  const slash = currentMetadataLocation.lastIndexOf('/');
  const dir = slash < 0 ? '.' : currentMetadataLocation.slice(0, slash);
  const version = (metadataFileVersion(currentMetadataLocation.slice(slash + 1)) ?? 0) + 1;
  return `${dir}/${String(version).padStart(5, '0')}-${randomUUID()}.metadata.json`;
}

export async function setCurrentSnapshot(req: SetCurrentSnapshotRequest): Promise<SetCurrentSnapshotResult> {
  const { io, catalog, table, snapshotId } = req;
  const { metadataLocation } = await catalog.loadTableLocation(table);
  let bytes = await io.read(metadataLocation);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  const text = new TextDecoder().decode(bytes);
  const md = parseTableMetadata(text);
  const name = `${table.namespace.join('.')}.${table.name}`;

  if (!md.snapshots.some((s) => s.snapshotId === snapshotId)) {
    throw pgError(SqlState.invalid_parameter_value, `Cannot roll back to unknown snapshot id: ${snapshotId}`, {
      detail: `Table ${name} has snapshots ${md.snapshots.map((s) => String(s.snapshotId)).join(', ') || '(none)'}.`,
    });
  }
  if (req.requireAncestor && !ancestorsOf(md, md.currentSnapshotId).has(snapshotId)) {
    throw pgError(SqlState.invalid_parameter_value, `Cannot roll back to snapshot, not an ancestor of the current state: ${snapshotId}`, {
      hint: 'Use CALL system.set_current_snapshot to make a snapshot that is not an ancestor current.',
    });
  }
  if (md.currentSnapshotId === snapshotId) return { previousSnapshotId: snapshotId, currentSnapshotId: snapshotId, metadataLocation: null };

  const doc = parse(text) as Json;
  const now = req.nowMs ?? BigInt(Date.now());
  const updatedMs = now > md.lastUpdatedMs ? now : md.lastUpdatedMs;
  const refs = (doc['refs'] as Json | undefined) ?? {};
  refs['main'] = { ...((refs['main'] as Json | undefined) ?? {}), 'snapshot-id': num(snapshotId), type: 'branch' };
  const snapshotLog = [...((doc['snapshot-log'] as unknown[] | undefined) ?? []), { 'timestamp-ms': num(updatedMs), 'snapshot-id': num(snapshotId) }];
  const max = Number(md.properties['write.metadata.previous-versions-max'] ?? DEFAULT_PREVIOUS_VERSIONS_MAX);
  const metadataLog = [...((doc['metadata-log'] as unknown[] | undefined) ?? []), { 'timestamp-ms': num(md.lastUpdatedMs), 'metadata-file': metadataLocation }];
  doc['last-updated-ms'] = num(updatedMs);
  doc['current-snapshot-id'] = num(snapshotId);
  doc['refs'] = refs;
  doc['snapshot-log'] = snapshotLog;
  doc['metadata-log'] = metadataLog.slice(Math.max(0, metadataLog.length - Math.max(1, max)));

  if (io.writeIfAbsent === undefined) throw notSupported(`writing Iceberg metadata through this file access (table ${name})`);
  const next = nextMetadataFile(metadataLocation);
  const out = stringify(doc, null, 2) ?? '';
  if (!(await io.writeIfAbsent(next, new TextEncoder().encode(out)))) {
    throw pgError(SqlState.serialization_failure, 'could not serialize access due to concurrent update', { detail: `metadata file ${next} already exists` });
  }
  await catalog.commitTable(table, metadataLocation, next);
  return { previousSnapshotId: md.currentSnapshotId, currentSnapshotId: snapshotId, metadataLocation: next };
}
