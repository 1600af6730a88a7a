/**
 * ParquetSplice: standalone Parquet files (parquet-wasm, several row groups each, dictionary and plain columns,
 * NULLs) spliced into one file that parquet-wasm and DuckDB read back row for row, with one footer whose row
 * groups, statistics and page indexes (every OffsetIndex page location is a real page header) point into the
 * new file; pieces of another schema are refused; the lossless Thrift codec re-encodes footers byte for byte.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromArrays, tableFromIPC, tableToIPC } from 'apache-arrow';
import { readParquet } from 'parquet-wasm';
import { describe, expect, it } from 'vitest';
import { encodeParquetIpc } from './parquet-encode.mjs';
import { ParquetSplice, parquetFooterOf } from './parquet-splice.ts';
import { TType, decodeThriftStruct, encodeThriftStruct, intField, listField, structField, type TStruct } from './thrift-compact-tree.ts';

/** rows from … from+n−1: an int, a low-cardinality string (dictionary), a nullable bigint, a double */
function piece(from: number, n: number, rowGroupRows: number): Uint8Array {
  const t = tableFromArrays({
    id: Int32Array.from({ length: n }, (_, i) => from + i),
    tag: Array.from({ length: n }, (_, i) => `tag-${(from + i) % 37}`),
    big: Array.from({ length: n }, (_, i) => ((from + i) % 9 === 0 ? null : BigInt(from + i) * 1_000_000_007n)),
    x: Float64Array.from({ length: n }, (_, i) => Math.sin(from + i)),
  });
  return encodeParquetIpc(tableToIPC(t, 'stream'), { rowGroupRows });
}

async function splice(pieces: readonly Uint8Array[]): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const s = new ParquetSplice(async (c) => {
    chunks.push(c.slice());
  });
  await Promise.all(pieces.map((p) => s.append(p)));
  const size = await s.finish();
  const out = Buffer.concat(chunks);
  expect(out.byteLength).toBe(size);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

const rowsOf = (file: Uint8Array): Record<string, unknown>[] =>
  tableFromIPC(readParquet(file).intoIPCStream()).toArray().map((r: { toJSON(): Record<string, unknown> }) => ({ ...r.toJSON() }));

/** the page header at `at` (Thrift PageHeader): its length and compressed_page_size (field 3) */
function pageHeaderAt(file: Uint8Array, at: number): { headerLen: number; compressed: number } {
  const { struct, end } = decodeThriftStruct(file.subarray(at));
  return { headerLen: end, compressed: intField(struct, 3)! };
}

