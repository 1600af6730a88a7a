/**
 * `lakegate.file_cache_size`: the memory the process may hold in decoded columns of small data files
 * (file-cache.ts), in kB like work_mem; 0 turns the cache — the whole-file reads of small files and the
 * manifest cache (scan/manifest-cache.ts) with it — off.
 * A server setting (postmaster context: config `settings:`), since the cache is shared by every session of
 * the process; the environment variable LAKEGATE_FILE_CACHE_SIZE (kB) changes the default (A/B runs).
 * Split: with a scan worker pool, the main thread holds half and the workers share the other half.
 */
import type { SessionView } from '../../catalog/session-view.ts';
import { envSetting } from '../../common/env-settings.ts';
import { configureFileCache, DEFAULT_FILE_CACHE_BYTES } from './file-cache.ts';
import { setManifestCacheEnabled } from '../scan/manifest-cache.ts';

export const FILE_CACHE_SIZE_SETTING = 'lakegate.file_cache_size';

/** the default in kB: LAKEGATE_FILE_CACHE_SIZE when it is a non-negative integer, else 64 MiB */
export function defaultFileCacheKb(): number {
  const env = envSetting('LAKEGATE_FILE_CACHE_SIZE')?.trim();
  return env !== undefined && /^\d+$/.test(env) ? Number(env) : DEFAULT_FILE_CACHE_BYTES / 1024;
}

/** the process budget in bytes, from the session's setting (stored in kB) or the default */
export function fileCacheBytes(session: Pick<SessionView, 'getSetting'> | undefined): number {
  const v = session?.getSetting(FILE_CACHE_SIZE_SETTING, true);
  // the same text as last time (every lookup asks): the same budget, no regular expression
  if (v === lastText && v !== undefined && v !== null) return lastBytes;
  const kb = v !== undefined && v !== null && /^\d+$/.test(v.trim()) ? Number(v.trim()) : defaultFileCacheKb();
  if (v !== undefined && v !== null) {
    lastText = v;
    lastBytes = kb * 1024;
  }
  return kb * 1024;
}

/** the last setting text fileCacheBytes read, and its budget */
let lastText: string | null = null;
let lastBytes = 0;

/** the share of the budget one thread holds: the main thread (`workers` = the pool's size, 0 without one) or a worker */
export function threadShare(budget: number, workers: number, thread: 'main' | 'worker'): number {
  if (workers <= 0) return thread === 'main' ? budget : 0;
  return thread === 'main' ? Math.floor(budget / 2) : Math.floor(budget / (2 * workers));
}

/** applies the session's budget to the main thread's cache (cheap when unchanged) */
export function applyFileCacheSetting(session: Pick<SessionView, 'getSetting'> | undefined, workers: number): number {
  const budget = fileCacheBytes(session);
  configureFileCache(threadShare(budget, workers, 'main'));
  setManifestCacheEnabled(budget > 0);
  return budget;
}
