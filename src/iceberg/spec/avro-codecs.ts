/**
 * Avro block codecs (Avro spec § Required Codecs / Optional Codecs) for manifests and manifest lists:
 * `null`, `deflate` (raw RFC 1951), `snappy` (a raw Snappy block followed by the 4-byte big-endian CRC32 of
 * the *uncompressed* data — checked, a mismatch is XX001), `zstandard` (one or more zstd frames).
 * Java's Iceberg writer can emit all four (`write.avro.compression-codec`); we only write deflate.
 * Decompression is pure JS (snappyjs, fzstd) so Node 20 needs no native zstd.
 */
import { inflateRawSync } from 'node:zlib';
import snappy from 'snappyjs';
import { decompress as zstdDecompress } from 'fzstd';
import { pgError } from '../../common/errors.ts';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE 802.3, as java.util.zip.CRC32 and Avro's snappy codec use). */
export function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const corrupt = (what: string, codec: string, e?: unknown): Error =>
  pgError('XX001', `invalid ${codec} block in Avro file "${what}"${e === undefined ? '' : `: ${e instanceof Error ? e.message : String(e)}`}`, e === undefined ? {} : { cause: e });

/** Decompresses one Avro data block; `what` names the file in errors. */
export function decompressAvroBlock(codec: string, data: Uint8Array, what: string): Uint8Array {
  switch (codec) {
    case 'null':
      return data;
    case 'deflate':
      try {
        return inflateRawSync(data);
      } catch (e) {
        throw corrupt(what, codec, e);
      }
    case 'snappy': {
      if (data.length < 4) throw corrupt(what, codec);
      let out: Uint8Array;
      try {
        // a snappy block expands at most ~22×: the cap keeps a corrupt length header from allocating gigabytes
        out = snappy.uncompress(data.subarray(0, data.length - 4), data.length * 32 + 64);
      } catch (e) {
        throw corrupt(what, codec, e);
      }
      const t = data.length - 4;
      const expected = ((data[t]! << 24) | (data[t + 1]! << 16) | (data[t + 2]! << 8) | data[t + 3]!) >>> 0;
      if (crc32(out) !== expected) throw pgError('XX001', `invalid snappy block in Avro file "${what}": CRC32 mismatch`);
      return out;
    }
    case 'zstandard':
      try {
        return zstdDecompress(data);
      } catch (e) {
        throw corrupt(what, codec, e);
      }
    default:
      throw pgError('0A000', `Avro codec "${codec}" is not supported`, { hint: 'Supported Avro codecs: null, deflate, snappy, zstandard.' });
  }
}
