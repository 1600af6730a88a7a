/**
 * How big a scan worker's partial group table may grow before the worker packs and empties it
 * (run-fragment.ts): a slice of the query's memory budget per worker thread — the pool's threads each run a
 * task, and up to as many finished results wait in the read-ahead window — kept between a floor (flushing a
 * few hundred groups at a time would only multiply the merge work) and a ceiling (past it the packed form
 * costs less than the group objects, whatever the budget).
 */

const MIN_FLUSH_BYTES = 256 * 1024;
const MAX_FLUSH_BYTES = 64 * 1024 * 1024;

/** the flush threshold for a query whose budget is `queryLimit` bytes, on a pool of `threads` workers */
export function workerFlushBytes(queryLimit: number, threads: number): number {
  const slice = Math.floor(queryLimit / (4 * Math.max(1, threads)));
  return Math.min(MAX_FLUSH_BYTES, Math.max(MIN_FLUSH_BYTES, slice));
}
