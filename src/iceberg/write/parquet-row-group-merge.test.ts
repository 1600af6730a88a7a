/**
 * mergeRowGroups: parquet-wasm pieces (required and nullable columns, dictionaries that differ per piece, a piece
 * whose string column is PLAIN, a piece whose column is all NULL, several row groups in one piece) become one
 * row group that parquet-wasm and DuckDB read back row for row, with statistics and page indexes that describe
 * the merged pages; pieces of a column in different codecs merge uncompressed; refused inputs (another codec) return null.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DateDay, Decimal, Field, Float64, Int32, Int64, List, RecordBatch, Schema, Struct, Table, Utf8, makeData, tableFromArrays, tableFromIPC, tableToIPC, vectorFromArray } from 'apache-arrow';
import { readParquet } from 'parquet-wasm';
import { describe, expect, it } from 'vitest';
import { encodeParquetIpc } from './parquet-encode.mjs';
import { mergeRowGroups } from './parquet-row-group-merge.ts';
import { ParquetSplice, parquetFooterOf } from './parquet-splice.ts';
import { remapDictionaryIndices } from './rle-hybrid-remap.ts';
import { decodeThriftStruct, intField, listField, structField, type TStruct } from './thrift-compact-tree.ts';

const schema = new Schema([
  new Field('id', new Int32(), false),
  new Field('tag', new Utf8(), true),
  new Field('big', new Int64(), true),
  new Field('x', new Float64(), true),
  new Field('d', new DateDay(), true),
  new Field('price', new Decimal(2, 15, 128), true),
]);

interface PieceOptions {
  readonly rowGroupRows?: number;
  readonly noDictionary?: string[];
  /** `big` is NULL in every row */
  readonly bigAllNull?: boolean;
}

/** rows from … from+n−1 of the test table; each piece's tags start elsewhere, so its dictionary's order differs */
function piece(from: number, n: number, o: PieceOptions = {}): Uint8Array {
  const ids = Int32Array.from({ length: n }, (_, i) => from + i);
  const tags = Array.from({ length: n }, (_, i) => ((from + i) % 13 === 0 ? null : `tag-${(from * 7 + i * 3) % 41}`));
  const bigs = Array.from({ length: n }, (_, i) => (o.bigAllNull === true || (from + i) % 9 === 0 ? null : BigInt((from + i) % 500) * 1_000_000_007n - 7n));
  const xs = Array.from({ length: n }, (_, i) => ((from + i) % 17 === 0 ? null : Math.round(Math.sin(from + i) * 1000) / 8));
  const ds = Array.from({ length: n }, (_, i) => (from + i) % 60 - 20);
  const words = new Uint32Array(n * 4);
  for (let i = 0; i < n; i++) {
    const cents = BigInt.asUintN(128, BigInt(((from + i) % 311) * 97 - 9000));
    for (let w = 0; w < 4; w++) words[i * 4 + w] = Number((cents >> BigInt(32 * w)) & 0xffffffffn);
  }
  const children = [
    makeData({ type: new Int32(), length: n, nullCount: 0, data: ids }),
    vectorFromArray(tags, new Utf8()).data[0]!,
    vectorFromArray(bigs, new Int64()).data[0]!,
    vectorFromArray(xs, new Float64()).data[0]!,
    makeData({ type: new DateDay(), length: n, nullCount: 0, data: Int32Array.from(ds) }),
    makeData({ type: new Decimal(2, 15, 128), length: n, nullCount: 0, data: words }),
  ];
  const batch = new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: n, nullCount: 0, children }));
  return encodeParquetIpc(tableToIPC(new Table(schema, [batch]), 'stream'), { rowGroupRows: o.rowGroupRows ?? 1 << 20, noDictionary: o.noDictionary ?? [] });
}

const rowsOf = (file: Uint8Array): Record<string, unknown>[] =>
  tableFromIPC(readParquet(file).intoIPCStream()).toArray().map((r: { toJSON(): Record<string, unknown> }) => ({ ...r.toJSON() }));

