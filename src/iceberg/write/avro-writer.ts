/**
 * Avro object container file writer (Avro spec "Object Container Files"), the inverse of
 * spec/avro-file.ts: magic, header map (avro.schema, avro.codec, Iceberg keys), 16-byte sync, then
 * blocks (count, byte size, deflate-raw data, sync). Records are encoded by avsc with Avro `long` as
 * bigint, so snapshot ids and sizes above 2^53 stay exact. Java writes manifests with deflate too.
 */
import { deflateRawSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import avro from 'avsc';
import { BigLong } from '../spec/avro-file.ts';


function zigzag(n: number): Uint8Array {
  let v = BigInt(n);
  v = v >= 0n ? v << 1n : ((-v) << 1n) - 1n;
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) b |= 0x80;
    out.push(b);
  } while (v !== 0n);
  return Uint8Array.from(out);
}

const enc = new TextEncoder();

function bytesField(b: Uint8Array): Uint8Array[] {
  return [zigzag(b.length), b];
}

const BLOCK_RECORDS = 4096;

/** one container file: `schema` (with field-id attributes) written as given, `meta` as UTF-8 header values */
export function writeAvroFile(schema: object, meta: Readonly<Record<string, string>>, records: readonly object[]): Uint8Array {
  const type = avro.Type.forSchema(schema as avro.Schema, { registry: { long: BigLong }, wrapUnions: 'auto' });
  const sync = randomBytes(16);
  const parts: Uint8Array[] = [Uint8Array.of(0x4f, 0x62, 0x6a, 0x01)];
  const header: [string, Uint8Array][] = [
    ['avro.schema', enc.encode(JSON.stringify(schema))],
    ['avro.codec', enc.encode('deflate')],
    ...Object.entries(meta).map(([k, v]): [string, Uint8Array] => [k, enc.encode(v)]),
  ];
  parts.push(zigzag(header.length));
  for (const [k, v] of header) parts.push(...bytesField(enc.encode(k)), ...bytesField(v));
  parts.push(zigzag(0), sync);
  for (let i = 0; i < records.length; i += BLOCK_RECORDS) {
    const chunk = records.slice(i, i + BLOCK_RECORDS);
    const raw = Buffer.concat(chunk.map((r) => type.toBuffer(r)));
    const data = deflateRawSync(raw);
    parts.push(zigzag(chunk.length), zigzag(data.length), data, sync);
  }
  return Buffer.concat(parts);
}
