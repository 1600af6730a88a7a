/** Types of rle-hybrid-encode.mjs (plain JS so the encode worker loads it without tsx). */

export class ByteSink {
  constructor(initial?: number);
  buf: Uint8Array;
  pos: number;
  reset(): void;
  ensure(n: number): void;
  varint(n: number): void;
  u32le(v: number): void;
  bytes(src: Uint8Array): void;
  view(): Uint8Array;
}

export function bitWidthOf(maxValue: number): number;
export function encodeRleHybrid(out: ByteSink, values: Int32Array | Uint8Array, from: number, to: number, width: number): void;
export function encodeDefLevels(out: ByteSink, validity: Uint8Array | null, from: number, to: number, levels: Uint8Array): number;
