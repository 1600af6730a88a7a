/**
 * An append commit (§ Optimistic Concurrency): data files already written → one manifest (written once,
 * entries inherit snapshot id and sequence numbers) → per attempt: reload the current metadata, a manifest
 * list = new manifest + the current snapshot's manifests, a new metadata file (V+1, writeIfAbsent) with the
 * new snapshot, snapshot-log, metadata-log, refs.main and last-sequence-number, then the catalog's
 * compare-and-swap. A lost race (40001, or another writer's V+1 file name) reloads and retries: appends
 * never conflict, but the schema must be unchanged. Nothing is visible before the swap; a failure
 * leaves only unreferenced files. v3 tables: v3 manifests and row lineage (row-lineage.ts).
 * An append that lost a race takes the table's *append* turn (commit-turns.ts) for its next attempts, and every
 * append first waits while another append holds it: PostgreSQL never fails a plain INSERT for a concurrent
 * one, and without a queue a writer among many in this process could lose every attempt (8 sessions × 20
 * INSERTs: 17 of 160 got 40001). Appends queue apart from row deltas' turns (appendTurn): an INSERT never
 * waits for an UPDATE's re-run, which may take as long as its scan (PostgreSQL's INSERT takes no row lock).
 * Writes staged in a transaction block take no turn.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IcebergCatalog, TableIdentifier } from '../../catalog/iceberg/index.ts';
import { nextMetadataFileLocation, stripTrailingSlash } from '../../catalog/iceberg/warehouse-layout.ts';
import { GatewayError, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { loadTableMetadata } from '../spec/metadata-file.ts';
import { readManifestList, type ManifestFile } from '../spec/manifest-list.ts';
import { findSnapshot, type TableMetadata } from '../spec/table-metadata.ts';
import type { Schema } from '../spec/schema.ts';
import type { DataFileInfo } from '../write/parquet-data-writer.ts';
import { writeDataManifest, writeManifestList } from '../write/manifest-writer.ts';
import { fieldSummaries, type ManifestPartitioning } from '../write/partition-avro.ts';
import { partitionKey } from '../transforms/partition-path.ts';
import type { IcebergWriteIO } from '../write/write-io.ts';
import { writeMetadataFile } from './metadata-json.ts';
import { commitFault } from './commit-faults.ts';
import { catalogSwap, retryDelayMs } from './swap-retry.ts';
import { assignRowLineage, lineageSnapshotFields } from './row-lineage.ts';
import { awaitTurn, isStagingCatalog, takeTurn } from './commit-turns.ts';
import { verifiedKeysSummary } from '../keys/verified-keys.ts';

export const DEFAULT_COMMIT_RETRIES = 8;

/** the turn appends to a table queue on (apart from the row deltas' turn, keyed by the bare table-uuid) */
/** the key of a table's append turn in commit-turns.ts (apart from its row deltas' turn) */
export const appendTurn = (tableUuid: string): string => `append\u0000${tableUuid}`;

export interface AppendResult {
  readonly metadataLocation: string;
  readonly snapshotId: bigint;
  readonly sequenceNumber: bigint;
}

export interface AppendOptions {
  readonly maxRetries?: number;
  readonly engineVersion?: string;
  /** the spec the files were written with; each file then carries its `partition` tuple */
  readonly partitioning?: ManifestPartitioning;
  /**
   * runs on every attempt before the snapshot is built, on the metadata it is built on (PRIMARY KEY / UNIQUE:
   * keys/key-check.ts, which reads again only when the table moved); its error fails the append
   */
  readonly validate?: (md: TableMetadata) => Promise<void>;
  /** the statement's abort signal: a cancel / statement_timeout ends a wait for the table's append turn (57014) */
  readonly signal?: AbortSignal;
}

/** a random positive 63-bit id, as Java's SnapshotIdGeneratorUtil */
export function newSnapshotId(): bigint {
  return randomBytes(8).readBigUInt64BE() & 0x7fffffffffffffffn;
}

