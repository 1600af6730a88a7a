/**
 * Avro object container files (Avro spec "Object Container Files"), as Iceberg writes manifests and
 * manifest lists: magic `Obj\x01`, a header map (schema, codec, Iceberg keys), then blocks of
 * (count, size, data, 16-byte sync). Records are decoded with avsc using the writer schema; Avro `long`
 * becomes bigint. Iceberg fields are then looked up by `field-id`, never by name or position.
 */
import avro from 'avsc';
import { GatewayError, pgError } from '../../common/errors.ts';
import { decompressAvroBlock } from './avro-codecs.ts';

const MAGIC = [0x4f, 0x62, 0x6a, 0x01];

// Avro long as bigint: sequence numbers, snapshot ids and sizes are 64-bit.
export const BigLong = avro.types.LongType.__with({
  fromBuffer: (buf: Buffer) => buf.readBigInt64LE(),
  toBuffer: (n: bigint) => {
    const buf = Buffer.alloc(8);
    buf.writeBigInt64LE(BigInt(n));
    return buf;
  },
  fromJSON: (v: number | string) => BigInt(v),
  toJSON: (n: bigint) => Number(n),
  isValid: (n: unknown) => typeof n === 'bigint',
  compare: (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0),
});

export interface AvroFile {
  /** header metadata other than avro.schema/avro.codec, as UTF-8 text (Iceberg keys: schema, partition-spec, …) */
  readonly meta: ReadonlyMap<string, string>;
  /** writer schema JSON (with Iceberg's field-id attributes) */
  readonly schema: AvroRecordSchema;
  readonly codec: string;
  readonly records: readonly Record<string, unknown>[];
}

export interface AvroFieldSchema {
  readonly name: string;
  readonly type: unknown;
  readonly 'field-id'?: number;
  readonly [k: string]: unknown;
}
export interface AvroRecordSchema {
  readonly type: 'record';
  readonly name: string;
  readonly fields: readonly AvroFieldSchema[];
  readonly [k: string]: unknown;
}

class Cursor {
  pos = 0;
  constructor(
    readonly buf: Uint8Array,
    readonly what: string,
  ) {}
  long(): number {
    let n = 0n;
    let shift = 0n;
    for (;;) {
      const b = this.buf[this.pos++];
      if (b === undefined) throw truncated(this.what);
      n |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) break;
      shift += 7n;
    }
    return Number((n >> 1n) ^ -(n & 1n));
  }
  bytes(len: number): Uint8Array {
    if (len < 0 || this.pos + len > this.buf.length) throw truncated(this.what);
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }
}

// XX001 (data_corrupted) naming the file: the bytes are there but do not decode
const truncated = (what: string): GatewayError => pgError('XX001', `invalid Avro file "${what}": unexpected end of file`);
const corrupt = (what: string, why: string, cause?: unknown): GatewayError =>
  pgError('XX001', `invalid Avro file "${what}": ${why}`, cause === undefined ? {} : { cause });

const typeCache = new Map<string, avro.Type>();

export function readAvroFile(bytes: Uint8Array, what = 'Avro file'): AvroFile {
  if (!MAGIC.every((b, i) => bytes[i] === b)) throw corrupt(what, 'not an Avro object container file');
  const cur = new Cursor(bytes, what);
  cur.pos = 4;
  const meta = new Map<string, Uint8Array>();
  const dec = new TextDecoder();
  for (;;) {
    let count = cur.long();
    if (count === 0) break;
    if (count < 0) {
      count = -count;
      cur.long(); // block size in bytes
    }
    for (let i = 0; i < count; i++) {
      const key = dec.decode(cur.bytes(cur.long()));
      meta.set(key, cur.bytes(cur.long()));
    }
  }
  const sync = cur.bytes(16);
  const schemaText = meta.get('avro.schema');
  if (!schemaText) throw corrupt(what, 'no avro.schema in the header');
  const schemaJson = dec.decode(schemaText);
  const codec = meta.has('avro.codec') ? dec.decode(meta.get('avro.codec')) : 'null';
  let type = typeCache.get(schemaJson);
  let schema: AvroRecordSchema;
  try {
    schema = JSON.parse(schemaJson) as AvroRecordSchema;
    if (!type) {
      type = avro.Type.forSchema(schema as avro.Schema, { registry: { long: BigLong }, wrapUnions: 'auto' });
      typeCache.set(schemaJson, type);
    }
  } catch (e) {
    throw corrupt(what, `unreadable writer schema: ${(e as Error).message}`, e);
  }
  const records: Record<string, unknown>[] = [];
  while (cur.pos < bytes.length) {
    const count = cur.long();
    const size = cur.long();
    const block = Buffer.from(decompressAvroBlock(codec, cur.bytes(size), what));
    let pos = 0;
    for (let i = 0; i < count; i++) {
      let r: { value: unknown; offset: number };
      try {
        r = type.decode(block, pos);
      } catch (e) {
        throw corrupt(what, `undecodable record: ${(e as Error).message}`, e);
      }
      if (r.offset < 0) throw corrupt(what, 'truncated Avro block');
      records.push(r.value as Record<string, unknown>);
      pos = r.offset;
    }
    const s = cur.bytes(16);
    if (!s.every((b, i) => b === sync[i])) throw corrupt(what, 'sync marker mismatch');
  }
  const textMeta = new Map<string, string>();
  for (const [k, v] of meta) if (k !== 'avro.schema' && k !== 'avro.codec') textMeta.set(k, dec.decode(v));
  return { meta: textMeta, schema, codec, records };
}

/** Strips a ["null", T] union down to T. */
export function nonNull(type: unknown): unknown {
  if (Array.isArray(type)) return type.find((t) => t !== 'null') ?? 'null';
  return type;
}

/** field id → Avro field name of a record schema (Iceberg's `field-id` attributes). */
export function namesById(schema: unknown): Map<number, AvroFieldSchema> {
  const out = new Map<number, AvroFieldSchema>();
  const rec = nonNull(schema) as AvroRecordSchema;
  for (const f of rec.fields ?? []) if (f['field-id'] !== undefined) out.set(Number(f['field-id']), f);
  return out;
}

/** Reads a record's field by Iceberg field id; undefined when the writer schema has no such field. */
export class FieldsById {
  private readonly byId: Map<number, AvroFieldSchema>;
  constructor(schema: unknown) {
    this.byId = namesById(schema);
  }
  has(id: number): boolean {
    return this.byId.has(id);
  }
  schemaOf(id: number): AvroFieldSchema | undefined {
    return this.byId.get(id);
  }
  get(rec: Record<string, unknown>, id: number): unknown {
    const f = this.byId.get(id);
    return f === undefined ? undefined : rec[f.name];
  }
}
