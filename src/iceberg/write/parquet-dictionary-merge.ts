/**
 * The dictionaries of one column across the row groups parquet-row-group-merge.ts folds into one: each piece's
 * PLAIN dictionary page is read, every distinct value kept once (in order of first appearance) in one merged
 * dictionary page, and a piece's data pages whose indices no longer match are rewritten (decompressed, indices
 * renumbered by rle-hybrid-remap.ts, compressed again; levels untouched). Pages of the piece whose numbering is
 * kept (the first) are copied as they are.
 * @see https://parquet.apache.org/docs/file-format/data-pages/ and parquet.thrift (PageHeader field ids)
 */
import snappy from 'snappyjs';
import type { StatCompare } from './parquet-stat-order.ts';
import { remapDictionaryIndices } from './rle-hybrid-remap.ts';
import { TType, encodeThriftStruct, intField, structField, type TNode, type TStruct } from './thrift-compact-tree.ts';

// parquet.thrift ids
export const PH = { type: 1, uncompressed: 2, compressed: 3, crc: 4, dataPage: 5, dictionaryPage: 7, dataPageV2: 8 } as const;
export const ENC = { plainDictionary: 2, rle: 3, rleDictionary: 8 } as const;
export const CODEC = { uncompressed: 0, snappy: 1 } as const;

/** arrow-rs's default dictionary page size limit (WriterProperties dictionary_page_size_limit), in bytes */
export const DICTIONARY_PAGE_LIMIT = 1024 * 1024;

/** what a merge needs of a leaf column: its physical type, max definition level and statistics order */
export interface Leaf {
  readonly physical: number;
  readonly typeLength: number;
  readonly maxDef: number;
  readonly cmp: StatCompare | null;
}

/** a page as it lies in a file: its Thrift header (decoded and as bytes) and its (compressed) body */
export interface Page {
  readonly header: TStruct;
  readonly headerBytes: Uint8Array;
  readonly body: Uint8Array;
}

/** the input uses something the merge does not handle: the caller keeps the pieces apart */
export class Unsupported extends Error {}

const i32 = (v: number): TNode => ({ t: TType.I32, v });

const decompress = (body: Uint8Array, codec: number, size: number): Uint8Array => (codec === CODEC.snappy ? snappy.uncompress(body, size) : body);
const compress = (raw: Uint8Array, codec: number): Uint8Array => (codec === CODEC.snappy ? snappy.compress(raw) : raw);

/** where each PLAIN value of a dictionary page body starts (count + 1 offsets: the last is the end) */
function plainOffsets(raw: Uint8Array, count: number, leaf: Leaf): Int32Array {
  const width = ({ 1: 4, 2: 8, 3: 12, 4: 4, 5: 8 } as Record<number, number>)[leaf.physical] ?? (leaf.physical === 7 ? leaf.typeLength : 0);
  if (leaf.physical !== 6 && width <= 0) throw new Unsupported('dictionary of a boolean column');
  const out = new Int32Array(count + 1);
  let p = 0;
  for (let i = 0; i < count; i++) {
    out[i] = p;
    p += leaf.physical === 6 ? 4 + ((raw[p]! | (raw[p + 1]! << 8) | (raw[p + 2]! << 16) | (raw[p + 3]! << 24)) >>> 0) : width;
  }
  out[count] = p;
  if (p > raw.length) throw new Unsupported('dictionary page shorter than its values');
  return out;
}

/**
 * a Map key equal for equal values: the number itself for 4-byte values and for 8-byte ones that fit 53 bits
 * (TPC-H keys, dates, decimals), otherwise the bytes as a latin1 string
 */
function keyOf(buf: Buffer, dv: DataView, from: number, to: number): number | string {
  const n = to - from;
  if (n === 4) return dv.getInt32(from, true);
  if (n === 8) {
    const hi = dv.getInt32(from + 4, true);
    if (hi >= -0x200000 && hi < 0x200000) return hi * 0x100000000 + dv.getUint32(from, true);
  }
  return buf.toString('latin1', from, to);
}

