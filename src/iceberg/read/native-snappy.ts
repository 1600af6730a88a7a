/**
 * Snappy page decompression for the JS Parquet page decoder: the native `snappy` package (napi-rs, the C++-
 * compatible Rust `snap` decoder) for compressible pages, snappy-decompress.ts (JS) for the rest and whenever
 * the native module does not load (another platform, no prebuilt binary) or `LAKEGATE_NATIVE_SNAPPY=off`.
 *
 * Measured on lakegate's lineitem pages (2 cores, Node 20): compressible pages (decimals, PLAIN keys, comments:
 * 1.5–2.4× ratio, 90–340 KiB) decompress at ~110 MB/s in JS and ~500–700 MB/s native; pages Snappy could not
 * shrink (dictionary indices, ratio ≈ 1: one long literal) copy at GB/s in JS, and a native call costs ~6 µs
 * whatever its size. So a page goes native only when it is big enough and actually compressed.
 * @see https://github.com/google/snappy/blob/main/format_description.txt
 */
import { createRequire } from 'node:module';
import { envFlagOn } from '../../common/env-settings.ts';
import { snappyDecompress, snappyUncompressedLength } from './snappy-decompress.ts';

type UncompressSync = (input: Uint8Array, options: { asBuffer: true; copyOutputData: boolean }) => Uint8Array;

/** pages smaller than this stay in JS (the native call's fixed cost is about a JS decode of 1 KiB) */
export const NATIVE_MIN_BYTES = 4096;
/** …and so do pages whose compressed body is more than this share of their size (mostly literals: a copy) */
export const NATIVE_MAX_RATIO = 0.9;

function loadNative(): UncompressSync | null {
  if (!envFlagOn('LAKEGATE_NATIVE_SNAPPY')) return null;
  try {
    const mod = createRequire(import.meta.url)('snappy') as { uncompressSync?: unknown };
    return typeof mod.uncompressSync === 'function' ? (mod.uncompressSync as UncompressSync) : null;
  } catch {
    return null; // no binary for this platform: JS decoding
  }
}

const native = loadNative();

/** whether the native decoder loaded (tests, EXPLAIN-free diagnostics) */
export const nativeSnappyLoaded = (): boolean => native !== null;

/** copyOutputData: a plain Buffer copy (an external buffer per call measured 2–3× slower on 8–64 KiB pages) */
const OPTIONS = { asBuffer: true, copyOutputData: true } as const;

/**
 * Decompresses one Snappy block of `expected` bytes (a Parquet page body). The result is a view of `into` when
 * decoded in JS (see snappyDecompress), or a fresh buffer when decoded natively; either way the caller consumes
 * it before the next call. Throws on a malformed block or a length other than `expected`.
 */
export function snappyDecompressPage(src: Uint8Array, expected: number, into?: Uint8Array): Uint8Array {
  if (native === null || expected < NATIVE_MIN_BYTES || src.length > expected * NATIVE_MAX_RATIO) return snappyDecompress(src, expected, into);
  // the preamble is checked first: a damaged length must not make the native side allocate it
  const length = snappyUncompressedLength(src);
  if (length !== expected) throw new Error(`snappy: block holds ${length} bytes, page header says ${expected}`);
  let out: Uint8Array;
  try {
    out = native(src, OPTIONS);
  } catch (e) {
    throw new Error(`snappy: ${(e as Error).message}`, { cause: e });
  }
  if (out.length !== expected) throw new Error(`snappy: block ends after ${out.length} of ${expected} bytes`);
  return out;
}
