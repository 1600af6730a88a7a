/**
 * Scan planning (§ Scan Planning): a snapshot's manifests → live data files (status 2 skipped), each with
 * the delete files that apply to it, by data sequence number:
 *   position deletes: data_seq <= delete_seq, same spec and partition (or referenced_data_file = the file);
 *   equality deletes: data_seq <  delete_seq, same spec and partition, or any partition when the delete's
 *   spec is unpartitioned (a global delete).
 * v1 snapshots that list `manifests` inline (no manifest list) are read with sequence number 0.
 */
import { pgError } from '../../common/errors.ts';
import type { IcebergIO } from '../io.ts';
import type { TableMetadata, Snapshot } from '../spec/table-metadata.ts';
import { findSnapshot, specById } from '../spec/table-metadata.ts';
import { readManifestList, type ManifestFile } from '../spec/manifest-list.ts';
import { readManifest, DataFileContent, type DataFile } from '../spec/manifest.ts';
import { isUnpartitioned, type PartitionSpec } from '../spec/partition-spec.ts';

export interface DeleteFileRef {
  readonly file: DataFile;
  readonly sequenceNumber: bigint;
}

export interface FileScanTask {
  readonly file: DataFile;
  readonly spec: PartitionSpec;
  readonly dataSequenceNumber: bigint;
  readonly positionDeletes: readonly DeleteFileRef[];
  readonly equalityDeletes: readonly DeleteFileRef[];
}

export interface ScanPlan {
  readonly snapshot: Snapshot | null;
  readonly tasks: readonly FileScanTask[];
  /** counters for EXPLAIN / tests */
  readonly manifestsRead: number;
  readonly deleteFilesSeen: number;
}

export async function manifestsOfSnapshot(io: IcebergIO, md: TableMetadata, snap: Snapshot): Promise<ManifestFile[]> {
  if (snap.manifestList !== null) return readManifestList(io, snap.manifestList);
  // v1 deprecated form: a list of manifest paths, no manifest list (content = data, seq = 0)
  return (snap.manifests ?? []).map((path) => ({
    manifestPath: path, manifestLength: 0n, partitionSpecId: md.defaultSpecId, content: 0,
    sequenceNumber: 0n, minSequenceNumber: 0n, addedSnapshotId: snap.snapshotId,
    addedFilesCount: null, existingFilesCount: null, deletedFilesCount: null,
    addedRowsCount: null, existingRowsCount: null, deletedRowsCount: null,
    partitions: null, keyMetadata: null, firstRowId: null,
  }));
}

/** Stable key for (spec id, partition tuple) equality; raw Avro values (bigint, bytes) included. */
export function partitionKey(file: DataFile): string {
  const parts: string[] = [String(file.specId)];
  for (const [id, v] of [...file.partition].sort((a, b) => a[0] - b[0])) {
    const s = v === null || v === undefined ? 'N'
      : typeof v === 'bigint' ? `${v}`
      : v instanceof Uint8Array ? `x${Buffer.from(v).toString('hex')}`
      : JSON.stringify(v);
    parts.push(`${id}=${s}`);
  }
  return parts.join('|');
}

export async function planScan(io: IcebergIO, md: TableMetadata, snapshotId?: bigint | null): Promise<ScanPlan> {
  const snapshot = findSnapshot(md, snapshotId);
  if (snapshot === null) return { snapshot, tasks: [], manifestsRead: 0, deleteFilesSeen: 0 };
  const manifests = await manifestsOfSnapshot(io, md, snapshot);

  const data: { file: DataFile; seq: bigint }[] = [];
  const posByPartition = new Map<string, DeleteFileRef[]>();
  const eqByPartition = new Map<string, DeleteFileRef[]>();
  const globalEq: DeleteFileRef[] = [];
  let deleteFilesSeen = 0;
  for (const mf of manifests) {
    const parsed = await readManifest(io, mf);
    for (const e of parsed.entries) {
      const f = e.dataFile;
      if (f.content === DataFileContent.DATA) {
        if (f.fileFormat !== 'PARQUET') throw pgError('0A000', `Iceberg data file format ${f.fileFormat} is not supported`, { detail: f.filePath });
        data.push({ file: f, seq: e.sequenceNumber });
        continue;
      }
      deleteFilesSeen++;
      const ref = { file: f, sequenceNumber: e.sequenceNumber };
      if (f.fileFormat !== 'PARQUET') throw pgError('0A000', `Iceberg ${f.fileFormat} delete files (deletion vectors) are not supported`, { detail: f.filePath });
      if (f.content === DataFileContent.POSITION_DELETES) {
        push(posByPartition, partitionKey(f), ref);
      } else if (isUnpartitioned(specById(md, f.specId))) {
        globalEq.push(ref);
      } else {
        push(eqByPartition, partitionKey(f), ref);
      }
    }
  }

  const tasks = data.map(({ file, seq }): FileScanTask => {
    const key = partitionKey(file);
    const positionDeletes = (posByPartition.get(key) ?? []).filter(
      (d) => seq <= d.sequenceNumber && (d.file.referencedDataFile === null || d.file.referencedDataFile === file.filePath),
    );
    const equalityDeletes = [...(eqByPartition.get(key) ?? []), ...globalEq].filter((d) => seq < d.sequenceNumber);
    return { file, spec: specById(md, file.specId), dataSequenceNumber: seq, positionDeletes, equalityDeletes };
  });
  return { snapshot, tasks, manifestsRead: manifests.length, deleteFilesSeen };
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