/** one dictionary for the chunks of a column: per source, its index → the merged index (null: no dictionary, or its numbering kept) */
export function mergeDictionaries(dicts: readonly (Page | null)[], codec: number, leaf: Leaf): { page: Page; maps: (Int32Array | null)[] } | null {
  const first = dicts.find((d) => d !== null);
  if (first === undefined || first === null) return null;
  const index = new Map<number | string, number>();
  const values: Uint8Array[] = [];
  let size = 0;
  const maps = dicts.map((d) => {
    if (d === null) return null;
    const dh = structField(d.header, PH.dictionaryPage);
    const enc = dh === undefined ? -1 : intField(dh, 2) ?? 0;
    if (dh === undefined || (enc !== 0 && enc !== ENC.plainDictionary)) throw new Unsupported('dictionary page encoding');
    const raw = decompress(d.body, codec, intField(d.header, PH.uncompressed) ?? 0);
    const offsets = plainOffsets(raw, intField(dh, 1) ?? 0, leaf);
    const buf = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    const dv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    const map = new Int32Array(offsets.length - 1);
    let identity = true;
    for (let i = 0; i < map.length; i++) {
      const from = offsets[i]!;
      const to = offsets[i + 1]!;
      const key = keyOf(buf, dv, from, to);
      let at = index.get(key);
      if (at === undefined) {
        at = values.length;
        index.set(key, at);
        values.push(raw.subarray(from, to));
        size += to - from;
      }
      map[i] = at;
      if (at !== i) identity = false;
    }
    // a piece whose numbering is kept (the first one) has its pages copied as they are
    return identity ? null : map;
  });
  // parquet-wasm (arrow-rs) keeps a dictionary page within 1 MiB and writes PLAIN past it; a merged one may not grow beyond either
  if (size > DICTIONARY_PAGE_LIMIT) throw new Unsupported('merged dictionary page over the dictionary page size limit');
  const raw = new Uint8Array(size);
  let p = 0;
  for (const v of values) {
    raw.set(v, p);
    p += v.length;
  }
  const body = compress(raw, codec);
  const header: TStruct = new Map(first.header);
  const dh: TStruct = new Map(structField(first.header, PH.dictionaryPage));
  dh.set(1, i32(values.length));
  dh.set(3, { t: TType.BOOL_FALSE, v: false });
  header.set(PH.dictionaryPage, { t: TType.STRUCT, v: dh });
  return { page: withSizes(header, raw.length, body), maps };
}

function withSizes(header: TStruct, uncompressed: number, body: Uint8Array): Page {
  header.set(PH.uncompressed, i32(uncompressed));
  header.set(PH.compressed, i32(body.length));
  header.delete(PH.crc);
  return { header, headerBytes: encodeThriftStruct(header), body };
}

/** `page` with its body in codec `to` instead of `from` (the pieces of one column chunk written with different codecs) */
export function recodedPage(page: Page, from: number, to: number): Page {
  if (from === to) return page;
  const raw = decompress(page.body, from, intField(page.header, PH.uncompressed) ?? 0);
  return withSizes(new Map(page.header), raw.length, compress(raw, to));
}

/** a v1 data page whose dictionary indices are renumbered by `map` */
export function remappedPage(page: Page, codec: number, leaf: Leaf, map: Int32Array, bitWidth: number): Page {
  const dp = structField(page.header, PH.dataPage)!;
  const raw = decompress(page.body, codec, intField(page.header, PH.uncompressed) ?? 0);
  let p = 0;
  if (leaf.maxDef > 0) {
    if (intField(dp, 3) !== ENC.rle) throw new Unsupported('definition levels not RLE');
    p = 4 + ((raw[0]! | (raw[1]! << 8) | (raw[2]! << 16) | (raw[3]! << 24)) >>> 0);
  }
  const values = remapDictionaryIndices(raw.subarray(p), map, bitWidth);
  const out = new Uint8Array(p + values.length);
  out.set(raw.subarray(0, p));
  out.set(values, p);
  return withSizes(new Map(page.header), out.length, compress(out, codec));
}
