/**
 * S3Store: an ObjectStore over one S3 bucket (AWS, MinIO, s3rver, …) through @aws-sdk/client-s3.
 *
 * - Ranged reads are GetObject with `Range: bytes=a-b`.
 * - put() sends one PutObject up to `multipartThreshold` bytes and a multipart upload above it
 *   (multipart-upload.ts), buffering about max(threshold, partSize) bytes whatever the body size.
 * - putIfAbsent() is HEAD, then PutObject with `If-None-Match: *` (412 → false). Servers that honour
 *   the header (AWS since 2024, recent MinIO) make it atomic; servers that ignore it (s3rver) are
 *   covered only by the HEAD check, which holds for one writer at a time: two writers racing between
 *   HEAD and PUT can both return true and the last one wins.
 * - Every call is retried by withRetry (5xx, throttling, network errors); the SDK's own retries are off
 *   in clients made by createS3Client so attempts are bounded in one place.
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { ChunkBuffer, uploadStream } from './multipart-upload.ts';
import { checkObjectPath, type ObjectListing, type ObjectMeta, type ObjectStore, type PutBody } from './object-store.ts';
import { withRetry, type RetryOptions } from './retry.ts';
import { NotFoundError, ioError } from './storage-errors.ts';

/** Connection settings; omitted keys fall back to the AWS default credential chain. */
export interface S3Config {
  /** e.g. `http://127.0.0.1:9000` for MinIO; omitted → AWS. */
  readonly endpoint?: string;
  /** Default `AWS_REGION`, else `us-east-1`. */
  readonly region?: string;
  /** `http://host/bucket/key` instead of `http://bucket.host/key` (MinIO, s3rver). */
  readonly forcePathStyle?: boolean;
  readonly accessKeyId?: string;
  readonly secretAccessKey?: string;
  readonly sessionToken?: string;
}

export interface S3StoreOptions {
  readonly client: S3Client;
  readonly bucket: string;
  /** Key prefix under which the store root sits (no leading slash); '' = bucket root. */
  readonly prefix?: string;
  /** Bodies larger than this go through multipart upload (default 16 MiB). */
  readonly multipartThreshold?: number;
  /** Multipart part size (default 8 MiB; S3 requires ≥ 5 MiB for every part but the last). */
  readonly partSize?: number;
  /** ListObjectsV2 MaxKeys per page (default: server default, 1000 on S3). */
  readonly listPageSize?: number;
  readonly retry?: RetryOptions;
}

