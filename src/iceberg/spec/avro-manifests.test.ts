import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { parseManifestList } from './manifest-list.ts';
import { parseManifest } from './manifest.ts';
import { readAvroFile } from './avro-file.ts';
import { parseJsonLossless } from './table-metadata.ts';

const DIR = '/work/shared/fixtures/iceberg/icebird-avro-samples/';
const LIST = 'snap-8656952484400131532-1-a85973e4-4009-4cba-875e-5278a2c6027d';
const MANIFEST = 'a85973e4-4009-4cba-875e-5278a2c6027d-m0';
const read = (name: string): Uint8Array => new Uint8Array(readFileSync(DIR + name));
const json = (name: string): unknown => parseJsonLossless(readFileSync(DIR + name, 'utf8'));
type Rec = Record<string, unknown>;
const big = (v: unknown): bigint => BigInt(v as number);

describe('Avro manifest list (icebird sample, deflate)', () => {
  const list = parseManifestList(read(`${LIST}.avro`));
  const expected = json(`${LIST}.json`) as Rec[];

  it('decodes every field by field id like the reference decoder', () => {
    expect(list).toHaveLength(expected.length);
    const [got, exp] = [list[0]!, expected[0]!];
    expect(got.manifestPath).toBe(exp['manifest_path']);
    expect(got.manifestLength).toBe(big(exp['manifest_length']));
    expect(got.partitionSpecId).toBe(exp['partition_spec_id']);
    expect(got.content).toBe(exp['content']);
    expect(got.sequenceNumber).toBe(big(exp['sequence_number']));
    expect(got.minSequenceNumber).toBe(big(exp['min_sequence_number']));
    expect(got.addedFilesCount).toBe(exp['added_data_files_count']);
    expect(got.existingFilesCount).toBe(exp['existing_data_files_count']);
    expect(got.deletedFilesCount).toBe(exp['deleted_data_files_count']);
    expect(got.addedRowsCount).toBe(big(exp['added_rows_count']));
    expect(got.partitions).toEqual([]);
  });

  it('keeps added_snapshot_id exact (the reference JSON holds a float-rounded copy)', () => {
    expect(list[0]!.addedSnapshotId).toBe(8656952484400131532n);
  });

  it('exposes the header', () => {
    const f = readAvroFile(read(`${LIST}.avro`));
    const meta = json(`${LIST}.metadata.json`) as { metadata: Rec };
    expect(f.codec).toBe(meta.metadata['avro.codec']);
  });
});

describe('Avro manifest (icebird sample)', () => {
  const list = parseManifestList(read(`${LIST}.avro`));
  const parsed = parseManifest(read(`${MANIFEST}.avro`), list[0]!);
  const expected = json(`${MANIFEST}.json`) as Rec[];

  it('reads header keys', () => {
    expect(parsed.formatVersion).toBe(2);
    expect(parsed.specId).toBe(0);
    expect(parsed.meta.get('content')).toBe('data');
  });

  it('decodes entries and data_file fields by field id', () => {
    expect(parsed.entries).toHaveLength(expected.length);
    const e = parsed.entries[0]!;
    const x = expected[0]!;
    const df = x['data_file'] as Rec;
    expect(e.status).toBe(x['status']);
    expect(e.snapshotId).toBe(big(x['snapshot_id']));
    // sequence numbers are null in the file: inherited from the manifest list entry (status ADDED)
    expect(e.sequenceNumber).toBe(1n);
    expect(e.fileSequenceNumber).toBe(1n);
    expect(e.dataFile.content).toBe(df['content']);
    expect(e.dataFile.filePath).toBe(df['file_path']);
    expect(e.dataFile.fileFormat).toBe(df['file_format']);
    expect(e.dataFile.recordCount).toBe(big(df['record_count']));
    expect(e.dataFile.fileSizeInBytes).toBe(big(df['file_size_in_bytes']));
    expect(e.dataFile.sortOrderId).toBe(df['sort_order_id']);
    expect(e.dataFile.splitOffsets).toEqual((df['split_offsets'] as number[]).map(big));
    expect(e.dataFile.partition.size).toBe(0);
    const kv = (name: string, conv: (v: unknown) => unknown) =>
      new Map((df[name] as { key: number; value: unknown }[]).map(({ key, value }) => [key, conv(value)]));
    expect(e.dataFile.columnSizes).toEqual(kv('column_sizes', big));
    expect(e.dataFile.valueCounts).toEqual(kv('value_counts', big));
    expect(e.dataFile.nullValueCounts).toEqual(kv('null_value_counts', big));
    expect(e.dataFile.nanValueCounts).toEqual(kv('nan_value_counts', big));
    expect(e.dataFile.lowerBounds).toEqual(kv('lower_bounds', (v) => Uint8Array.from(v as number[])));
    expect(e.dataFile.upperBounds).toEqual(kv('upper_bounds', (v) => Uint8Array.from(v as number[])));
  });
});

// a minimal Avro container writer for codec tests
function zz(n: number): number[] {
  let v = BigInt(n);
  v = (v << 1n) ^ (v >> 63n);
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return out;
}
function avroContainer(codec: string, block: Uint8Array, count: number): Uint8Array {
  const enc = new TextEncoder();
  const str = (s: string) => { const b = enc.encode(s); return [...zz(b.length), ...b]; };
  const schema = JSON.stringify({ type: 'record', name: 'r', fields: [{ name: 'x', type: 'long', 'field-id': 1 }] });
  const sync = new Array(16).fill(7);
  return Uint8Array.from([
    0x4f, 0x62, 0x6a, 0x01, ...zz(2), ...str('avro.schema'), ...str(schema), ...str('avro.codec'), ...str(codec), 0, ...sync,
    ...zz(count), ...zz(block.length), ...block, ...sync,
  ]);
}

describe('Avro codecs', () => {
  const block = Uint8Array.from([...zz(5), ...zz(-3)]);
  it('reads null and deflate, longs as bigint', () => {
    expect(readAvroFile(avroContainer('null', block, 2)).records).toEqual([{ x: 5n }, { x: -3n }]);
    expect(readAvroFile(avroContainer('deflate', deflateRawSync(block), 2)).records).toEqual([{ x: 5n }, { x: -3n }]);
  });
  it('rejects an unknown codec with 0A000 naming it (snappy/zstandard: test/iceberg/robust-avro-codecs.test.ts)', () => {
    expect(() => readAvroFile(avroContainer('lzma', block, 2))).toThrow(expect.objectContaining({ code: '0A000', message: 'Avro codec "lzma" is not supported' }));
  });
});
