/**
 * Writer round trip: Batches → Parquet (field ids) → read back through read/parquet-reader; metrics and
 * bounds in the § Appendix D serialization; rolling; NOT NULL; single-value helpers.
 */
import { describe, expect, it } from 'vitest';
import { ParquetDataWriter } from './parquet-data-writer.ts';
import { readParquetColumns } from '../read/parquet-reader.ts';
import { openParquet } from '../read/parquet-reader.ts';
import { fieldIdOf } from '../read/arrow-values.ts';
import { parseSchema } from '../spec/schema.ts';
import { decodeSingleValue } from '../spec/types.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { bigIntToMinimalBE, truncateStringUpper } from './single-value-bytes.ts';
import { icebergTypeOf } from './iceberg-type-of.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { memoryWriteIO } from './testing/memory-write-io.ts';

const schema = parseSchema({
  type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'i', required: true, type: 'int' },
    { id: 2, name: 'l', required: false, type: 'long' },
    { id: 3, name: 'f', required: false, type: 'float' },
    { id: 4, name: 'd', required: false, type: 'double' },
    { id: 5, name: 'n', required: false, type: 'decimal(10, 2)' },
    { id: 6, name: 's', required: false, type: 'string' },
    { id: 7, name: 'b', required: false, type: 'boolean' },
    { id: 8, name: 'dt', required: false, type: 'date' },
    { id: 9, name: 't', required: false, type: 'time' },
    { id: 10, name: 'ts', required: false, type: 'timestamp' },
    { id: 11, name: 'tz', required: false, type: 'timestamptz' },
    { id: 12, name: 'u', required: false, type: 'uuid' },
    { id: 13, name: 'bin', required: false, type: 'binary' },
  ],
});

const rows = [
  [1, 10n, 1.5, -2.25, Numeric.parse('12.34'), 'abc', true, 19000, 3_600_000_000, 1_700_000_000_000_000n, 5n, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', Uint8Array.of(1, 2)],
  [2, null, null, Number.NaN, Numeric.parse('-0.5'), null, false, null, null, null, null, null, null],
  [-3, -7n, -0.0, 8, null, 'é' + 'z'.repeat(20), null, -1, 0, -1n, -9n, '00000000-0000-0000-0000-000000000001', Uint8Array.of()],
];
const columns = schema.fields.map((_f, c) => rows.map((r) => r[c] ?? null));

describe('ParquetDataWriter', () => {
  it('writes every type with field ids and reads it back', async () => {
    const io = memoryWriteIO();
    const w = new ParquetDataWriter(io, 'memory://t/data', schema);
    await w.add({ length: 3, columns });
    const [file, ...more] = await w.close();
    expect(more).toHaveLength(0);
    expect(file!.recordCount).toBe(3);
    expect(file!.fileSizeInBytes).toBe(io.files.get(file!.path)!.byteLength);
    const { fields } = await openParquet(io.files.get(file!.path)!, file!.path);
    expect(fields.map(fieldIdOf)).toEqual(schema.fields.map((f) => f.id));
    expect(fields[0]!.nullable).toBe(false);
    const out: unknown[][] = schema.fields.map(() => []);
    for await (const chunk of readParquetColumns(io.files.get(file!.path)!, file!.path, schema.fields.map((f) => ({ fieldId: f.id, type: f.type, missingValue: null })))) {
      chunk.columns.forEach((col, c) => out[c]!.push(...col));
    }
    expect(out[0]).toEqual([1, 2, -3]);
    expect(out[1]).toEqual([10n, null, -7n]);
    expect(out[3]![1]).toBeNaN();
    expect((out[4] as Numeric[]).map((n) => n?.toString() ?? null)).toEqual(['12.34', '-0.50', null]);
    expect(out[5]).toEqual(['abc', null, 'é' + 'z'.repeat(20)]);
    expect(out[6]).toEqual([true, false, null]);
    expect(out[7]).toEqual([19000, null, -1]);
    expect(out[8]).toEqual([3_600_000_000, null, 0]);
    expect(out[9]).toEqual([1_700_000_000_000_000n, null, -1n]);
    expect(out[10]).toEqual([5n, null, -9n]);
    expect(out[11]).toEqual(['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', null, '00000000-0000-0000-0000-000000000001']);
    expect(out[12]).toEqual([Uint8Array.of(1, 2), null, Uint8Array.of()]);
  });

  it('collects value/null/NaN counts and Appendix D bounds', async () => {
    const w = new ParquetDataWriter(memoryWriteIO(), 'memory://t/data', schema);
    await w.add({ length: 3, columns });
    const [file] = await w.close();
    const m = new Map(file!.metrics.map((x) => [x.fieldId, x]));
    const bound = (id: number, which: 'lower' | 'upper'): unknown => {
      const b = which === 'lower' ? m.get(id)!.lowerBound() : m.get(id)!.upperBound();
      return b === null ? null : decodeSingleValue(schema.fields.find((f) => f.id === id)!.type, b);
    };
    expect(m.get(2)!.valueCount).toBe(3);
    expect(m.get(2)!.nullCount).toBe(1);
    expect(m.get(4)!.nanCount).toBe(1);
    expect([bound(1, 'lower'), bound(1, 'upper')]).toEqual([-3, 2]);
    expect([bound(2, 'lower'), bound(2, 'upper')]).toEqual([-7n, 10n]);
    expect(Object.is(bound(3, 'lower'), -0)).toBe(true);
    expect([bound(4, 'lower'), bound(4, 'upper')]).toEqual([-2.25, 8]);
    expect((bound(5, 'lower') as Numeric).toString()).toBe('-0.50');
    expect(bound(6, 'lower')).toBe('abc');
    expect(bound(6, 'upper')).toBe('é' + 'z'.repeat(14) + '{'); // 16 code points, last one incremented
    expect([bound(7, 'lower'), bound(7, 'upper')]).toEqual([false, true]);
    expect([bound(11, 'lower'), bound(11, 'upper')]).toEqual([-9n, 5n]);
    expect(bound(12, 'lower')).toBe('00000000-0000-0000-0000-000000000001');
    expect(m.get(13)!.lowerBound()).toEqual(Uint8Array.of());
  });

  it('rolls files at the target size', async () => {
    const io = memoryWriteIO();
    const s = parseSchema({ type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 'x', required: false, type: 'long' }] });
    const w = new ParquetDataWriter(io, 'memory://t/data', s, { targetFileSizeBytes: 8 * 1000 });
    for (let k = 0; k < 5; k++) await w.add({ length: 1000, columns: [Array.from({ length: 1000 }, (_v, i) => BigInt(k * 1000 + i))] });
    const files = await w.close();
    expect(files).toHaveLength(5);
    expect(files.reduce((a, f) => a + f.recordCount, 0)).toBe(5000);
  });

  it('rejects NULL in a required field with 23502 before writing', async () => {
    const io = memoryWriteIO();
    const w = new ParquetDataWriter(io, 'memory://t/data', schema, { relationName: 't' });
    const bad = columns.map((c, i) => (i === 0 ? [null, 1, 2] : c));
    await expect(w.add({ length: 3, columns: bad })).rejects.toMatchObject({ code: '23502' });
    expect(io.files.size).toBe(0);
  });

  it('checks decimal precision (22003) and maps PostgreSQL types', async () => {
    const w = new ParquetDataWriter(memoryWriteIO(), 'memory://t/data', schema);
    const big = columns.map((c, i) => (i === 4 ? [Numeric.parse('123456789.1'), null, null] : c));
    await expect(w.add({ length: 3, columns: big })).rejects.toMatchObject({ code: '22003' });
    expect(icebergTypeOf({ oid: Oid.numeric, typmod: ((10 << 16) | 2) + 4 })).toMatchObject({ name: 'decimal', precision: 10, scale: 2 });
    expect(icebergTypeOf({ oid: Oid.int2, typmod: -1 }).name).toBe('int');
    expect(icebergTypeOf({ oid: Oid.jsonb, typmod: -1 }).name).toBe('string');
    expect(() => icebergTypeOf({ oid: Oid.numeric, typmod: -1 })).toThrow(/numeric without a precision/);
    expect(() => icebergTypeOf({ oid: Oid.interval, typmod: -1 })).toThrow(/interval/);
  });

  it('serializes decimals as minimal big-endian two\'s complement and rounds truncated string bounds up', () => {
    expect([...bigIntToMinimalBE(0n)]).toEqual([0]);
    expect([...bigIntToMinimalBE(128n)]).toEqual([0, 128]);
    expect([...bigIntToMinimalBE(-1n)]).toEqual([255]);
    expect([...bigIntToMinimalBE(-129n)]).toEqual([255, 127]);
    expect(truncateStringUpper('a'.repeat(16))).toBe('a'.repeat(16));
    expect(truncateStringUpper('a'.repeat(17))).toBe('a'.repeat(15) + 'b');
  });
});

