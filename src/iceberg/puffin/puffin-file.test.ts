/**
 * Puffin files: layout (magic, blobs from offset 4, footer magic, JSON payload, LE size, flags, magic), the
 * footer JSON as Iceberg Java writes it for deletion vectors, and the DV file of one commit.
 */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../common/errors.ts';
import { parsePuffinFooter, PuffinFormatError, writePuffin } from './puffin-file.ts';
import { writeDeletionVectorFile } from './deletion-vector-file.ts';
import { deserializeDeletionVector } from './deletion-vector.ts';

describe('Puffin file', () => {
  it('lays out magic, blobs, footer; footer JSON keys in Java order, longs as numbers', () => {
    const { bytes, blobs } = writePuffin([
      { type: 'x', fields: [1], snapshotId: -1n, sequenceNumber: -1n, data: Uint8Array.of(9, 9, 9) },
      { type: 'y', fields: [], snapshotId: 9007199254740993n, sequenceNumber: 4n, data: Uint8Array.of(7), properties: { a: 'b' } },
    ], { 'created-by': 'lakegate' });
    expect(blobs.map((b) => [b.offset, b.length])).toEqual([[4, 3], [7, 1]]);
    const text = Buffer.from(bytes).toString('latin1');
    expect(text.slice(0, 4)).toBe('PFA1');
    expect(text.slice(8, 12)).toBe('PFA1');
    const json = '{"blobs":[{"type":"x","fields":[1],"snapshot-id":-1,"sequence-number":-1,"offset":4,"length":3},'
      + '{"type":"y","fields":[],"snapshot-id":9007199254740993,"sequence-number":4,"offset":7,"length":1,"properties":{"a":"b"}}],'
      + '"properties":{"created-by":"lakegate"}}';
    expect(text.slice(12, 12 + json.length)).toBe(json);
    const tail = Buffer.from(bytes.subarray(12 + json.length));
    expect([tail.readInt32LE(0), tail.readInt32LE(4), tail.subarray(8).toString('latin1')]).toEqual([json.length, 0, 'PFA1']);
    const footer = parsePuffinFooter(bytes);
    expect(footer.properties).toEqual({ 'created-by': 'lakegate' });
    expect(footer.blobs[1]).toEqual({ type: 'y', fields: [], snapshotId: 9007199254740993n, sequenceNumber: 4n, offset: 7, length: 1, compressionCodec: null, properties: { a: 'b' } });
  });

  it('a commit\'s DV file: one blob per data file, offsets and sizes for the manifest entries', () => {
    const f = writeDeletionVectorFile(new Map([['s3://b/t/data/a.parquet', [4, 1]], ['s3://b/t/data/b.parquet', [0]]]));
    expect(f.vectors.map((v) => [v.referencedDataFile, v.cardinality])).toEqual([['s3://b/t/data/a.parquet', 2], ['s3://b/t/data/b.parquet', 1]]);
    const footer = parsePuffinFooter(f.bytes);
    expect(footer.blobs.map((b) => [b.type, b.fields, b.snapshotId, b.sequenceNumber, b.properties])).toEqual([
      ['deletion-vector-v1', [2147483545], -1n, -1n, { 'referenced-data-file': 's3://b/t/data/a.parquet', cardinality: '2' }],
      ['deletion-vector-v1', [2147483545], -1n, -1n, { 'referenced-data-file': 's3://b/t/data/b.parquet', cardinality: '1' }],
    ]);
    for (const [i, v] of f.vectors.entries()) {
      expect([v.contentOffset, v.contentSizeInBytes]).toEqual([footer.blobs[i]!.offset, footer.blobs[i]!.length]);
    }
    const a = f.vectors[0]!;
    expect(deserializeDeletionVector(f.bytes.subarray(a.contentOffset, a.contentOffset + a.contentSizeInBytes))).toEqual([1, 4]);
  });

  it('refuses files that are not Puffin; a compressed footer is 0A000', () => {
    expect(() => parsePuffinFooter(Uint8Array.of(1, 2, 3))).toThrow(PuffinFormatError);
    const { bytes } = writePuffin([]);
    const cut = bytes.slice();
    cut[cut.byteLength - 12] = 200; // payload size past the start
    expect(() => parsePuffinFooter(cut)).toThrow(/payload size/);
    const compressed = bytes.slice();
    compressed[compressed.byteLength - 8] = 1;
    expect(() => parsePuffinFooter(compressed)).toThrow(expect.objectContaining({ code: '0A000' }) as GatewayError);
  });
});
