/** 32-bit hash steps shared by the group table and the exchange's key partitioning (both must spread TPC-H's dense keys). */

/** murmur3's fmix32: spreads every bit into the low bits a slot mask or a modulus keeps (TPC-H keys use few of them) */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** FNV-1a over the UTF-16 code units, continuing from `h` */
export function fnv1a(s: string, h: number = 0x811c9dc5): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}
