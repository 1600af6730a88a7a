/**
 * Arrow decimal128 Data from unscaled bigints (NULL as null), for the read-path tests that write Parquet through
 * parquet-wasm or feed Arrow columns to the readers: two's-complement words, low word first, as Arrow stores them.
 */
import { Decimal, makeData, type Data } from 'apache-arrow';

export function decimalData(values: readonly (bigint | null)[], precision: number, scale: number): Data<Decimal> {
  const words = new Uint32Array(values.length * 4);
  const validity = new Uint8Array((values.length + 7) >> 3);
  let nulls = 0;
  values.forEach((v, i) => {
    if (v === null) { nulls++; return; }
    validity[i >> 3]! |= 1 << (i & 7);
    let u = BigInt.asUintN(128, v);
    for (let w = 0; w < 4; w++, u >>= 32n) words[i * 4 + w] = Number(u & 0xffffffffn);
  });
  return makeData({ type: new Decimal(scale, precision, 128), length: values.length, nullCount: nulls, nullBitmap: validity, data: words });
}
