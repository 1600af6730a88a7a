/**
 * ServerMemory: the process-wide account every query's MemoryPool draws from. It caps the estimated state of
 * all running queries together (SERVER_QUERY_MEMORY_BYTES) and, because estimates can be wrong, also looks at
 * the real V8 heap now and then (every 64 MB of growth): a request made while the heap is nearly
 * full is refused, so the query that asks fails with 53200 and frees its state instead of the process dying.
 */
import { getHeapStatistics } from 'node:v8';
import { SERVER_QUERY_MEMORY_BYTES } from './query-memory-limit.ts';

/** why a request was refused: the query's own limit, the server-wide cap, or the real heap */
export type Refusal = 'query' | 'server' | 'heap';

/** reading the heap statistics costs about a millisecond: once per this much growth */
const HEAP_CHECK_BYTES = 64 * 1024 * 1024;
/** queries holding less than this are never refused for the heap (the big ones are what can be stopped) */
const SMALL_QUERY_BYTES = 16 * 1024 * 1024;
/** refuse when the heap in use is above this share of the heap limit */
const HEAP_FULL_RATIO = 0.9;

export interface HeapReading {
  readonly used: number;
  readonly limit: number;
}

export class ServerMemory {
  #used = 0;
  #sinceHeapCheck = 0;
  #lastHeap: HeapReading = { used: 0, limit: 0 };

  constructor(readonly limit: number, private readonly readHeap: () => HeapReading = readV8Heap) {}

  get used(): number { return this.#used; }
  /** the last heap reading (for error details) */
  get lastHeap(): HeapReading { return this.#lastHeap; }

  /** takes `bytes` if they fit; `queryBytes` is what the asking query already holds (small queries skip the heap check) */
  tryGrow(bytes: number, queryBytes: number): Refusal | null {
    if (this.#used + bytes > this.limit) return 'server';
    this.#sinceHeapCheck += bytes;
    if (this.#sinceHeapCheck >= HEAP_CHECK_BYTES) {
      this.#sinceHeapCheck = 0;
      const h = (this.#lastHeap = this.readHeap());
      if (queryBytes + bytes >= SMALL_QUERY_BYTES && h.used > h.limit * HEAP_FULL_RATIO) return 'heap';
    }
    this.#used += bytes;
    return null;
  }

  shrink(bytes: number): void {
    this.#used = Math.max(0, this.#used - bytes);
  }
}

function readV8Heap(): HeapReading {
  const s = getHeapStatistics();
  return { used: s.used_heap_size, limit: s.heap_size_limit };
}

/** the one account of this process */
export const SERVER_MEMORY = new ServerMemory(SERVER_QUERY_MEMORY_BYTES);
