import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseTableMetadata, findSnapshot, snapshotIdAsOf, currentSchema } from './table-metadata.ts';
import { findLatestMetadataFile, loadTableMetadata, metadataFileVersion } from './metadata-file.ts';
import { LocalPrefixIO, type IcebergIO } from '../io.ts';

const F = '/work/shared/fixtures/iceberg';
const meta = (path: string) => parseTableMetadata(readFileSync(`${F}/${path}`, 'utf8'));

describe('table metadata JSON', () => {
  it('keeps snapshot ids above 2^53 exact', () => {
    const md = meta('icebird-spark-bunnies/metadata/v5.metadata.json');
    expect(md.formatVersion).toBe(2);
    expect(md.currentSnapshotId).toBe(2701171901096418979n);
    expect(md.snapshots.map((s) => s.snapshotId)).toContain(7505300640432048841n);
    expect(md.refs.get('main')?.snapshotId).toBe(2701171901096418979n);
    expect(md.lastSequenceNumber).toBe(3n);
    expect(md.snapshots.find((s) => s.snapshotId === 2701171901096418979n)?.sequenceNumber).toBe(3n);
    expect(currentSchema(md).fields.map((f) => f.name)).toContain('breed_name_length');
  });

  it('treats current-snapshot-id -1 as no snapshot', () => {
    const md = meta('duckdb-equality_deletes/warehouse/mydb/mytable/metadata/v1.metadata.json');
    expect(md.currentSnapshotId).toBeNull();
    expect(findSnapshot(md)).toBeNull();
  });

  it('reads the deprecated v1 fields: schema, bare partition-spec, inline manifests', () => {
    const md = meta('duckdb-iceberg_v1_deprecated/default/legacy_v1/metadata/v2.metadata.json');
    expect(md.formatVersion).toBe(1);
    expect(md.schemas.map((s) => s.fields.map((f) => f.name))).toEqual([['id', 'category', 'amount']]);
    expect(md.partitionSpecs).toEqual([{ specId: 0, fields: [{ sourceId: 2, fieldId: 1000, name: 'category', transform: 'identity' }] }]);
    const snap = findSnapshot(md)!;
    expect(snap.manifestList).toBeNull();
    expect(snap.manifests).toHaveLength(1);
    expect(snap.sequenceNumber).toBe(0n);
  });

  it('parses partition specs with transforms, renamed columns and decimals', () => {
    const md = meta('icebird-spark-rename_column/metadata/v3.metadata.json');
    expect(md.partitionSpecs[0]!.fields.map((f) => [f.fieldId, f.name, f.transform, f.sourceId])).toEqual([
      [1000, 'id_bucket', 'bucket[4]', 1],
      [1001, 'date', 'identity', 3],
    ]);
    const s = currentSchema(md);
    expect(s.fields.find((f) => f.id === 3)?.name).toBe('event_date');
    expect(s.fields.find((f) => f.id === 4)?.type).toEqual({ kind: 'primitive', name: 'decimal', precision: 10, scale: 2 });
  });

  it('parses nested types with ids, keeps unknown fields, rejects future format versions', () => {
    const text = `{"format-version":2,"table-uuid":"u","location":"s3://b/t","last-sequence-number":9007199254740993,
      "last-updated-ms":1,"last-column-id":9,"current-schema-id":0,"x-unknown":{"a":[1,2]},
      "schemas":[{"type":"struct","schema-id":0,"identifier-field-ids":[1],"fields":[
        {"id":1,"name":"id","required":true,"type":"long"},
        {"id":2,"name":"tags","required":false,"type":{"type":"list","element-id":3,"element-required":false,"element":"string"}},
        {"id":4,"name":"props","required":false,"type":{"type":"map","key-id":5,"key":"string","value-id":6,"value-required":true,"value":"fixed[16]"}},
        {"id":7,"name":"pt","required":false,"type":{"type":"struct","fields":[{"id":8,"name":"x","required":true,"type":"double"}]}}]}],
      "partition-specs":[{"spec-id":0,"fields":[]}],"default-spec-id":0,"last-partition-id":999,
      "sort-orders":[{"order-id":1,"fields":[{"source-id":1,"transform":"identity","direction":"desc","null-order":"nulls-last"}]}],
      "default-sort-order-id":1,"current-snapshot-id":null,"snapshots":[],"snapshot-log":[],"metadata-log":[]}`;
    const md = parseTableMetadata(text);
    expect(md.lastSequenceNumber).toBe(9007199254740993n);
    expect(md.raw['x-unknown']).toEqual({ a: [1, 2] });
    const s = currentSchema(md);
    expect(s.identifierFieldIds).toEqual([1]);
    expect(s.fields[1]!.type).toEqual({ kind: 'list', elementId: 3, elementRequired: false, element: { kind: 'primitive', name: 'string' } });
    expect(s.fields[2]!.type).toMatchObject({ kind: 'map', keyId: 5, valueId: 6, value: { name: 'fixed', length: 16 } });
    expect(md.sortOrders[0]!.fields[0]).toEqual({ sourceId: 1, transform: 'identity', direction: 'desc', nullOrder: 'nulls-last' });
    expect(() => parseTableMetadata(text.replace('"format-version":2', '"format-version":4'))).toThrow(expect.objectContaining({ code: '0A000' }));
  });

  it('finds snapshots by id and by time, and names a missing one', () => {
    const md = meta('icebird-spark-bunnies/metadata/v5.metadata.json');
    expect(() => findSnapshot(md, 1234n)).toThrow('Snapshot 1234 not found in metadata');
    const first = md.snapshotLog[0]!;
    expect(snapshotIdAsOf(md, first.timestampMs)).toBe(first.snapshotId);
  });
});

describe('version-hint.text and metadata discovery', () => {
  const io = new LocalPrefixIO({ 't': `${F}/icebird-spark-bunnies`, 'm': `${F}/duckdb-map_stats/default.db/map_stats` });
  it('int hint → vN.metadata.json', async () => {
    expect(await findLatestMetadataFile(io, 't')).toBe('t/metadata/v5.metadata.json');
  });
  it('missing hint → highest version in the listing', async () => {
    expect(await findLatestMetadataFile(io, 'm')).toBe('m/metadata/00002-0e059d4b-e5e8-41af-a763-76cbf3a3d0bc.metadata.json');
    expect((await loadTableMetadata(io, await findLatestMetadataFile(io, 'm'))).formatVersion).toBe(2);
  });
  it('stem hint → <stem>.metadata.json', async () => {
    const stub: IcebergIO = {
      read: async (uri) => {
        if (uri === 'x/metadata/version-hint.text') return new TextEncoder().encode('00003-abc\n');
        throw new Error('nope');
      },
      readRange: async () => new Uint8Array(),
    };
    expect(await findLatestMetadataFile(stub, 'x')).toBe('x/metadata/00003-abc.metadata.json');
  });
  it('parses version numbers of metadata file names', () => {
    expect(metadataFileVersion('v12.metadata.json')).toBe(12);
    expect(metadataFileVersion('00007-1a2b.gz.metadata.json')).toBe(7);
    expect(metadataFileVersion('snap-1.avro')).toBeNull();
  });
});
