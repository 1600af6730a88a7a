/**
 * Scan task requests on their way to the pool (scan-pool.ts → scan-pool-worker.mjs). Every task of one scan carries
 * the same IO description, fields, pushed filter and partial-aggregate fragment (scan-task.ts); structured clone
 * copied them into each task's message and rebuilt them in the worker: 40–60 µs of each thread per task for TPC-H
 * q6's 7 KB request, of a round trip of ~100 µs main and ~120 µs worker (piscina micro-benchmark). Here the first
 * tasks of a scan — one per pool thread — carry those parts, and a worker keeps the parts it received by scan (a
 * small LRU); later tasks carry only their own files and the scan's key. A worker that has not seen the parts (its
 * share of the first tasks went to the other thread, it was restarted, or it forgot them) answers MISSING_PARTS
 * without running the task, and the pool sends that task again whole. The worker function (scan-worker.ts) receives
 * the same ScanTaskRequest as before: the parts are the same objects for every task of the scan in one worker, as
 * the decoded filter already was (filter-wire.ts wireFilterFor).
 */
import type { ScanTaskRequest } from './scan-task.ts';

/** the request fields every task of one scan shares */
const SHARED_KEYS = ['io', 'fields', 'filter', 'lateMaterialization', 'fragment', 'fileCacheBytes'] as const;
type SharedKey = (typeof SHARED_KEYS)[number];
type ScanParts = Partial<Pick<ScanTaskRequest, SharedKey>>;

/** a request as posted: its own fields, the scan's parts key, and the parts themselves on the first tasks */
export type WireScanRequest = Omit<ScanTaskRequest, SharedKey> & { readonly $partsKey: string; readonly $parts?: ScanParts };

/** a worker's answer when it lacks the parts of a request without them (the pool then sends it whole) */
export interface MissingParts {
  readonly ok: false;
  readonly missingParts: true;
}

export const MISSING_PARTS: MissingParts = { ok: false, missingParts: true };

export function isMissingParts(r: unknown): r is MissingParts {
  return typeof r === 'object' && r !== null && (r as Partial<MissingParts>).missingParts === true;
}

/**
 * scans remembered on each side (concurrent scans beyond this resend their parts: correct, a little slower); kept
 * parts hold their key lists' shared memory, as many as key-list-wire.ts keeps decoded lists
 */
const KEPT_SCANS = 8;

function split(req: ScanTaskRequest): { own: Omit<ScanTaskRequest, SharedKey>; parts: ScanParts; values: readonly unknown[] } {
  const { io, fields, filter, lateMaterialization, fragment, fileCacheBytes, ...own } = req;
  const parts: Record<string, unknown> = {};
  const all: Record<SharedKey, unknown> = { io, fields, filter, lateMaterialization, fragment, fileCacheBytes };
  // absent stays absent: the worker tests `fragment !== undefined` and the like
  for (const k of SHARED_KEYS) if (all[k] !== undefined) parts[k] = all[k];
  return { own, parts: parts as ScanParts, values: SHARED_KEYS.map((k) => all[k]) };
}

/** most recently used last: `map`'s oldest entries dropped past KEPT_SCANS */
function touch<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > KEPT_SCANS) map.delete(map.keys().next().value!);
}

interface SentScan {
  readonly key: string;
  /** the parts' values by SHARED_KEYS, compared by identity: a scan id reused with other parts gets a new key */
  readonly values: readonly unknown[];
  /** tasks of the scan posted with their parts so far */
  withParts: number;
}

/** The main thread's side: which scans' parts went out, and how often (one ScanRequestSender per pool). */
export class ScanRequestSender {
  readonly #scans = new Map<string, SentScan>();
  #generation = 0;

  /** `threads`: how many first tasks of a scan carry its parts (one per pool thread, so each usually gets them) */
  constructor(private readonly threads: number) {}

  /** the request to post: its parts only while fewer than `threads` tasks of its scan went out with them */
  wire(req: ScanTaskRequest): WireScanRequest {
    const { own, parts, values } = split(req);
    let sent = this.#scans.get(req.scanId);
    if (sent === undefined || sent.values.some((v, i) => v !== values[i])) {
      sent = { key: `${req.scanId}#${++this.#generation}`, values, withParts: 0 };
    }
    touch(this.#scans, req.scanId, sent);
    if (sent.withParts >= this.threads) return { ...own, $partsKey: sent.key };
    sent.withParts++;
    return { ...own, $partsKey: sent.key, $parts: parts };
  }

  /** the request with its parts, whatever went before (the answer to MISSING_PARTS) */
  whole(req: ScanTaskRequest): WireScanRequest {
    const sent = this.wire(req);
    return sent.$parts !== undefined ? sent : { ...sent, $parts: split(req).parts };
  }
}

/** the worker's parts by key */
const received = new Map<string, ScanParts>();

/**
 * The worker's side: the ScanTaskRequest of a posted message (its parts kept, or taken from those kept), anything
 * else (a merge task, the warm-up ping) as it is, or undefined when the message lacks parts this worker does not have.
 */
export function receiveScanRequest(msg: unknown): unknown {
  if (typeof msg !== 'object' || msg === null || typeof (msg as Partial<WireScanRequest>).$partsKey !== 'string') return msg;
  const { $partsKey, $parts, ...own } = msg as WireScanRequest;
  const parts = $parts ?? received.get($partsKey);
  if (parts === undefined) return undefined;
  touch(received, $partsKey, parts);
  return { ...own, ...parts } satisfies Partial<ScanTaskRequest>;
}
