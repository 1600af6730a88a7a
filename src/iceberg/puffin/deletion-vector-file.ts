/**
 * The Puffin file of one commit's deletion vectors: one `deletion-vector-v1` blob per data file, with the
 * blob metadata Iceberg Java's BaseDVFileWriter writes (fields [_pos], snapshot-id and sequence-number -1,
 * properties `referenced-data-file` and `cardinality`). Each DV becomes a delete-file manifest entry with
 * this file's path and size, `content_offset` / `content_size_in_bytes` = the blob's offset / length.
 */
import { DELETION_VECTOR_V1, ROW_POSITION_FIELD_ID, serializeDeletionVector } from './deletion-vector.ts';
import { writePuffin } from './puffin-file.ts';

export const REFERENCED_DATA_FILE_KEY = 'referenced-data-file';
export const CARDINALITY_KEY = 'cardinality';

export interface WrittenDeletionVector {
  readonly referencedDataFile: string;
  readonly contentOffset: number;
  readonly contentSizeInBytes: number;
  readonly cardinality: number;
}

export interface DeletionVectorFile {
  readonly bytes: Uint8Array;
  readonly vectors: readonly WrittenDeletionVector[];
}

/** `vectors`: data file path → its deleted positions (complete: a DV replaces any earlier one) */
export function writeDeletionVectorFile(vectors: ReadonlyMap<string, Iterable<number>>, createdBy = 'lakegate'): DeletionVectorFile {
  const blobs = [...vectors].map(([path, positions]) => {
    const dv = serializeDeletionVector(positions);
    return {
      type: DELETION_VECTOR_V1, fields: [ROW_POSITION_FIELD_ID], snapshotId: -1n, sequenceNumber: -1n, data: dv.bytes,
      properties: { [REFERENCED_DATA_FILE_KEY]: path, [CARDINALITY_KEY]: String(dv.cardinality) },
    };
  });
  const written = writePuffin(blobs, { 'created-by': createdBy });
  return {
    bytes: written.bytes,
    vectors: written.blobs.map((b) => ({
      referencedDataFile: b.properties[REFERENCED_DATA_FILE_KEY]!, contentOffset: b.offset, contentSizeInBytes: b.length, cardinality: Number(b.properties[CARDINALITY_KEY]),
    })),
  };
}
