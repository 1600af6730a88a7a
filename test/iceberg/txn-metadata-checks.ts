/**
 * Consistency checks on a table's current metadata, the ones pyiceberg / Iceberg Java readers rely on, for
 * the transaction tests (txn-*.test.ts): the snapshot chain (every parent present, sequence numbers strictly
 * increasing, last-sequence-number = the head's, refs.main = current), snapshot-log in chain order,
 * metadata-log files present on disk, every manifest of the head no newer than it, entries ADDED by a
 * snapshot carrying that snapshot's sequence number, and the summary totals equal to the live files.
 */
import { existsSync } from 'node:fs';
import { expect } from 'vitest';
import { FileIO } from '../../src/storage/index.ts';
import { icebergIOFromFileIO } from '../../src/iceberg/io.ts';
import { loadTableMetadata } from '../../src/iceberg/spec/metadata-file.ts';
import { readManifestList } from '../../src/iceberg/spec/manifest-list.ts';
import { DataFileContent, EntryStatus, readManifest } from '../../src/iceberg/spec/manifest.ts';
import { findSnapshot, type Snapshot, type TableMetadata } from '../../src/iceberg/spec/table-metadata.ts';

export const localIO = icebergIOFromFileIO(new FileIO());

export interface CheckedTable {
  readonly md: TableMetadata;
  /** the current snapshot's ancestors, oldest first */
  readonly chain: readonly Snapshot[];
  readonly liveDataFiles: number;
  readonly liveRecords: bigint;
}

export async function checkTableMetadata(metadataLocation: string): Promise<CheckedTable> {
  const md = await loadTableMetadata(localIO, metadataLocation);
  const chain: Snapshot[] = [];
  for (let id = md.currentSnapshotId; id !== null; ) {
    const s = findSnapshot(md, id);
    expect(s, `snapshot ${id} is in the metadata`).not.toBeNull();
    chain.unshift(s!);
    id = s!.parentSnapshotId;
  }
  for (let i = 1; i < chain.length; i++) expect(chain[i]!.sequenceNumber).toBeGreaterThan(chain[i - 1]!.sequenceNumber);
  const head = chain.at(-1);
  if (head !== undefined) {
    expect(md.lastSequenceNumber).toBe(head.sequenceNumber);
    expect(md.refs.get('main')?.snapshotId).toBe(head.snapshotId);
  }
  expect(new Set(md.snapshots.map((s) => s.snapshotId)).size).toBe(md.snapshots.length);
  // the snapshot log ends with the chain (older entries may belong to rolled-back branches)
  const logIds = md.snapshotLog.map((e) => e.snapshotId);
  expect(logIds.slice(-chain.length)).toEqual(chain.map((s) => s.snapshotId));
  for (let i = 1; i < md.snapshotLog.length; i++) expect(md.snapshotLog[i]!.timestampMs).toBeGreaterThanOrEqual(md.snapshotLog[i - 1]!.timestampMs);
  for (const e of md.metadataLog) expect(existsSync(e.metadataFile), e.metadataFile).toBe(true);
  let liveDataFiles = 0;
  let liveDeleteFiles = 0;
  let liveRecords = 0n;
  if (head?.manifestList != null) {
    const seqOf = new Map(md.snapshots.map((s) => [s.snapshotId, s.sequenceNumber]));
    for (const mf of await readManifestList(localIO, head.manifestList)) {
      expect(mf.sequenceNumber).toBeLessThanOrEqual(head.sequenceNumber);
      expect(seqOf.get(mf.addedSnapshotId!)).toBe(mf.sequenceNumber);
      for (const e of (await readManifest(localIO, mf)).entries) {
        expect(existsSync(e.dataFile.filePath), e.dataFile.filePath).toBe(true);
        if (e.status === EntryStatus.ADDED) expect(e.sequenceNumber).toBe(seqOf.get(e.snapshotId!));
        expect(e.sequenceNumber).toBeLessThanOrEqual(seqOf.get(e.snapshotId!) ?? head.sequenceNumber);
        if (e.dataFile.content === DataFileContent.DATA) { liveDataFiles++; liveRecords += e.dataFile.recordCount; } else liveDeleteFiles++;
      }
    }
    expect(head.summary['total-data-files']).toBe(String(liveDataFiles));
    expect(head.summary['total-delete-files']).toBe(String(liveDeleteFiles));
    expect(head.summary['total-records']).toBe(String(liveRecords));
  }
  return { md, chain, liveDataFiles, liveRecords };
}
