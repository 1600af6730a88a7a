/**
 * The decoded-column cache (file-cache.ts) through readParquetColumns: a repeated read of a small file's
 * columns touches no I/O and decodes nothing (counters), partially cached row groups decode only the missing
 * columns, another file of the same path but another size is another entry, the byte bound holds under
 * pressure (least recently used row groups go), answers are the same with the cache off, and ByteLru itself.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ParquetDataWriter } from '../write/parquet-data-writer.ts';
import { parseSchema } from '../spec/schema.ts';
import type { IcebergWriteIO } from '../write/write-io.ts';
import { emptyScanMetrics, type ScanMetrics } from '../../catalog/table-source.ts';
import { readParquetColumns, type ParquetColumnRequest } from './parquet-reader.ts';
import { ByteLru } from './byte-lru.ts';
import { clearFileCache, configureFileCache, DEFAULT_FILE_CACHE_BYTES, fileCacheStats, isSmallFile } from './file-cache.ts';
import { threadShare } from './file-cache-setting.ts';
import { memoryWriteIO } from '../write/testing/memory-write-io.ts';

const countingIO = memoryWriteIO;

const schema = parseSchema({
  type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'id', required: true, type: 'int' },
    { id: 2, name: 'v', required: false, type: 'string' },
    { id: 3, name: 'x', required: false, type: 'long' },
  ],
});
const req = (ids: number[]): ParquetColumnRequest[] => ids.map((id) => ({ fieldId: id, type: schema.fields[id - 1]!.type, missingValue: null }));

async function writeFile(io: IcebergWriteIO, n: number, seed = 0, rowGroupRows = 100_000) {
  const w = new ParquetDataWriter(io, 'mem://fc/data', schema, { rowGroupRows });
  await w.add({ length: n, columns: [
    Array.from({ length: n }, (_v, k) => k + seed),
    Array.from({ length: n }, (_v, k) => (k % 9 === 0 ? null : `v${k + seed}-${'y'.repeat(k % 13)}`)),
    Array.from({ length: n }, (_v, k) => BigInt(k) * 7n + BigInt(seed)),
  ] });
  const [file] = await w.close();
  return { path: file!.path, size: file!.fileSizeInBytes };
}

async function rows(io: IcebergWriteIO, f: { path: string; size: number }, ids: number[], m?: ScanMetrics): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const c of readParquetColumns({ io, size: f.size }, f.path, req(ids), m === undefined ? {} : { metrics: m })) {
    for (let r = 0; r < c.length; r++) out.push(c.columns.map((col) => col[r]));
  }
  return out;
}

afterEach(() => {
  configureFileCache(DEFAULT_FILE_CACHE_BYTES);
  clearFileCache();
});

describe('decoded-column cache', () => {
  it('answers a repeated read of a small file from memory, with the same rows', async () => {
    const io = countingIO();
    const f = await writeFile(io, 60_000, 0, 25_000);
    expect(f.size).toBeGreaterThan(256 * 1024); // not tiny: columns are fetched and decoded one set at a time
    expect(isSmallFile(f.size)).toBe(true);
    const m1 = emptyScanMetrics();
    const first = await rows(io, f, [1, 2], m1);
    expect(first).toHaveLength(60_000);
    expect(m1).toMatchObject({ fileCacheLookups: 6, fileCacheHits: 0 }); // 3 row groups × 2 columns
    const before = io.reads;
    const m2 = emptyScanMetrics();
    expect(await rows(io, f, [1, 2], m2)).toEqual(first);
    expect(m2).toMatchObject({ fileCacheLookups: 6, fileCacheHits: 6, bytesRead: 0 });
    expect(io.reads).toBe(before); // no I/O at all (footer cached too)
    // another column: only that one is decoded, the cached ones are reused
    const m3 = emptyScanMetrics();
    const three = await rows(io, f, [3, 1], m3);
    expect(m3).toMatchObject({ fileCacheLookups: 6, fileCacheHits: 3 });
    expect(three.map((r) => r[1])).toEqual(first.map((r) => r[0]));
    expect(three[12_345]![0]).toBe(12_345n * 7n);
  });

  it('decodes a tiny file whole in one call and caches every column', async () => {
    const io = countingIO();
    const f = await writeFile(io, 1000);
    expect(f.size).toBeLessThan(64 * 1024);
    const m1 = emptyScanMetrics();
    const one = await rows(io, f, [2], m1);
    expect(m1).toMatchObject({ fileCacheLookups: 1, fileCacheHits: 0 });
    const before = io.reads;
    const m2 = emptyScanMetrics();
    const all = await rows(io, f, [3, 2, 1], m2);
    expect(m2).toMatchObject({ fileCacheLookups: 3, fileCacheHits: 3, bytesRead: 0 });
    expect(io.reads).toBe(before);
    expect(all.map((r) => r[1])).toEqual(one.map((r) => r[0]));
    expect(all[998]).toEqual([998n * 7n, 'v998-' + 'y'.repeat(998 % 13), 998]);
  });

  it('decodes a file of 64–256 KiB whole only when at least half of its columns are asked', async () => {
    const io = countingIO();
    let n = 4000;
    let f = await writeFile(io, n);
    while (f.size <= 64 * 1024) f = await writeFile(io, (n *= 2));
    expect(f.size).toBeLessThan(256 * 1024);
    // one column of three: only it is decoded (and cached)
    const m1 = emptyScanMetrics();
    const one = await rows(io, f, [2], m1);
    expect(m1).toMatchObject({ fileCacheLookups: 1, fileCacheHits: 0 });
    const m2 = emptyScanMetrics();
    await rows(io, f, [3], m2);
    expect(m2).toMatchObject({ fileCacheLookups: 1, fileCacheHits: 0 });
    // two of three: the whole file, so the third column is cached too
    clearFileCache();
    await rows(io, f, [1, 3]);
    const m3 = emptyScanMetrics();
    const again = await rows(io, f, [2], m3);
    expect(m3).toMatchObject({ fileCacheLookups: 1, fileCacheHits: 1 });
    expect(again).toEqual(one);
  });

  it('keys by path and size: another file is read, not served from an entry of the first', async () => {
    const io = countingIO();
    const a = await writeFile(io, 1000, 0);
    const b = await writeFile(io, 1000, 500_000);
    const ra = await rows(io, a, [1, 2, 3]);
    const rb = await rows(io, b, [1, 2, 3]);
    expect(rb[0]).toEqual([500_000, null, 500_000n]);
    expect(ra[0]).toEqual([0, null, 0n]);
    expect(await rows(io, a, [1, 2, 3])).toEqual(ra);
  });

  it('holds at most its bound: least recently used row groups go, answers stay right', async () => {
    const io = countingIO();
    const files = [];
    for (let i = 0; i < 16; i++) files.push(await writeFile(io, 3000, i * 10_000));
    // small files are those up to 1/16 of the bound (the writer's output size varies with its encodings)
    const limit = Math.max(1024 * 1024, 16 * Math.max(...files.map((f) => f.size)));
    configureFileCache(limit);
    for (const f of files) if (!isSmallFile(f.size)) throw new Error(`test file of ${f.size} bytes is not small under ${limit}`);
    for (let round = 0; round < 2; round++) {
      for (const [i, f] of files.entries()) {
        const got = await rows(io, f, [1, 2, 3]);
        expect(got[2999]![0]).toBe(i * 10_000 + 2999);
        expect(fileCacheStats().bytes).toBeLessThanOrEqual(limit);
      }
    }
    expect(fileCacheStats().evictions).toBeGreaterThan(0);
    expect(fileCacheStats().entries).toBeGreaterThan(0);
    // shrinking drops entries at once
    configureFileCache(limit / 4);
    expect(fileCacheStats().bytes).toBeLessThanOrEqual(limit / 4);
  });

  it('is off at 0: no whole-file reads, no lookups, same rows', async () => {
    const io = countingIO();
    const f = await writeFile(io, 3000);
    const on = await rows(io, f, [2, 3]);
    configureFileCache(0);
    expect(isSmallFile(f.size)).toBe(false);
    const m = emptyScanMetrics();
    expect(await rows(io, f, [2, 3], m)).toEqual(on);
    expect(m.fileCacheLookups ?? 0).toBe(0);
    expect(fileCacheStats().entries).toBe(0);
  });

  it('splits the process budget between the main thread and the workers', () => {
    expect(threadShare(64, 0, 'main')).toBe(64);
    expect(threadShare(64, 0, 'worker')).toBe(0);
    expect(threadShare(64, 2, 'main')).toBe(32);
    expect(threadShare(64, 2, 'worker')).toBe(16);
  });
});

describe('ByteLru', () => {
  it('evicts least recently used entries past its bound and refuses entries over a quarter of it', () => {
    const lru = new ByteLru<string>(100);
    expect(lru.set('a', 'A', 20)).toBe(true);
    expect(lru.set('b', 'B', 20)).toBe(true);
    expect(lru.set('c', 'C', 20)).toBe(true);
    expect(lru.set('d', 'D', 20)).toBe(true);
    expect(lru.get('a')).toBe('A'); // a is now the most recent
    expect(lru.set('e', 'E', 25)).toBe(true);
    expect(lru.bytes).toBeLessThanOrEqual(100);
    expect(lru.has('b')).toBe(false); // the least recently used went
    expect(lru.has('a')).toBe(true);
    expect(lru.set('big', 'X', 26)).toBe(false);
    expect(lru.has('big')).toBe(false);
    lru.set('a', 'A2', 10); // replacing adjusts the count
    expect(lru.get('a')).toBe('A2');
    expect(lru.bytes).toBe(10 + 20 + 20 + 25);
    lru.resize(40);
    expect(lru.bytes).toBeLessThanOrEqual(40);
    lru.clear();
    expect(lru.bytes).toBe(0);
    expect(lru.size).toBe(0);
  });

  it('keeps recency right when the newest entry is read again, deleted or replaced', () => {
    const lru = new ByteLru<string>(100);
    lru.set('a', 'A', 25);
    lru.set('b', 'B', 25);
    for (let i = 0; i < 3; i++) expect(lru.get('b')).toBe('B'); // the newest: read without a move
    expect(lru.get('a')).toBe('A'); // a moves past b
    lru.set('c', 'C', 25);
    lru.set('d', 'D', 25);
    lru.set('e', 'E', 25); // b is the least recently used now
    expect(lru.has('b')).toBe(false);
    expect(lru.has('a')).toBe(true);
    lru.delete('e'); // the newest goes: a read of c moves c past d
    expect(lru.get('c')).toBe('C');
    lru.set('f', 'F', 25);
    lru.set('g', 'G', 25); // a goes; d stays, older than c
    expect(['a', 'c', 'd', 'f', 'g'].filter((k) => lru.has(k))).toEqual(['c', 'd', 'f', 'g']);
    lru.set('i', 'I', 25); // then d
    expect(lru.has('d')).toBe(false);
    lru.clear();
    lru.set('h', 'H', 25);
    expect(lru.get('h')).toBe('H');
  });
});
