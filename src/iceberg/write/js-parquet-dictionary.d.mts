/** Types of js-parquet-dictionary.mjs (plain JS so the encode worker loads it without tsx). */

export function compareWords(a: Int32Array, ai: number, b: Int32Array, bi: number, kw: number): number;
export function compareBytes(a: Uint8Array, a0: number, a1: number, b: Uint8Array, b0: number, b1: number): number;

export class FixedDictionary {
  constructor(kw: number, valueBytes: number, limitBytes: number);
  readonly kw: number;
  readonly size: number;
  readonly entries: Int32Array;
  release(): void;
  add(w: Int32Array, stride: number, validity: Uint8Array | null, from: number, to: number, codes: Int32Array, at: number): number;
}

export class BytesDictionary {
  constructor(limitBytes: number);
  readonly size: number;
  readonly data: Uint8Array;
  readonly offsets: Int32Array;
  release(): void;
  add(offsets: Int32Array, data: Uint8Array, validity: Uint8Array | null, from: number, to: number, codes: Int32Array, at: number): number;
}
