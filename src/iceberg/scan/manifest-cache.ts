/**
 * Parsed manifest lists and manifests, per process. Both are immutable once written (UUID paths; a commit
 * writes new ones and a new metadata file pointing at them), so a snapshot's plan after the first reads no
 * Avro at all — a parameterised lookup plans again for every new literal and used to decode the same two
 * Avro files each time. New snapshots name new paths and are read on first use: metadata refresh and
 * read-your-writes are unaffected. A manifest's parsed entries also depend on what it inherits from its
 * manifest list entry (sequence numbers, snapshot id, first row id), which is part of the key.
 *
 * Bounded by an estimate of the parsed objects' size (MANIFEST_CACHE_BYTES); deleted entries
 * (includeDeleted, metadata tables and commits) are never cached.
 */
import type { IcebergIO } from '../io.ts';
import { ByteLru } from '../read/byte-lru.ts';
import { readManifestList, type ManifestFile } from '../spec/manifest-list.ts';
import { readManifest, type ParsedManifest } from '../spec/manifest.ts';

/** the bound of the estimate below */
export const MANIFEST_CACHE_BYTES = 32 * 1024 * 1024;
/** estimated bytes of one parsed manifest list entry / data file entry (maps of column stats included) */
const LIST_ENTRY_BYTES = 512;
const FILE_ENTRY_BYTES = 2048;

const lru = new ByteLru<ManifestFile[] | ParsedManifest>(MANIFEST_CACHE_BYTES);

export interface ManifestCacheCounters {
  manifestCacheLookups: number;
  manifestCacheHits: number;
}

let enabled = true;

/** `lakegate.file_cache_size = 0` turns this cache off too (read/file-cache-setting.ts) */
export function setManifestCacheEnabled(on: boolean): void {
  if (!on && enabled) lru.clear();
  enabled = on;
}

/** memory:// stores are per test and reuse paths: their files are not cached */
const cacheable = (uri: string): boolean => enabled && !/^memory:/i.test(uri);

export async function cachedManifestList(io: IcebergIO, uri: string, counters?: ManifestCacheCounters): Promise<ManifestFile[]> {
  if (!cacheable(uri)) return readManifestList(io, uri);
  const key = `L|${uri}`;
  if (counters) counters.manifestCacheLookups++;
  const hit = lru.get(key) as ManifestFile[] | undefined;
  if (hit !== undefined) {
    if (counters) counters.manifestCacheHits++;
    return [...hit];
  }
  const list = await readManifestList(io, uri);
  lru.set(key, [...list], 256 + list.length * LIST_ENTRY_BYTES);
  return list;
}

/** readManifest(io, mf) (live and existing entries only), cached */
export async function cachedManifest(io: IcebergIO, mf: ManifestFile, counters?: ManifestCacheCounters): Promise<ParsedManifest> {
  if (!cacheable(mf.manifestPath)) return readManifest(io, mf);
  const key = `M|${mf.manifestPath}|${mf.manifestLength}|${mf.sequenceNumber}|${mf.minSequenceNumber}|${mf.addedSnapshotId}|${mf.firstRowId}|${mf.partitionSpecId}|${mf.content}`;
  if (counters) counters.manifestCacheLookups++;
  const hit = lru.get(key) as ParsedManifest | undefined;
  if (hit !== undefined) {
    if (counters) counters.manifestCacheHits++;
    return hit;
  }
  const parsed = await readManifest(io, mf);
  lru.set(key, parsed, 1024 + parsed.entries.length * FILE_ENTRY_BYTES);
  return parsed;
}

/** what the cache holds (tests) */
export function manifestCacheStats(): { readonly bytes: number; readonly entries: number } {
  return { bytes: lru.bytes, entries: lru.size };
}

export function clearManifestCache(): void {
  lru.clear();
}