export function metadataDir(md: TableMetadata): string {
  return stripTrailingSlash(md.properties['write.metadata.path'] ?? `${stripTrailingSlash(md.location)}/metadata`);
}

const num = (s: string | undefined): bigint => (s !== undefined && /^\d+$/.test(s) ? BigInt(s) : 0n);

function isSerializationFailure(e: unknown): boolean {
  return e instanceof GatewayError && e.code === SqlState.serialization_failure;
}

export async function appendDataFiles(
  catalog: IcebergCatalog,
  io: IcebergWriteIO,
  id: TableIdentifier,
  schema: Schema,
  files: readonly (DataFileInfo & { readonly partition?: readonly unknown[] })[],
  options: AppendOptions = {},
): Promise<AppendResult | null> {
  if (files.length === 0) return null;
  const snapshotId = newSnapshotId();
  const addedRecords = files.reduce((s, f) => s + BigInt(f.recordCount), 0n);
  const addedSize = files.reduce((s, f) => s + BigInt(f.fileSizeInBytes), 0n);
  let manifest: { path: string; length: bigint } | null = null;
  const maxRetries = options.maxRetries ?? DEFAULT_COMMIT_RETRIES;
  const part = options.partitioning;
  const changedPartitions = part === undefined ? 1 : new Set(files.map((f) => partitionKey(part.fields, f.partition ?? []))).size;
  const turns = !isStagingCatalog(catalog);
  /** the table's turn, taken after a lost race; released when the append is done */
  let release: (() => void) | null = null;
  try {
    for (let attempt = 0; ; attempt++) {
      let base = await catalog.loadTableLocation(id);
      let md = await loadTableMetadata(io, base.metadataLocation);
      // another statement holds the table's turn: let it commit first, then build on what it left
      if (turns && release === null && md.tableUuid !== null && await awaitTurn(appendTurn(md.tableUuid), options.signal)) {
        base = await catalog.loadTableLocation(id);
        md = await loadTableMetadata(io, base.metadataLocation);
      }
      if (md.currentSchemaId !== schema.schemaId || md.defaultSpecId !== (options.partitioning?.specId ?? md.defaultSpecId)) {
        throw pgError(SqlState.serialization_failure, 'could not serialize access due to concurrent update', { detail: 'The table schema changed during the insert.' });
      }
      if (options.validate !== undefined) await options.validate(md);
      const dir = metadataDir(md);
      if (manifest === null) {
        const bytes = writeDataManifest(schema, files, options.partitioning, md.formatVersion);
        const path = `${dir}/${randomUUID()}-m0.avro`;
        await io.write(path, bytes);
        manifest = { path, length: BigInt(bytes.byteLength) };
      }
      const parent = findSnapshot(md, null);
      const sequenceNumber = md.lastSequenceNumber + 1n;
      let previous: ManifestFile[] = [];
      if (parent !== null) {
        if (parent.manifestList === null) throw pgError(SqlState.feature_not_supported, 'appending to a v1 snapshot without a manifest list is not supported');
        previous = await readManifestList(io, parent.manifestList);
      }
      const added: ManifestFile = {
        manifestPath: manifest.path, manifestLength: manifest.length, partitionSpecId: part?.specId ?? 0, content: 0,
        sequenceNumber, minSequenceNumber: sequenceNumber, addedSnapshotId: snapshotId,
        addedFilesCount: files.length, existingFilesCount: 0, deletedFilesCount: 0,
        addedRowsCount: addedRecords, existingRowsCount: 0n, deletedRowsCount: 0n,
        partitions: part === undefined ? [] : fieldSummaries(part, files.map((f) => f.partition ?? [])), keyMetadata: null, firstRowId: null,
      };
      const listPath = `${dir}/snap-${snapshotId}-${attempt + 1}-${randomUUID()}.avro`;
      const lineage = assignRowLineage(md, [added, ...previous]);
      await io.write(listPath, writeManifestList(lineage?.manifests ?? [added, ...previous], snapshotId, parent?.snapshotId ?? null, sequenceNumber, lineage?.firstRowId ?? null));

      const now = BigInt(Math.max(Date.now(), Number(md.lastUpdatedMs) + 1));
      const ps = parent?.summary ?? {};
      const summary: Record<string, string> = {
        operation: 'append',
        'added-data-files': String(files.length),
        'added-records': String(addedRecords),
        'added-files-size': String(addedSize),
        'changed-partition-count': String(changedPartitions),
        'total-records': String(num(ps['total-records']) + addedRecords),
        'total-files-size': String(num(ps['total-files-size']) + addedSize),
        'total-data-files': String(num(ps['total-data-files']) + BigInt(files.length)),
        'total-delete-files': String(num(ps['total-delete-files'])),
        'total-position-deletes': String(num(ps['total-position-deletes'])),
        'total-equality-deletes': String(num(ps['total-equality-deletes'])),
        'engine-name': 'lakegate',
        ...(options.engineVersion === undefined ? {} : { 'engine-version': options.engineVersion }),
        // `validate` is the key check of the new rows: only a checked append carries the parent's key proof on
        ...(options.validate === undefined ? {} : verifiedKeysSummary(md, schema, parent)),
      };
      const raw = md.raw as Record<string, unknown>;
      const snapshot = {
        'snapshot-id': snapshotId,
        ...(parent === null ? {} : { 'parent-snapshot-id': parent.snapshotId }),
        'sequence-number': sequenceNumber,
        'timestamp-ms': now,
        'manifest-list': listPath,
        summary,
        'schema-id': schema.schemaId,
        ...lineageSnapshotFields(lineage),
      };
      const doc: Record<string, unknown> = {
        ...raw,
        ...(lineage === null ? {} : { 'next-row-id': lineage.nextRowId }),
        'last-sequence-number': sequenceNumber,
        'last-updated-ms': now,
        'current-snapshot-id': snapshotId,
        snapshots: [...((raw['snapshots'] as unknown[] | undefined) ?? []), snapshot],
        'snapshot-log': [...((raw['snapshot-log'] as unknown[] | undefined) ?? []), { 'timestamp-ms': now, 'snapshot-id': snapshotId }],
        'metadata-log': [...((raw['metadata-log'] as unknown[] | undefined) ?? []), { 'timestamp-ms': md.lastUpdatedMs, 'metadata-file': base.metadataLocation }],
        refs: { ...((raw['refs'] as Record<string, unknown> | undefined) ?? {}), main: { 'snapshot-id': snapshotId, type: 'branch' } },
      };
      const metadataLocation = nextMetadataFileLocation(md.location, base.metadataLocation, md.properties['write.metadata.path'] === undefined ? {} : { metadataPath: md.properties['write.metadata.path'] });
      try {
        if (!(await writeMetadataFile(io, metadataLocation, doc))) {
          throw pgError(SqlState.serialization_failure, 'could not serialize access due to concurrent update');
        }
        commitFault('before-catalog-commit');
        await catalogSwap(catalog, id, base.metadataLocation, metadataLocation);
        commitFault('after-catalog-commit');
        return { metadataLocation, snapshotId, sequenceNumber };
      } catch (e) {
        // holding the turn, only commits already under way (or another process's) can still win: a second bound
        if (!isSerializationFailure(e) || attempt >= (release === null ? maxRetries : 2 * maxRetries)) throw e;
        if (turns && release === null && md.tableUuid !== null) release = await takeTurn(appendTurn(md.tableUuid), options.signal);
        // another writer won: rebuild on its metadata — at once after a first lost swap (its commit is complete),
        // else after a little jittered backoff
        const ms = retryDelayMs(attempt, e);
        if (ms > 0) await new Promise((r) => setTimeout(r, ms));
      }
    }
  } catch (e) {
    // a 40001 / 23505 came before any swap took effect: the manifest written for this append is nobody's
    if (manifest !== null && e instanceof GatewayError && (e.code === SqlState.serialization_failure || e.code === SqlState.unique_violation)) {
      await io.delete?.(manifest.path).catch(() => {});
    }
    throw e;
  } finally {
    release?.();
  }
}