export function createS3Client(config: S3Config = {}): S3Client {
  const { endpoint, region, forcePathStyle, accessKeyId, secretAccessKey, sessionToken } = config;
  return new S3Client({
    region: region ?? process.env.AWS_REGION ?? 'us-east-1',
    ...(endpoint !== undefined ? { endpoint } : {}),
    ...(forcePathStyle !== undefined ? { forcePathStyle } : {}),
    ...(accessKeyId !== undefined && secretAccessKey !== undefined
      ? { credentials: { accessKeyId, secretAccessKey, ...(sessionToken !== undefined ? { sessionToken } : {}) } }
      : {}),
    maxAttempts: 1,
    // Checksums only where an operation requires them: some S3-compatible servers mishandle the SDK's default CRC32 headers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

const MiB = 1024 * 1024;

export class S3Store implements ObjectStore {
  readonly bucket: string;
  readonly prefix: string;
  readonly #client: S3Client;
  readonly #threshold: number;
  readonly #partSize: number;
  readonly #pageSize: number | undefined;
  readonly #retry: RetryOptions;

  constructor(opts: S3StoreOptions) {
    this.#client = opts.client;
    this.bucket = opts.bucket;
    const p = opts.prefix ?? '';
    this.prefix = p === '' || p.endsWith('/') ? p : `${p}/`;
    this.#partSize = opts.partSize ?? 8 * MiB;
    this.#threshold = Math.max(opts.multipartThreshold ?? 16 * MiB, 1);
    this.#pageSize = opts.listPageSize;
    this.#retry = opts.retry ?? {};
  }

  uriOf(path: string): string {
    return `s3://${this.bucket}/${this.prefix}${path}`;
  }

  async get(path: string): Promise<Uint8Array> {
    return this.#read(path, undefined);
  }

  async getRange(path: string, offset: number, length: number): Promise<Uint8Array> {
    if (length <= 0) {
      if ((await this.head(path)) === null) throw new NotFoundError(this.uriOf(path));
      return new Uint8Array(0);
    }
    return this.#read(path, `bytes=${offset}-${offset + length - 1}`);
  }

  async head(path: string): Promise<ObjectMeta | null> {
    const Key = this.#key(path);
    try {
      const res = await this.#send(() => this.#client.send(new HeadObjectCommand({ Bucket: this.bucket, Key })));
      return { size: res.ContentLength ?? 0, ...(res.LastModified !== undefined ? { lastModified: res.LastModified } : {}) };
    } catch (e) {
      if (isMissing(e)) return null;
      throw ioError('stat', this.uriOf(path), e);
    }
  }

  async put(path: string, data: PutBody): Promise<void> {
    const Key = this.#key(path);
    try {
      if (data instanceof Uint8Array && data.byteLength <= this.#threshold) {
        await this.#putObject(Key, data, false);
      } else {
        await uploadStream(data instanceof Uint8Array ? [data] : data, {
          client: this.#client,
          bucket: this.bucket,
          key: Key,
          threshold: this.#threshold,
          partSize: this.#partSize,
          send: (fn) => this.#send(fn),
          putObject: (body) => this.#putObject(Key, body, false),
        });
      }
    } catch (e) {
      throw ioError('write', this.uriOf(path), e);
    }
  }

  async putIfAbsent(path: string, data: PutBody): Promise<boolean> {
    const Key = this.#key(path);
    // One PutObject whatever the size (≤ 5 GiB): conditional creates are for small metadata files.
    const body = await collectOrThrow(data, this.uriOf(path));
    // 409 ConditionalRequestConflict means a concurrent conditional write was in flight: check again.
    for (let round = 1; ; round++) {
      if ((await this.head(path)) !== null) return false;
      try {
        await this.#putObject(Key, body, true);
        return true;
      } catch (e) {
        const status = statusOf(e);
        if (status === 412 || nameOf(e) === 'PreconditionFailed') return false;
        if (status === 409 && round < 3) continue;
        throw ioError('create', this.uriOf(path), e);
      }
    }
  }

  async *list(prefix: string): AsyncIterable<ObjectListing> {
    const Prefix = this.prefix + prefix;
    let ContinuationToken: string | undefined;
    do {
      let res;
      try {
        const input = {
          Bucket: this.bucket,
          Prefix,
          ...(ContinuationToken !== undefined ? { ContinuationToken } : {}),
          ...(this.#pageSize !== undefined ? { MaxKeys: this.#pageSize } : {}),
        };
        res = await this.#send(() => this.#client.send(new ListObjectsV2Command(input)));
      } catch (e) {
        throw ioError('list', `s3://${this.bucket}/${Prefix}`, e);
      }
      for (const obj of res.Contents ?? []) {
        if (obj.Key === undefined) continue;
        yield { path: obj.Key.slice(this.prefix.length), size: obj.Size ?? 0 };
      }
      ContinuationToken = res.IsTruncated === true ? res.NextContinuationToken : undefined;
    } while (ContinuationToken !== undefined);
  }

  async delete(path: string): Promise<void> {
    const Key = this.#key(path);
    try {
      await this.#send(() => this.#client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key })));
    } catch (e) {
      if (!isMissing(e)) throw ioError('remove', this.uriOf(path), e);
    }
  }

  async #read(path: string, Range: string | undefined): Promise<Uint8Array> {
    const Key = this.#key(path);
    try {
      // The body is read inside the retried call, so a connection dropped mid-body is retried too.
      return await this.#send(async () => {
        const res = await this.#client.send(new GetObjectCommand({ Bucket: this.bucket, Key, ...(Range !== undefined ? { Range } : {}) }));
        return res.Body === undefined ? new Uint8Array(0) : await res.Body.transformToByteArray();
      });
    } catch (e) {
      if (isMissing(e)) throw new NotFoundError(this.uriOf(path), e);
      if (statusOf(e) === 416 || nameOf(e) === 'InvalidRange') return new Uint8Array(0);
      throw ioError('read', this.uriOf(path), e);
    }
  }

  async #putObject(Key: string, Body: Uint8Array, ifAbsent: boolean): Promise<void> {
    const input = { Bucket: this.bucket, Key, Body, ContentLength: Body.byteLength, ...(ifAbsent ? { IfNoneMatch: '*' } : {}) };
    await this.#send(() => this.#client.send(new PutObjectCommand(input)));
  }

  #send<T>(fn: () => Promise<T>): Promise<T> {
    return withRetry(fn, this.#retry);
  }

  #key(path: string): string {
    return this.prefix + checkObjectPath(path);
  }
}

async function collectOrThrow(data: PutBody, uri: string): Promise<Uint8Array> {
  if (data instanceof Uint8Array) return data;
  const buf = new ChunkBuffer();
  try {
    for await (const c of data) buf.push(c);
  } catch (e) {
    throw ioError('write', uri, e);
  }
  return buf.take(buf.size);
}

function statusOf(e: unknown): number | undefined {
  return (e as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

function nameOf(e: unknown): string | undefined {
  return e instanceof Error ? e.name : undefined;
}

function isMissing(e: unknown): boolean {
  const name = nameOf(e);
  return name === 'NoSuchKey' || name === 'NotFound' || (statusOf(e) === 404 && name !== 'NoSuchBucket');
}
