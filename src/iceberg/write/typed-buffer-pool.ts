/**
 * Recycled ArrayBuffers for typed column builders. A bulk load makes its column buffers at the rate it reads
 * input (≈ 3 MB per 16k lineitem rows), and they die as soon as the writer has serialized a file; as garbage
 * they are freed only by a full GC, which V8 runs late for memory outside its heap, so the process grew by
 * hundreds of MB over a SF 1 COPY. The writer gives a file's buffers back here once they are copied into its
 * IPC stream, and the next batches reuse them. Buffers come back dirty: builders clear what they rely on.
 */
/**
 * while a load runs: a file's 48 MiB of buffers come back from the encode thread while the next file and a
 * queued one hold theirs, so a smaller pool dropped most of them and the next batches made new ones (at 32 MiB
 * an SF 0.2 COPY made 36 full GCs' worth of new ArrayBuffers; at 128 MiB, 9)
 */
const MAX_POOLED_BYTES = 128 * 1024 * 1024;
/** what an idle process keeps: IDLE_TRIM_MS after the last take the pool is cut down to this */
const IDLE_POOLED_BYTES = 32 * 1024 * 1024;
const IDLE_TRIM_MS = 5000;

const free = new Map<number, ArrayBuffer[]>();
let pooledBytes = 0;
/** the buffers in `free` (a buffer given twice is kept once); a Set, not a WeakSet: `free` holds them anyway, and thousands of WeakSet entries made every GC slower */
const pooled = new Set<ArrayBuffer>();

/** Date.now() of the last take: a pool still in use is not trimmed */
let lastTake = 0;
let trimTimer: ReturnType<typeof setTimeout> | null = null;

function scheduleTrim(ms = IDLE_TRIM_MS): void {
  if (trimTimer !== null || pooledBytes <= IDLE_POOLED_BYTES) return;
  trimTimer = setTimeout(trimIdle, ms);
  trimTimer.unref();
}

/** the pool unused since the timer was set: drop buffers (biggest sizes first) down to IDLE_POOLED_BYTES */
function trimIdle(): void {
  trimTimer = null;
  const idle = Date.now() - lastTake;
  if (idle < IDLE_TRIM_MS) {
    scheduleTrim(IDLE_TRIM_MS - idle);
    return;
  }
  for (const size of [...free.keys()].sort((a, b) => b - a)) {
    const list = free.get(size)!;
    while (list.length > 0 && pooledBytes > IDLE_POOLED_BYTES) {
      pooled.delete(list.pop()!);
      pooledBytes -= size;
    }
    if (list.length === 0) free.delete(size);
  }
}

/** bytes held by the pool now (tests) */
export function pooledBufferBytes(): number {
  return pooledBytes;
}

/** a buffer of exactly `bytes` bytes, recycled when one is free (contents undefined) */
export function takeBuffer(bytes: number): ArrayBuffer {
  lastTake = Date.now();
  const b = free.get(bytes)?.pop();
  if (b === undefined) return new ArrayBuffer(bytes);
  pooled.delete(b);
  pooledBytes -= bytes;
  return b;
}

/** hands buffers back for reuse; the caller must hold no view of them any more */
export function giveBuffers(buffers: Iterable<ArrayBufferLike>): void {
  for (const b of buffers) {
    if (!(b instanceof ArrayBuffer) || pooled.has(b) || pooledBytes + b.byteLength > MAX_POOLED_BYTES) continue;
    let list = free.get(b.byteLength);
    if (list === undefined) free.set(b.byteLength, (list = []));
    pooled.add(b);
    list.push(b);
    pooledBytes += b.byteLength;
  }
  scheduleTrim();
}

/** takes pooled buffers of up to `maxBytes` in all, whatever their sizes (handed to a decode worker's own pool) */
export function takeSpareBuffers(maxBytes: number): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  let bytes = 0;
  for (const [size, list] of free) {
    while (list.length > 0 && bytes + size <= maxBytes) {
      const b = list.pop()!;
      pooled.delete(b);
      pooledBytes -= size;
      bytes += size;
      out.push(b);
    }
  }
  return out;
}
