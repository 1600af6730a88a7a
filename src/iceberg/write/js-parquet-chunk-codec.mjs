// Whether one column chunk's pages are compressed: Parquet names the codec per column chunk (ColumnMetaData.codec),
// so a chunk whose dictionary and first data page barely shrink is written UNCOMPRESSED instead. On TPC-H lineitem, snappy
// left 12 of 16 columns' pages within 0.2 % of their size (dictionary codes of dates, flags, quantities; random
// part keys) while costing ≈ 17 % of the encode thread's snappy time; those pages are also cheaper to read
// (no decompression). Plain JS (loaded by the encode worker without tsx).

/** bytes of the first data page compressed to judge a chunk: snappy's block size, so the probe is one block */
export const PROBE_BYTES = 64 * 1024;

/** a chunk is compressed when its probe shrinks to at most this fraction (saves at least 10 %) */
export const KEEP_RATIO = 0.9;

/**
 * the pages of one column chunk through `compress` (null: the file is uncompressed), decided on its dictionary page
 * and first data page together (a dictionary of sorted or repetitive entries may shrink while its codes do not)
 */
export class ChunkCompressor {
  constructor(compress) {
    this.compress = compress;
    /** null until the first data page is seen; then whether this chunk's pages are compressed */
    this.compressed = compress === null ? false : null;
    /** pages compressed whole while probing ([raw, packed] pairs), reused by their own `page` call */
    this.probed = [];
  }

  /** judges the chunk on its first data page `raw` and its dictionary page (null: none); later calls change nothing */
  decide(raw, dictionaryRaw) {
    if (this.compressed !== null) return;
    let before = 0;
    let after = 0;
    const probed = [];
    if (dictionaryRaw !== null) {
      const packed = this.compress(dictionaryRaw);
      probed.push([dictionaryRaw, packed]);
      before += dictionaryRaw.length;
      after += packed.length;
    }
    const probe = raw.length <= PROBE_BYTES ? raw : raw.subarray(0, PROBE_BYTES);
    const packed = this.compress(probe);
    if (probe === raw) probed.push([raw, packed]);
    before += probe.length;
    after += packed.length;
    this.compressed = after <= before * KEEP_RATIO;
    if (this.compressed) this.probed = probed;
  }

  /** the bytes written for a page body `raw` (a new array: `raw` may be a scratch buffer) */
  page(raw) {
    if (!this.compressed) return raw.slice();
    for (let k = 0; k < this.probed.length; k++) {
      const [probedRaw, packed] = this.probed[k];
      if (probedRaw !== raw) continue;
      this.probed.splice(k, 1);
      return packed;
    }
    return this.compress(raw);
  }
}