const groupsOf = (file: Uint8Array): TStruct[] => listField(parquetFooterOf(file).meta, 4).map((g) => g.v as TStruct);

async function duck<T>(files: Record<string, Uint8Array>, run: (c: Awaited<ReturnType<DuckDBInstance['connect']>>, path: (name: string) => string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'rg-merge-'));
  try {
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
    const db = await DuckDBInstance.create(':memory:', { threads: '1' });
    const c = await db.connect();
    try {
      return await run(c, (name) => join(dir, name));
    } finally {
      c.closeSync();
      db.closeSync();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('mergeRowGroups', () => {
  const pieces = [
    piece(0, 2000),
    piece(2000, 700, { noDictionary: ['tag', 'id'] }),
    piece(2700, 3100, { rowGroupRows: 1200 }),
    piece(5800, 900, { bigAllNull: true }),
  ];
  const merged = mergeRowGroups(pieces)!;

  it('one row group with every row, in order, readable by parquet-wasm', () => {
    expect(merged).not.toBeNull();
    const groups = groupsOf(merged);
    expect(groups.map((g) => intField(g, 3))).toEqual([6700]);
    expect(intField(parquetFooterOf(merged).meta, 3)).toBe(6700);
    expect(rowsOf(merged)).toEqual(pieces.flatMap(rowsOf));
  });

  it('dictionaries are folded: each value once, smaller than the pieces side by side', () => {
    const md = structField(listField(groupsOf(merged)[0]!, 1).map((c) => c.v as TStruct)[1]!, 3)!;
    const dictAt = intField(md, 11)!;
    const { struct } = decodeThriftStruct(merged.subarray(dictAt));
    // 41 distinct tags across all pieces
    expect(intField(structField(struct, 7)!, 1)).toBe(41);
    expect(merged.byteLength).toBeLessThan(pieces.reduce((s, p) => s + p.byteLength, 0));
  });

  it('statistics and page indexes describe the merged pages; DuckDB reads the file and agrees', async () => {
    const g = groupsOf(merged)[0]!;
    const { footerStart } = parquetFooterOf(merged);
    let prevEnd = 4;
    for (const node of listField(g, 1)) {
      const c = node.v as TStruct;
      const md = structField(c, 3)!;
      const start = intField(md, 11) ?? intField(md, 9)!;
      expect(start).toBe(prevEnd);
      prevEnd = start + intField(md, 7)!;
      const oiAt = intField(c, 4)!;
      const locs = listField(decodeThriftStruct(merged.subarray(oiAt, oiAt + intField(c, 5)!)).struct, 1).map((l) => l.v as TStruct);
      expect(intField(locs[0]!, 1)).toBe(intField(md, 9));
      expect(intField(locs[0]!, 3)).toBe(0);
      for (const l of locs) {
        const { struct, end } = decodeThriftStruct(merged.subarray(intField(l, 1)!));
        expect(end + intField(struct, 3)!).toBe(intField(l, 2));
      }
      expect(intField(c, 6)! + intField(c, 7)!).toBeLessThanOrEqual(footerStart);
    }
    const want = await duck({ 'p0.parquet': pieces[0]!, 'p1.parquet': pieces[1]!, 'p2.parquet': pieces[2]!, 'p3.parquet': pieces[3]! }, (c, path) =>
      c.runAndReadAll(`SELECT count(*)::INT, sum(id)::BIGINT, count(tag)::INT, count(DISTINCT tag)::INT, min(tag), max(tag), sum(big)::VARCHAR, min(big)::VARCHAR, max(big)::VARCHAR, sum(x), min(d)::VARCHAR, max(d)::VARCHAR, sum(price)::VARCHAR, min(price)::VARCHAR, max(price)::VARCHAR FROM read_parquet(['${path('p0.parquet')}', '${path('p1.parquet')}', '${path('p2.parquet')}', '${path('p3.parquet')}'])`).then((r) => r.getRows()[0]));
    await duck({ 'm.parquet': merged }, async (c, path) => {
      const r = await c.runAndReadAll(`SELECT count(*)::INT, sum(id)::BIGINT, count(tag)::INT, count(DISTINCT tag)::INT, min(tag), max(tag), sum(big)::VARCHAR, min(big)::VARCHAR, max(big)::VARCHAR, sum(x), min(d)::VARCHAR, max(d)::VARCHAR, sum(price)::VARCHAR, min(price)::VARCHAR, max(price)::VARCHAR FROM read_parquet('${path('m.parquet')}')`);
      expect(r.getRows()[0]).toEqual(want);
      // footer statistics equal the data's bounds
      const s = await c.runAndReadAll(`SELECT path_in_schema, stats_min_value, stats_max_value, stats_null_count::INT FROM parquet_metadata('${path('m.parquet')}') ORDER BY column_id`);
      const stats = Object.fromEntries(s.getRows().map((row) => [String(row[0]), row.slice(1)]));
      expect(stats.id).toEqual(['0', '6699', 0]);
      expect(stats.tag?.[0]).toBe(want![4]);
      expect(stats.tag?.[1]).toBe(want![5]);
      expect(stats.big).toEqual([want![7], want![8], 900 + Math.ceil(5800 / 9)]);
      expect(stats.d).toEqual([want![10], want![11], 0]);
      expect(stats.price).toEqual([want![13], want![14], 0]);
      // DuckDB prunes on them
      const z = await c.runAndReadAll(`SELECT count(*)::INT FROM read_parquet('${path('m.parquet')}') WHERE id BETWEEN 2100 AND 2199 AND tag IS NOT NULL`);
      expect(z.getRows()[0]).toEqual([pieces.flatMap(rowsOf).filter((r) => (r.id as number) >= 2100 && (r.id as number) <= 2199 && r.tag !== null).length]);
    });
  }, 60_000);

  it('merged files splice into one multi-row-group file', async () => {
    const second = mergeRowGroups([piece(6700, 1500), piece(8200, 1800)])!;
    const chunks: Uint8Array[] = [];
    const s = new ParquetSplice(async (c) => {
      chunks.push(c.slice());
    });
    await s.append(merged);
    await s.append(second);
    await s.finish();
    const file = new Uint8Array(Buffer.concat(chunks));
    expect(groupsOf(file).map((g) => intField(g, 3))).toEqual([6700, 3300]);
    expect(rowsOf(file)).toEqual([...rowsOf(merged), ...rowsOf(second)]);
    await duck({ 'f.parquet': file }, async (c, path) => {
      const r = await c.runAndReadAll(`SELECT count(*)::INT, count(DISTINCT tag)::INT, max(id)::INT FROM read_parquet('${path('f.parquet')}')`);
      expect(r.getRows()[0]).toEqual([10000, 41, 9999]);
    });
  }, 60_000);

  it('pieces of one column in different codecs (snappy and uncompressed) merge into an uncompressed chunk', async () => {
    const snappy = piece(0, 3000);
    const ipc = tableToIPC(tableFromIPC(readParquet(piece(3000, 2000)).intoIPCStream()), 'stream');
    const plain = encodeParquetIpc(ipc, { rowGroupRows: 1 << 20, compressionCodec: 'uncompressed' });
    const merged = mergeRowGroups([snappy, plain, snappy]);
    expect(merged).not.toBeNull();
    expect(groupsOf(merged!)).toHaveLength(1);
    expect(rowsOf(merged!)).toEqual([...rowsOf(snappy), ...rowsOf(plain), ...rowsOf(snappy)]);
    const codecs = listField(groupsOf(merged!)[0]!, 1).map((cc) => intField(structField(cc.v as TStruct, 3)!, 4));
    expect(codecs).toEqual(schema.fields.map(() => 0));
    // pieces that agree keep their codec
    const same = mergeRowGroups([snappy, snappy])!;
    expect(listField(groupsOf(same)[0]!, 1).map((cc) => intField(structField(cc.v as TStruct, 3)!, 4))).toEqual(schema.fields.map(() => 1));
    await duck({ 'm.parquet': merged! }, async (c, path) => {
      const r = await c.runAndReadAll(`SELECT count(*)::INT, count(DISTINCT tag)::INT, sum(id)::BIGINT FROM read_parquet('${path('m.parquet')}')`);
      expect(r.getRows()[0]).toEqual([8000, 41, BigInt(2 * (2999 * 3000) / 2 + (3000 + 4999) * 2000 / 2)]);
    });
  }, 60_000);

  it('a single piece of one row group comes back as it is; another codec is refused', () => {
    const one = piece(0, 100);
    expect(rowsOf(mergeRowGroups([one])!)).toEqual(rowsOf(one));
    const t = tableToIPC(tableFromArrays({ id: Int32Array.of(1, 2, 3), tag: ['a', 'b', 'a'] }), 'stream');
    const zstd = encodeParquetIpc(t, { rowGroupRows: 1000, compressionCodec: 'zstd' });
    expect(mergeRowGroups([zstd, zstd])).toBeNull();
    // a list column (repetition levels): refused, the caller keeps the pieces as row groups
    const nested = tableToIPC(new Table({ xs: vectorFromArray([[1, 2], [3], []], new List(new Field('item', new Int32(), true))) }), 'stream');
    const n = encodeParquetIpc(nested, { rowGroupRows: 1000 });
    expect(mergeRowGroups([n, n])).toBeNull();
  });
});

describe('merged dictionary page size', () => {
  /** one string column of `n` distinct 60-byte values starting at `from` (a dictionary of ≈ 64 bytes per value) */
  const wide = (from: number, n: number): Uint8Array => {
    const s = Array.from({ length: n }, (_, i) => `value-${String(from + i).padStart(8, '0')}-${'x'.repeat(46)}`);
    return encodeParquetIpc(tableToIPC(tableFromArrays({ s }), 'stream'), { rowGroupRows: 1 << 20 });
  };
  const dictionaryBytes = (file: Uint8Array): number => {
    const { meta } = parquetFooterOf(file);
    const cc = (listField(meta, 4)[0] as { v: TStruct }).v;
    const md = structField((listField(cc, 1)[0] as { v: TStruct }).v, 3)!;
    const at = intField(md, 11);
    if (at === undefined) return 0;
    const { struct } = decodeThriftStruct(file.subarray(at));
    return intField(struct, 2) ?? 0;
  };

  it('stays within the 1 MiB dictionary page limit: pieces whose dictionaries would not fit are not merged', () => {
    const a = wide(0, 10_000);
    const b = wide(10_000, 10_000);
    // each piece is dictionary-encoded (≈ 640 kB), both together would need ≈ 1.3 MB
    expect(dictionaryBytes(a)).toBeGreaterThan(600_000);
    expect(dictionaryBytes(a)).toBeLessThanOrEqual(1 << 20);
    expect(mergeRowGroups([a, b])).toBeNull();
    // the same values twice fit: merged, one dictionary of 10,000 values
    const same = mergeRowGroups([a, wide(0, 10_000)]);
    expect(same).not.toBeNull();
    expect(dictionaryBytes(same!)).toBe(dictionaryBytes(a));
    expect(rowsOf(same!)).toHaveLength(20_000);
  });
});

describe('remapDictionaryIndices', () => {
  it('renumbers RLE and bit-packed runs at a new width', () => {
    // bit width 2; RLE run of 5 × index 3; bit-packed 1 group: 0 1 2 3 0 1 2 3
    const src = new Uint8Array([2, 5 << 1, 3, (1 << 1) | 1, 0b11100100, 0b11100100]);
    const map = Int32Array.of(10, 11, 12, 13);
    const out = remapDictionaryIndices(src, map, 4);
    expect([...out]).toEqual([4, 5 << 1, 13, (1 << 1) | 1, 0xba, 0xdc, 0xba, 0xdc]);
  });
});
