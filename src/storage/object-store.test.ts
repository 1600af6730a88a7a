/** Runs the ObjectStore contract against every implementation: memory, local filesystem, S3 (s3rver). */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { S3Client } from '@aws-sdk/client-s3';
import { LocalFsStore } from './local-fs-store.ts';
import { MemoryStore } from './memory-store.ts';
import { S3Store, createS3Client } from './s3-store.ts';
import { objectStoreContract } from './test/object-store-contract.ts';
import { startS3rver, type S3rverFixture } from './test/s3rver-fixture.ts';

objectStoreContract('MemoryStore', () => new MemoryStore(), { atomicPutIfAbsent: true });

const tempDirs: string[] = [];
afterAll(async () => {
  for (const d of tempDirs) await rm(d, { recursive: true, force: true });
});
objectStoreContract(
  'LocalFsStore',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lakegate-store-'));
    tempDirs.push(dir);
    return new LocalFsStore(dir);
  },
  { atomicPutIfAbsent: true },
);

let s3: S3rverFixture;
let client: S3Client;
let n = 0;
beforeAll(async () => {
  s3 = await startS3rver();
  client = createS3Client(s3.config);
});
afterAll(async () => {
  client.destroy();
  await s3.close();
});
// Each test gets its own key prefix in one bucket; small pages force list pagination, 5 MiB parts force multipart.
objectStoreContract('S3Store (s3rver)', () => {
  n += 1;
  return new S3Store({
    client,
    bucket: s3.bucket,
    prefix: `t${n}/`,
    listPageSize: 2,
    multipartThreshold: 5 * 1024 * 1024,
    partSize: 5 * 1024 * 1024,
  });
});
