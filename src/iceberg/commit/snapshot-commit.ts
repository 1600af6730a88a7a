/**
 * The tail of every snapshot-producing commit (§ Optimistic Concurrency): write the manifest list, then
 * table metadata V+1 (new snapshot, snapshot-log, metadata-log, refs.main, last-sequence-number) with
 * writeIfAbsent, then the catalog's compare-and-swap. A lost race is 40001, which the caller's retry
 * loop (withCommitRetries) turns into a reload and another attempt. v3 tables also get row lineage
 * (row-lineage.ts): manifest first_row_id, snapshot first-row-id / added-rows, table next-row-id.
 */
import { randomUUID } from 'node:crypto';
import type { IcebergCatalog, TableIdentifier } from '../../catalog/iceberg/index.ts';
import { nextMetadataFileLocation } from '../../catalog/iceberg/warehouse-layout.ts';
import { GatewayError, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { ManifestFile } from '../spec/manifest-list.ts';
import type { Snapshot, TableMetadata } from '../spec/table-metadata.ts';
import { writeManifestList } from '../write/manifest-writer.ts';
import type { IcebergWriteIO } from '../write/write-io.ts';
import { DEFAULT_COMMIT_RETRIES, metadataDir } from './append-commit.ts';
import { writeMetadataFile } from './metadata-json.ts';
import { commitFault } from './commit-faults.ts';
import { catalogSwap, retryDelayMs } from './swap-retry.ts';
import { assignRowLineage, lineageSnapshotFields } from './row-lineage.ts';

export interface NewSnapshot {
  readonly snapshotId: bigint;
  readonly sequenceNumber: bigint;
  readonly parent: Snapshot | null;
  readonly manifests: readonly ManifestFile[];
  readonly summary: Readonly<Record<string, string>>;
  readonly schemaId: number;
}

/** 40001s that another attempt cannot fix (a validated conflict, not a lost race): no retry */
const finalFailures = new WeakSet<GatewayError>();

/** 40001; `final` for a conflict found by validation, which retrying would only find again */
export function serializationFailure(detail?: string, final = false): GatewayError {
  const e = pgError(SqlState.serialization_failure, 'could not serialize access due to concurrent update', detail === undefined ? {} : { detail });
  if (final) finalFailures.add(e);
  return e;
}

/**
 * 23505s found at commit on a table that moved since the statement read it: the key may be a concurrent
 * commit's, so an autocommit statement re-run on the new snapshot may answer differently (ON CONFLICT takes
 * its conflict branch: engine/autocommit-retry.ts)
 */
const keyRaces = new WeakSet<object>();

/** marks `e` (when an Error) as a key violation found on a moved table; returns it */
export function markKeyRaced(e: unknown): unknown {
  if (typeof e === 'object' && e !== null) keyRaces.add(e);
  return e;
}

export function keyRaced(e: object): boolean {
  return keyRaces.has(e);
}

/** writes the manifest list and metadata V+1, then swaps the catalog pointer from `baseLocation` */
export async function commitSnapshot(catalog: IcebergCatalog, io: IcebergWriteIO, id: TableIdentifier, baseLocation: string, md: TableMetadata, s: NewSnapshot, attempt: number): Promise<string> {
  const dir = metadataDir(md);
  const listPath = `${dir}/snap-${s.snapshotId}-${attempt + 1}-${randomUUID()}.avro`;
  const lineage = assignRowLineage(md, s.manifests);
  await io.write(listPath, writeManifestList(lineage?.manifests ?? s.manifests, s.snapshotId, s.parent?.snapshotId ?? null, s.sequenceNumber, lineage?.firstRowId ?? null));
  const now = BigInt(Math.max(Date.now(), Number(md.lastUpdatedMs) + 1));
  const raw = md.raw as Record<string, unknown>;
  const snapshot = {
    'snapshot-id': s.snapshotId,
    ...(s.parent === null ? {} : { 'parent-snapshot-id': s.parent.snapshotId }),
    'sequence-number': s.sequenceNumber,
    'timestamp-ms': now,
    'manifest-list': listPath,
    summary: s.summary,
    'schema-id': s.schemaId,
    ...lineageSnapshotFields(lineage),
  };
  const doc: Record<string, unknown> = {
    ...raw,
    ...(lineage === null ? {} : { 'next-row-id': lineage.nextRowId }),
    'last-sequence-number': s.sequenceNumber,
    'last-updated-ms': now,
    'current-snapshot-id': s.snapshotId,
    snapshots: [...((raw['snapshots'] as unknown[] | undefined) ?? []), snapshot],
    'snapshot-log': [...((raw['snapshot-log'] as unknown[] | undefined) ?? []), { 'timestamp-ms': now, 'snapshot-id': s.snapshotId }],
    'metadata-log': [...((raw['metadata-log'] as unknown[] | undefined) ?? []), { 'timestamp-ms': md.lastUpdatedMs, 'metadata-file': baseLocation }],
    refs: { ...((raw['refs'] as Record<string, unknown> | undefined) ?? {}), main: { 'snapshot-id': s.snapshotId, type: 'branch' } },
  };
  const metadataLocation = nextMetadataFileLocation(md.location, baseLocation, md.properties['write.metadata.path'] === undefined ? {} : { metadataPath: md.properties['write.metadata.path'] });
  if (!(await writeMetadataFile(io, metadataLocation, doc))) throw serializationFailure();
  commitFault('before-catalog-commit');
  await catalogSwap(catalog, id, baseLocation, metadataLocation);
  commitFault('after-catalog-commit');
  return metadataLocation;
}

/** runs `attempt` until it succeeds; 40001 → jittered backoff and another attempt, up to `maxRetries` */
export async function withCommitRetries<T>(attempt: (n: number) => Promise<T>, maxRetries = DEFAULT_COMMIT_RETRIES): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (e) {
      if (!(e instanceof GatewayError && e.code === SqlState.serialization_failure) || finalFailures.has(e) || n >= maxRetries) throw e;
      const ms = retryDelayMs(n, e);
      if (ms > 0) await new Promise((r) => setTimeout(r, ms));
    }
  }
}