describe('ParquetDataWriter compression codec', () => {
  /** ZSTD frames start with the magic 28 B5 2F FD (RFC 8878 § 3.1.1) */
  const hasZstdFrame = (b: Uint8Array): boolean => {
    for (let i = 0; i + 3 < b.length; i++) if (b[i] === 0x28 && b[i + 1] === 0xb5 && b[i + 2] === 0x2f && b[i + 3] === 0xfd) return true;
    return false;
  };
  const text = Array.from({ length: 2000 }, (_, i) => `row ${i} ${'abcdefgh'.repeat(i % 7)}`);
  const s = parseSchema({ type: 'struct', 'schema-id': 0, fields: [{ id: 1, name: 's', required: false, type: 'string' }] });

  async function written(codec?: string): Promise<Uint8Array> {
    const io = memoryWriteIO();
    const w = new ParquetDataWriter(io, 'memory://t/data', s, codec === undefined ? {} : { compressionCodec: codec });
    await w.add({ length: text.length, columns: [text] });
    const [file] = await w.close();
    const bytes = io.files.get(file!.path)!;
    const back: unknown[] = [];
    for await (const c of readParquetColumns(bytes, file!.path, [{ fieldId: 1, type: { kind: 'primitive', name: 'string' }, missingValue: null }])) back.push(...c.columns[0]!);
    expect(back).toEqual(text);
    return bytes;
  }

  it('is snappy by default and the table property write.parquet.compression-codec otherwise', async () => {
    expect(hasZstdFrame(await written())).toBe(false);
    expect(hasZstdFrame(await written('zstd'))).toBe(true);
    expect(hasZstdFrame(await written('ZSTD'))).toBe(true);
    expect(hasZstdFrame(await written('uncompressed'))).toBe(false);
    expect((await written('uncompressed')).byteLength).toBeGreaterThan((await written()).byteLength);
  });
});
