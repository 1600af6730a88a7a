/**
 * Recycled ArrayBuffers for typed column builders. A bulk load makes its column buffers at the rate it reads
 * input (≈ 3 MB per 16k lineitem rows), and they die as soon as the writer has serialized a file; as garbage
 * they are freed only by a full GC, which V8 runs late for memory outside its heap, so the process grew by
 * hundreds of MB over a SF 1 COPY. The writer gives a file's buffers back here once they are copied into its
 * IPC stream, and the next batches reuse them. Buffers come back dirty: builders clear what they rely on.
 */
const MAX_POOLED_BYTES = 32 * 1024 * 1024;

const free = new Map<number, ArrayBuffer[]>();
let pooledBytes = 0;
/** the buffers in `free` (a buffer given twice is kept once) */
const pooled = new WeakSet<ArrayBuffer>();

/** a buffer of exactly `bytes` bytes, recycled when one is free (contents undefined) */
export function takeBuffer(bytes: number): ArrayBuffer {
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
