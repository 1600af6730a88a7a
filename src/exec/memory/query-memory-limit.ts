/**
 * The `lakegate.query_memory_limit` setting: how much memory (estimated, see size-estimate.ts) one query's
 * blocking operators may hold, in kB like work_mem. Its default and the server-wide cap come from the memory
 * this process can really use: the smaller of the machine's RAM and V8's heap limit (operators keep their state
 * on the JS heap, so the heap limit is what an out-of-memory crash hits first).
 *
 * Choice of default: half of that memory is for query state of all queries together (SERVER_QUERY_MEMORY_BYTES,
 * the other half is for scans' decode buffers, the wire, garbage not yet collected and estimate errors), and one
 * query may take half of that share (a quarter of the usable memory), so two large queries can run side by
 * side; a third one that finds the server share used up fails with 53200 instead of crashing everyone.
 * LAKEGATE_QUERY_MEMORY_LIMIT (same syntax as SET) overrides the default.
 */
import { totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { formatMemoryKb, parseMemoryKb } from './memory-units.ts';

export const QUERY_MEMORY_LIMIT_SETTING = 'lakegate.query_memory_limit';

/** the smallest limit SET accepts (as work_mem: 64 kB) */
export const MIN_QUERY_MEMORY_KB = 64;

/** bytes the process can hold on the JS heap: min(RAM, V8 heap limit) */
export const USABLE_MEMORY_BYTES = Math.min(totalmem(), getHeapStatistics().heap_size_limit);

/** all queries of this process together (see the header) */
export const SERVER_QUERY_MEMORY_BYTES = Math.floor(USABLE_MEMORY_BYTES / 2);

function computedDefaultKb(): number {
  const kb = Math.floor(SERVER_QUERY_MEMORY_BYTES / 2 / 1024);
  // whole MB, so SHOW prints e.g. 1035MB rather than an odd kB count
  return Math.max(MIN_QUERY_MEMORY_KB, kb - (kb % 1024));
}

function envDefaultKb(): number | null {
  const text = process.env['LAKEGATE_QUERY_MEMORY_LIMIT'];
  if (text === undefined || text.trim() === '') return null;
  try {
    return parseMemoryKb(QUERY_MEMORY_LIMIT_SETTING, text, MIN_QUERY_MEMORY_KB);
  } catch (e) {
    process.emitWarning(`LAKEGATE_QUERY_MEMORY_LIMIT ignored: ${(e as Error).message}`);
    return null;
  }
}

/** the setting's default in kB, as the settings table stores it */
export const DEFAULT_QUERY_MEMORY_KB = envDefaultKb() ?? computedDefaultKb();

/** SET's normalization: memory text → kB count as text */
export function normalizeQueryMemoryLimit(value: string): string {
  return String(parseMemoryKb(QUERY_MEMORY_LIMIT_SETTING, value, MIN_QUERY_MEMORY_KB));
}

/** the stored kB text (or null when the session does not know the setting) → bytes */
export function queryMemoryLimitBytes(stored: string | null): number {
  const kb = stored === null ? NaN : Number(stored);
  return (Number.isFinite(kb) && kb > 0 ? kb : DEFAULT_QUERY_MEMORY_KB) * 1024;
}

export function showQueryMemoryLimit(bytes: number): string {
  return formatMemoryKb(Math.round(bytes / 1024));
}
