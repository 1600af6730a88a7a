/**
 * murmur3_x86_32 with seed 0 — the hash Iceberg's bucket transform uses (§ Appendix B, Guava's
 * `Hashing.murmur3_32_fixed()`). Returns the signed 32-bit result, as Java prints it.
 */
const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

function mixK1(k: number): number {
  k = Math.imul(k, C1);
  k = (k << 15) | (k >>> 17);
  return Math.imul(k, C2);
}

function mixH1(h: number, k: number): number {
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

export function murmur3x86_32(data: Uint8Array, seed = 0): number {
  let h = seed | 0;
  const n = data.length;
  const blocks = n & ~3;
  for (let i = 0; i < blocks; i += 4) {
    const k = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    h = mixH1(h, mixK1(k));
  }
  let k1 = 0;
  switch (n & 3) {
    case 3: k1 ^= data[blocks + 2]! << 16; // falls through
    case 2: k1 ^= data[blocks + 1]! << 8; // falls through
    case 1: k1 ^= data[blocks]!; h ^= mixK1(k1);
  }
  h ^= n;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}
