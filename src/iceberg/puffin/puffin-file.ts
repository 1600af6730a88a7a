/**
 * Puffin files (§ Puffin file format): `Magic Blob₁ … Blobₙ Footer`, Footer = `Magic FooterPayload
 * FooterPayloadSize Flags Magic`, magic `PFA1`, the payload a UTF-8 JSON FileMetadata
 * `{blobs: [BlobMetadata…], properties}`; sizes and flags are 4-byte little-endian ints.
 * writePuffin lays blobs out after the leading magic (blob i's `offset`/`length` in its metadata) with an
 * uncompressed footer, keys in the order Iceberg Java's FileMetadataParser writes them; parsePuffinFooter
 * reads the footer back (an LZ4-compressed one is 0A000).
 * @see ../../../../shared/spec/iceberg-puffin-spec.md
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';

export const PUFFIN_MAGIC = Uint8Array.of(0x50, 0x46, 0x41, 0x31);
const FOOTER_STRUCT_BYTES = 12; // FooterPayloadSize + Flags + Magic
const FLAG_FOOTER_COMPRESSED = 1;

export interface PuffinBlob {
  readonly type: string;
  readonly fields: readonly number[];
  /** -1 when not known at write time (deletion vectors) */
  readonly snapshotId: bigint;
  readonly sequenceNumber: bigint;
  readonly data: Uint8Array;
  readonly properties?: Readonly<Record<string, string>>;
}

export interface PuffinBlobMetadata {
  readonly type: string;
  readonly fields: readonly number[];
  readonly snapshotId: bigint;
  readonly sequenceNumber: bigint;
  readonly offset: number;
  readonly length: number;
  readonly compressionCodec: string | null;
  readonly properties: Readonly<Record<string, string>>;
}

export interface PuffinFileMetadata {
  readonly blobs: readonly PuffinBlobMetadata[];
  readonly properties: Readonly<Record<string, string>>;
}

export interface WrittenPuffin {
  readonly bytes: Uint8Array;
  readonly blobs: readonly PuffinBlobMetadata[];
}

/** one Puffin file holding `blobs` (uncompressed) */
export function writePuffin(blobs: readonly PuffinBlob[], properties: Readonly<Record<string, string>> = {}): WrittenPuffin {
  const metas: PuffinBlobMetadata[] = [];
  let offset = PUFFIN_MAGIC.byteLength;
  for (const b of blobs) {
    metas.push({ type: b.type, fields: b.fields, snapshotId: b.snapshotId, sequenceNumber: b.sequenceNumber, offset, length: b.data.byteLength, compressionCodec: null, properties: b.properties ?? {} });
    offset += b.data.byteLength;
  }
  // bigints as JSON numbers: longs that JSON.stringify cannot write itself
  const json = JSON.stringify({
    blobs: metas.map((m) => ({
      type: m.type, fields: m.fields, 'snapshot-id': `\u0000${m.snapshotId}\u0000`, 'sequence-number': `\u0000${m.sequenceNumber}\u0000`,
      offset: m.offset, length: m.length, ...(Object.keys(m.properties).length === 0 ? {} : { properties: m.properties }),
    })),
    ...(Object.keys(properties).length === 0 ? {} : { properties }),
  }).replace(/"\\u0000(-?\d+)\\u0000"/g, '$1');
  const payload = Buffer.from(json, 'utf8');
  const out = new Uint8Array(offset + PUFFIN_MAGIC.byteLength + payload.byteLength + FOOTER_STRUCT_BYTES);
  out.set(PUFFIN_MAGIC, 0);
  let p = PUFFIN_MAGIC.byteLength;
  for (const b of blobs) { out.set(b.data, p); p += b.data.byteLength; }
  out.set(PUFFIN_MAGIC, p); p += 4;
  out.set(payload, p); p += payload.byteLength;
  const dv = new DataView(out.buffer);
  dv.setInt32(p, payload.byteLength, true); p += 4;
  dv.setInt32(p, 0, true); p += 4;
  out.set(PUFFIN_MAGIC, p);
  return { bytes: out, blobs: metas };
}

const sameMagic = (b: Uint8Array, at: number): boolean => PUFFIN_MAGIC.every((m, i) => b[at + i] === m);

/** thrown for bytes that are not a Puffin file; callers name the file (XX001) */
export class PuffinFormatError extends Error {
  override readonly name = 'PuffinFormatError';
}

/** the FileMetadata of a whole Puffin file's bytes */
export function parsePuffinFooter(file: Uint8Array): PuffinFileMetadata {
  const n = file.byteLength;
  if (n < 4 + 4 + FOOTER_STRUCT_BYTES || !sameMagic(file, 0) || !sameMagic(file, n - 4)) throw new PuffinFormatError('not a Puffin file (magic PFA1 missing)');
  const dv = new DataView(file.buffer, file.byteOffset, n);
  const size = dv.getInt32(n - FOOTER_STRUCT_BYTES, true);
  const flags = dv.getInt32(n - 8, true);
  const start = n - FOOTER_STRUCT_BYTES - size;
  if (size < 0 || start - 4 < 4 || !sameMagic(file, start - 4)) throw new PuffinFormatError(`Puffin footer payload size ${size} is invalid`);
  if ((flags & FLAG_FOOTER_COMPRESSED) !== 0) throw pgError(SqlState.feature_not_supported, 'LZ4-compressed Puffin footers are not supported');
  let doc: { blobs?: unknown; properties?: Record<string, string> };
  try {
    doc = JSON.parse(Buffer.from(file.subarray(start, start + size)).toString('utf8').replace(/("(?:snapshot-id|sequence-number)"\s*:\s*)(-?\d+)/g, '$1"$2"')) as typeof doc;
  } catch (e) {
    throw new PuffinFormatError(`Puffin footer is not JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(doc.blobs)) throw new PuffinFormatError('Puffin footer has no blobs list');
  const blobs = (doc.blobs as Record<string, unknown>[]).map((b): PuffinBlobMetadata => ({
    type: String(b['type']), fields: Array.isArray(b['fields']) ? (b['fields'] as unknown[]).map(Number) : [],
    snapshotId: BigInt(String(b['snapshot-id'] ?? -1)), sequenceNumber: BigInt(String(b['sequence-number'] ?? -1)),
    offset: Number(b['offset']), length: Number(b['length']),
    compressionCodec: typeof b['compression-codec'] === 'string' ? b['compression-codec'] : null,
    properties: (b['properties'] as Record<string, string> | undefined) ?? {},
  }));
  return { blobs, properties: doc.properties ?? {} };
}
