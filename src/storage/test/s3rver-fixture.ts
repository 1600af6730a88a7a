/**
 * Test fixture: a real S3 HTTP server (s3rver) in-process on 127.0.0.1:0 with a temp directory, reached
 * through @aws-sdk/client-s3 exactly as MinIO or AWS would be. s3rver accepts the key pair S3RVER/S3RVER.
 */
import crypto from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { createS3Client, type S3Config } from '../s3-store.ts';

export interface S3rverFixture {
  readonly endpoint: string;
  readonly bucket: string;
  readonly config: S3Config;
  close(): Promise<void>;
}

export async function startS3rver(bucket = 'lakegate-test'): Promise<S3rverFixture> {
  allowS3rverContinuationTokens();
  const directory = await mkdtemp(join(tmpdir(), 'lakegate-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, resetOnClose: true, directory });
  const { address, port } = await server.run();
  const endpoint = `http://${address}:${port}`;
  const config: S3Config = { endpoint, region: 'us-east-1', forcePathStyle: true, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const client = createS3Client(config);
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
  return {
    endpoint,
    bucket,
    config,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * s3rver 3.7.1 encrypts ListObjectsV2 continuation tokens with single DES, which OpenSSL 3 (Node ≥ 17)
 * refuses, so every truncated V2 listing answers 500 InternalError. In the test process only, map its
 * `des` to 3DES with the key repeated (same 8-byte block, still reversible): s3rver reads
 * `crypto.createCipheriv` at call time from the shared module object.
 */
let patched = false;
function allowS3rverContinuationTokens(): void {
  if (patched) return;
  patched = true;
  const mod = crypto as unknown as Record<'createCipheriv' | 'createDecipheriv', (alg: string, key: Buffer, iv: Buffer) => unknown>;
  for (const fn of ['createCipheriv', 'createDecipheriv'] as const) {
    const original = mod[fn].bind(crypto);
    mod[fn] = (alg, key, iv) => (alg === 'des' ? original('des-ede3-cbc', Buffer.concat([key, key, key]), iv) : original(alg, key, iv));
  }
}
