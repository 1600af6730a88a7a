/**
 * Big typed arrays handed back by finished hash aggregates (GroupStates.release), given to the next ones (issue
 * #4). A fresh typed array of megabytes is memory the kernel maps and zeroes page by page on first touch: growing
 * one aggregate's state arrays from 1 Ki to 512 Ki groups (TPC-H Q18's 300k orders at SF 0.2: counts, sums and
 * scales) measured 46 ms of CPU on the dev VM, a sixth of Q18's main thread, for ~20 MB. A reused array is
 * already mapped: filling it costs a memset. Only arrays of at least MIN_LENGTH entries are kept, at most
 * MAX_BYTES in all (the oldest dropped first), matched by exact length (capacities are powers of two).
 */

const MIN_LENGTH = 65_536;
/**
 * TPC-H Q18 at SF 1 (1.5M groups by l_orderkey) gives back ~88 MB at its end — the direct index's 8M entries
 * (32 MB), the keys, counts, sums (16 MB each) and scales (8 MB) — besides the halves its growth gave back: at
 * 48 MB most of them were dropped, so every run faulted 19–28k fresh pages on the main thread, and the new external
 * memory brought more full GCs (17 mark-compacts over 4 runs against 11 with room for all). At 128 MB: 7–8k faults,
 * Q18's main thread −23 % CPU (session 24, 5 A/B pairs); process peak RSS +51 MB, held while idle.
 */
const MAX_BYTES = 128 * 1024 * 1024;
/** an idle server does not keep up to MAX_BYTES mapped for a query that may never come */
const IDLE_RELEASE_MS = 30_000;

const spare: (Float64Array | Int32Array)[] = [];
let spareBytes = 0;
let lastGiveBack = 0;
let idleTimer: ReturnType<typeof setTimeout> | undefined;

function releaseWhenIdle(): void {
  idleTimer = undefined;
  const idleFor = Date.now() - lastGiveBack;
  if (idleFor < IDLE_RELEASE_MS) return armIdleRelease(IDLE_RELEASE_MS - idleFor);
  dropSpareArrays();
}

function armIdleRelease(ms: number): void {
  // unref: the pool never keeps a process alive
  idleTimer = setTimeout(releaseWhenIdle, ms);
  idleTimer.unref();
}

function take<T extends Float64Array | Int32Array>(kind: new (n: number) => T, length: number, fill: number): T {
  if (length >= MIN_LENGTH) {
    for (let i = spare.length - 1; i >= 0; i--) {
      const a = spare[i]!;
      if (a.length === length && a instanceof kind) {
        spare.splice(i, 1);
        spareBytes -= a.byteLength;
        return (a as T).fill(fill) as T;
      }
    }
  }
  const a = new kind(length);
  return fill === 0 ? a : (a.fill(fill) as T);
}

/** a Float64Array of `length` zeros (a spare one when there is one) */
export function takeFloat64(length: number): Float64Array {
  return take(Float64Array, length, 0);
}

/** an Int32Array of `length` entries all `fill` (a spare one when there is one) */
export function takeInt32(length: number, fill: number): Int32Array {
  return take(Int32Array, length, fill);
}

/** hands `a` back for reuse: its owner must hold no reference to it any more */
export function giveBack(a: Float64Array | Int32Array): void {
  if (a.length < MIN_LENGTH || a.byteLength > MAX_BYTES || a.byteOffset !== 0 || a.buffer.byteLength !== a.byteLength) return;
  while (spareBytes + a.byteLength > MAX_BYTES) spareBytes -= spare.shift()!.byteLength;
  spare.push(a);
  spareBytes += a.byteLength;
  lastGiveBack = Date.now();
  if (idleTimer === undefined) armIdleRelease(IDLE_RELEASE_MS);
}

/** forgets every spare array (after IDLE_RELEASE_MS without a give-back; tests) */
export function dropSpareArrays(): void {
  if (idleTimer !== undefined) clearTimeout(idleTimer);
  idleTimer = undefined;
  spare.length = 0;
  spareBytes = 0;
}

/** bytes held for reuse (tests) */
export function spareArrayBytes(): number {
  return spareBytes;
}