describe('ParquetSplice', () => {
  const pieces = [piece(0, 2500, 1000), piece(2500, 700, 1000), piece(3200, 4100, 1500)];

  it('row groups of every piece, in order, readable by parquet-wasm', async () => {
    const file = await splice(pieces);
    const expected = pieces.flatMap(rowsOf);
    expect(expected.length).toBe(7300);
    expect(rowsOf(file)).toEqual(expected);
    const { meta } = parquetFooterOf(file);
    expect(intField(meta, 3)).toBe(7300);
    const groups = listField(meta, 4).map((g) => g.v as TStruct);
    expect(groups.map((g) => intField(g, 3))).toEqual([1000, 1000, 500, 700, 1500, 1500, 1100]);
    expect(groups.map((g) => intField(g, 7))).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('every offset points into the new file: row group, pages, page indexes', async () => {
    const file = await splice(pieces);
    const { meta, footerStart } = parquetFooterOf(file);
    let indexes = 0;
    let prevEnd = 4;
    for (const g of listField(meta, 4)) {
      const rg = g.v as TStruct;
      const chunks = listField(rg, 1).map((c) => c.v as TStruct);
      const first = structField(chunks[0]!, 3)!;
      expect(intField(rg, 5)).toBe(intField(first, 11) ?? intField(first, 9));
      for (const c of chunks) {
        const md = structField(c, 3)!;
        const start = intField(md, 11) ?? intField(md, 9)!;
        // column chunks follow each other: the file holds no gaps and no overlap
        expect(start).toBe(prevEnd);
        prevEnd = start + intField(md, 7)!;
        expect(prevEnd).toBeLessThan(footerStart);
        // the OffsetIndex lists every data page: each location holds a page header of that size
        const oiAt = intField(c, 4)!;
        const oi = decodeThriftStruct(file.subarray(oiAt, oiAt + intField(c, 5)!)).struct;
        const locs = listField(oi, 1).map((l) => l.v as TStruct);
        expect(locs.length).toBeGreaterThan(0);
        expect(intField(locs[0]!, 1)).toBe(intField(md, 9));
        for (const l of locs) {
          const h = pageHeaderAt(file, intField(l, 1)!);
          expect(h.headerLen + h.compressed).toBe(intField(l, 2));
        }
        const ciAt = intField(c, 6)!;
        expect(ciAt).toBeGreaterThanOrEqual(prevEnd);
        expect(ciAt + intField(c, 7)!).toBeLessThanOrEqual(footerStart);
        indexes++;
      }
    }
    expect(indexes).toBe(7 * 4);
  });

  it('DuckDB reads the spliced file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'splice-'));
    try {
      const path = join(dir, 'f.parquet');
      writeFileSync(path, await splice(pieces));
      const db = await DuckDBInstance.create(':memory:', { threads: '1' });
      const c = await db.connect();
      const r = await c.runAndReadAll(`SELECT count(*)::INT, sum(id)::BIGINT, count(big)::INT, count(DISTINCT tag)::INT, max(id)::INT FROM read_parquet('${path}')`);
      expect(r.getRows()[0]).toEqual([7300, 26_641_350n, 7300 - 812, 37, 7299]);
      const g = await c.runAndReadAll(`SELECT count(*)::INT FROM parquet_metadata('${path}') WHERE column_id = 0`);
      expect(g.getRows()[0]).toEqual([7]);
      c.closeSync();
      db.closeSync();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('refuses a piece of another schema, and finish() reports it', async () => {
    const s = new ParquetSplice(async () => undefined);
    await s.append(pieces[0]!);
    const other = encodeParquetIpc(tableToIPC(tableFromArrays({ id: Int32Array.of(1, 2) }), 'stream'), { rowGroupRows: 10 });
    await expect(s.append(other)).rejects.toThrow(/different schemas/);
    await expect(s.finish()).rejects.toThrow(/different schemas/);
    await expect(new ParquetSplice(async () => undefined).append(new Uint8Array(20))).rejects.toThrow(/not a Parquet file/);
  });
});

describe('thrift-compact-tree', () => {
  it('re-encodes a parquet-wasm footer byte for byte', () => {
    const p = pieces0();
    const n = p.byteLength;
    const len = new DataView(p.buffer, p.byteOffset + n - 8, 4).getUint32(0, true);
    const raw = p.subarray(n - 8 - len, n - 8);
    const { struct, end } = decodeThriftStruct(raw);
    expect(end).toBe(len);
    expect(Buffer.from(encodeThriftStruct(struct)).equals(Buffer.from(raw))).toBe(true);
  });

  it('field id jumps, negative numbers, bools, long lists, maps, doubles and i64 extremes survive', () => {
    const s: TStruct = new Map([
      [1, { t: TType.BOOL_TRUE, v: true }],
      [2, { t: TType.BOOL_FALSE, v: false }],
      [40, { t: TType.I32, v: -123456 }],
      [41, { t: TType.I16, v: -1 }],
      [300, { t: TType.I64, v: -(2n ** 63n) }],
      [301, { t: TType.I64, v: 2n ** 63n - 1n }],
      [302, { t: TType.DOUBLE, v: -0.5 }],
      [303, { t: TType.BYTE, v: -7 }],
      [304, { t: TType.LIST, et: TType.BOOL_TRUE, v: Array.from({ length: 20 }, (_, i) => ({ t: TType.BOOL_TRUE, v: i % 3 === 0 })) }],
      [305, { t: TType.MAP, kt: TType.BINARY, vt: TType.I32, v: [[{ t: TType.BINARY, v: new Uint8Array([1, 2]) }, { t: TType.I32, v: 9 }]] }],
      [306, { t: TType.STRUCT, v: new Map([[3, { t: TType.BINARY, v: new TextEncoder().encode('x') }]]) }],
    ]);
    const bytes = encodeThriftStruct(s);
    const back = decodeThriftStruct(bytes).struct;
    expect(back).toEqual(s);
    expect(Buffer.from(encodeThriftStruct(back)).equals(Buffer.from(bytes))).toBe(true);
  });
});

function pieces0(): Uint8Array {
  return piece(0, 3000, 1000);
}
