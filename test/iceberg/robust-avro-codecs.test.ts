/**
 * Avro snappy and zstandard codecs for manifests and manifest lists. The Java-written manifest and manifest
 * list of the icebird-avro-samples fixture (deflate) are re-encoded by avsc's BlockEncoder with the snappy
 * codec (snappyjs + big-endian CRC32, as Avro Java's SnappyCodec) and the zstandard codec (the zstd CLI when
 * the machine has it, and a committed file made by zstd 1.5), then must decode to the same manifests.
 * A hand-made snappy block checks the framing and CRC bytes against a known answer.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import avro from 'avsc';
import snappy from 'snappyjs';
import { describe, expect, it } from 'vitest';
import { BigLong, readAvroFile } from '../../src/iceberg/spec/avro-file.ts';
import { crc32, decompressAvroBlock } from '../../src/iceberg/spec/avro-codecs.ts';
import { parseManifestList } from '../../src/iceberg/spec/manifest-list.ts';
import { parseManifest } from '../../src/iceberg/spec/manifest.ts';

const DIR = '/work/shared/fixtures/iceberg/icebird-avro-samples/';
const LIST = 'snap-8656952484400131532-1-a85973e4-4009-4cba-875e-5278a2c6027d.avro';
const MANIFEST = 'a85973e4-4009-4cba-875e-5278a2c6027d-m0.avro';
const HERE = new URL('.', import.meta.url).pathname;
const read = (name: string): Uint8Array => new Uint8Array(readFileSync(DIR + name));

type Compressor = (buf: Buffer, cb: (err: Error | null, out?: Buffer) => void) => void;

const snappyCodec: Compressor = (buf, cb) => {
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(buf));
  cb(null, Buffer.concat([Buffer.from(snappy.compress(buf)), crc]));
};

const hasZstdCli = ((): boolean => {
  try {
    execFileSync('zstd', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const zstdCodec: Compressor = (buf, cb) => cb(null, execFileSync('zstd', ['-q', '-c', '-3'], { input: buf }));

/** Re-encodes an Avro container with another codec, keeping the writer schema (field ids) and Iceberg header keys. */
async function reencode(bytes: Uint8Array, codec: string, compress: Compressor): Promise<Uint8Array> {
  const src = readAvroFile(bytes);
  const type = avro.Type.forSchema(src.schema as avro.Schema, { registry: { long: BigLong }, wrapUnions: 'auto' });
  const metadata: Record<string, Buffer> = { 'avro.schema': Buffer.from(JSON.stringify(src.schema)) };
  for (const [k, v] of src.meta) metadata[k] = Buffer.from(v);
  // small blocks: several blocks per file exercise the per-block framing
  // `metadata` (header keys; its avro.schema overrides avsc's own export, which drops field-id) is untyped in avsc's d.ts
  const opts = { codec, codecs: { [codec]: compress }, metadata, blockSize: 512 } as ConstructorParameters<typeof avro.streams.BlockEncoder>[1];
  const enc = new avro.streams.BlockEncoder(type, opts);
  const chunks: Buffer[] = [];
  await pipeline(Readable.from(src.records, { objectMode: true }), enc, new Writable({ write(c: Buffer, _e, cb) { chunks.push(c); cb(); } }));
  return new Uint8Array(Buffer.concat(chunks));
}

const listOf = (b: Uint8Array) => parseManifestList(b, 'list.avro');
const manifestOf = (b: Uint8Array) => parseManifest(b, listOf(read(LIST))[0]!, 'm0.avro');

describe('Avro snappy codec', () => {
  it('known answer: raw snappy block + big-endian CRC32 of the uncompressed bytes', () => {
    // "hello": varint length 5, literal tag (5-1)<<2, the bytes; CRC32("hello") = 0x3610a686
    const block = Uint8Array.from([0x05, 0x10, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x36, 0x10, 0xa6, 0x86]);
    expect(new TextDecoder().decode(decompressAvroBlock('snappy', block, 'f.avro'))).toBe('hello');
    expect(crc32(new TextEncoder().encode('hello'))).toBe(0x3610a686);
    const bad = Uint8Array.from(block);
    bad[10] = 0x87;
    expect(() => decompressAvroBlock('snappy', bad, 'f.avro')).toThrow(expect.objectContaining({ code: 'XX001', message: expect.stringContaining('CRC32 mismatch') }));
    expect(() => decompressAvroBlock('snappy', Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0, 0, 0]), 'f.avro')).toThrow(expect.objectContaining({ code: 'XX001', message: expect.stringContaining('"f.avro"') }));
  });

  it('reads a Java manifest list and manifest re-encoded with snappy like the deflate originals', async () => {
    const list = await reencode(read(LIST), 'snappy', snappyCodec);
    expect(readAvroFile(list).codec).toBe('snappy');
    expect(listOf(list)).toEqual(listOf(read(LIST)));
    const manifest = await reencode(read(MANIFEST), 'snappy', snappyCodec);
    expect(manifestOf(manifest)).toEqual(manifestOf(read(MANIFEST)));
    expect(manifestOf(manifest).entries.length).toBeGreaterThan(0);
  });
});

describe('Avro zstandard codec', () => {
  it('reads a committed manifest written with zstd 1.5 (-3)', () => {
    const manifest = new Uint8Array(readFileSync(join(HERE, 'fixtures/manifest-m0.zstandard.avro')));
    expect(readAvroFile(manifest).codec).toBe('zstandard');
    expect(manifestOf(manifest)).toEqual(manifestOf(read(MANIFEST)));
  });

  it.skipIf(!hasZstdCli)('reads a manifest list and manifest compressed by the zstd CLI', async () => {
    const list = await reencode(read(LIST), 'zstandard', zstdCodec);
    expect(listOf(list)).toEqual(listOf(read(LIST)));
    const manifest = await reencode(read(MANIFEST), 'zstandard', zstdCodec);
    expect(manifestOf(manifest)).toEqual(manifestOf(read(MANIFEST)));
  });

  it('a corrupt zstd block is XX001 naming the file; an unknown codec stays 0A000', () => {
    expect(() => decompressAvroBlock('zstandard', Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]), 'z.avro')).toThrow(expect.objectContaining({ code: 'XX001', message: expect.stringContaining('"z.avro"') }));
    expect(() => decompressAvroBlock('bzip2', Uint8Array.from([1]), 'z.avro')).toThrow(expect.objectContaining({ code: '0A000', message: 'Avro codec "bzip2" is not supported' }));
  });
});

