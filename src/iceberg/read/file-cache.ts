/**
 * The decoded-column cache: Arrow data of small Parquet data files, per row group and column, so repeated
 * queries over a small table (a pgbench lookup, a dimension table in every join, a point query over many
 * small files) neither touch the store nor run the decoder again. Iceberg data files are immutable — a path
 * is written once (UUID names) and never rewritten, a new snapshot brings new paths — so entries keyed by
 * (path, file size) can never be stale; a rewritten table reads its new files, and old entries age out.
 *
 * One cache per thread (module state): the main thread's, and one per scan worker. Its bound comes from the
 * setting `lakegate.file_cache_size` (the whole process's budget; scan-source wiring gives the main thread
 * half of it and each worker a share of the other half when a pool runs). Memory is counted as the bytes of
 * the Arrow IPC buffers the cached columns live in (a buffer decoded for several columns counts once, in its
 * row group's entry). Only files up to SMALL_FILE_SHARE of the bound are cached (the files read whole by
 * parquet-source.ts); the row groups of bigger files are read as before and never enter the cache.
 */
import type { Data } from 'apache-arrow';
import { ByteLru } from './byte-lru.ts';

/** the default budget (the setting's default): 64 MiB */
export const DEFAULT_FILE_CACHE_BYTES = 64 * 1024 * 1024;
/** files up to this fraction of the bound are "small": read whole and their decoded columns cached */
const SMALL_FILE_SHARE = 1 / 16;
/** a fixed cost per cached column for the JS objects around its buffers */
const COLUMN_OVERHEAD = 512;

/** the decoded columns of one row group of one file (each column one Data per record batch) */
export interface CachedRowGroup {
  readonly batchLengths: readonly number[];
  readonly columns: ReadonlyMap<string, readonly Data[]>;
  readonly bytes: number;
}

export interface FileCacheCounters {
  /** column chunks (one column of one row group) answered from the cache */
  hits: number;
  /** column chunks looked up and decoded */
  lookups: number;
}

const lru = new ByteLru<CachedRowGroup>(DEFAULT_FILE_CACHE_BYTES);

/**
 * Keys are kept per file and row group: a key built afresh per lookup is a new string whose whole text is hashed
 * by each Map operation (a point lookup asks several times per execution); a kept one carries its hash.
 */
interface FileKeys {
  readonly size: number;
  readonly key: string;
  /** entry keys by row group */
  readonly rowGroups: string[];
}

const KEPT_FILE_KEYS = 4096;
/** by uri (the DataFile's string: its hash is computed once), then size */
const fileKeys = new Map<string, FileKeys>();
/** by file key (a kept string), for entryKey */
const byFileKey = new Map<string, FileKeys>();

function keysOf(uri: string, size: number): FileKeys {
  let k = fileKeys.get(uri);
  if (k === undefined || k.size !== size) {
    if (fileKeys.size >= KEPT_FILE_KEYS) {
      fileKeys.clear();
      byFileKey.clear();
    }
    k = { size, key: `${size}:${uri}`, rowGroups: [] };
    fileKeys.set(uri, k);
    byFileKey.set(k.key, k);
  }
  return k;
}

export const fileCacheKey = (uri: string, size: number): string => keysOf(uri, size).key;

function entryKey(fileKey: string, rg: number): string {
  const k = byFileKey.get(fileKey);
  if (k === undefined) return `${rg}#${fileKey}`;
  return (k.rowGroups[rg] ??= `${rg}#${fileKey}`);
}

/** Sets this thread's bound (bytes); entries past it go at once. 0 turns caching (and whole-file reads) off. */
export function configureFileCache(limitBytes: number): void {
  if (limitBytes !== lru.limitBytes) lru.resize(limitBytes);
}

/** whether a file of `size` bytes is read whole and cached */
export function isSmallFile(size: number): boolean {
  return size > 0 && size <= lru.limitBytes * SMALL_FILE_SHARE;
}

export function cachedRowGroup(fileKey: string, rg: number): CachedRowGroup | undefined {
  return lru.get(entryKey(fileKey, rg));
}

/**
 * Adds freshly decoded columns of a row group (held in an IPC buffer of `ipcBytes`) to its entry. Columns
 * whose batches do not line up with the entry's are not added (cannot happen with one batch size).
 */
export function addToRowGroup(fileKey: string, rg: number, batchLengths: readonly number[], fresh: ReadonlyMap<string, readonly Data[]>, ipcBytes: number): void {
  const key = entryKey(fileKey, rg);
  const old = lru.get(key);
  if (old !== undefined && !sameLengths(old.batchLengths, batchLengths)) return;
  const columns = new Map(old?.columns);
  let added = 0;
  for (const [name, data] of fresh) {
    if (columns.has(name)) continue;
    columns.set(name, data);
    added++;
  }
  if (added === 0) return;
  const bytes = (old?.bytes ?? 0) + ipcBytes + added * COLUMN_OVERHEAD;
  if (!lru.admits(bytes)) return; // the entry stays as it was (or absent)
  lru.set(key, { batchLengths, columns, bytes }, bytes);
}

/**
 * Charges `bytes` more to the cached row group `entry` (a structure built over its columns, point-index.ts).
 * False — nothing charged — when `entry` is no longer the cached one or would no longer fit.
 */
export function chargeRowGroup(fileKey: string, rg: number, entry: CachedRowGroup, bytes: number): boolean {
  const key = entryKey(fileKey, rg);
  if (lru.get(key) !== entry) return false;
  const total = entry.bytes + bytes;
  if (!lru.admits(total)) return false;
  // the same columns (and batch arrays) under a new cost; a set can still evict others, never this entry
  return lru.set(key, { batchLengths: entry.batchLengths, columns: entry.columns, bytes: total }, total);
}

function sameLengths(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}

/** what this thread's cache holds (tests, diagnostics) */
export function fileCacheStats(): { readonly bytes: number; readonly limitBytes: number; readonly entries: number; readonly evictions: number } {
  return { bytes: lru.bytes, limitBytes: lru.limitBytes, entries: lru.size, evictions: lru.evictions };
}

/** empties this thread's cache (tests) */
export function clearFileCache(): void {
  lru.clear();
}
