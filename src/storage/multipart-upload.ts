/**
 * Streaming upload to S3: buffers up to `threshold` bytes; a body that ends before that is one PutObject,
 * a longer one becomes a multipart upload (CreateMultipartUpload → UploadPart × n →
 * CompleteMultipartUpload, AbortMultipartUpload on any failure) cut into `partSize` parts, so memory stays
 * near max(threshold, partSize) whatever the body size. Parts go up one at a time.
 * @see https://docs.aws.amazon.com/AmazonS3/latest/userguide/mpuoverview.html
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3';

export interface UploadTarget {
  readonly client: S3Client;
  readonly bucket: string;
  readonly key: string;
  readonly threshold: number;
  readonly partSize: number;
  /** Runs one request with the store's retry policy. */
  send<T>(fn: () => Promise<T>): Promise<T>;
  /** The single-request path for bodies at or below the threshold. */
  putObject(body: Uint8Array): Promise<void>;
}

export async function uploadStream(data: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, t: UploadTarget): Promise<void> {
  const { client, bucket: Bucket, key: Key } = t;
  const buf = new ChunkBuffer();
  let UploadId: string | undefined;
  const parts: CompletedPart[] = [];
  const uploadPart = async (Body: Uint8Array): Promise<void> => {
    const PartNumber = parts.length + 1;
    const res = await t.send(() => client.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body, ContentLength: Body.byteLength })));
    parts.push({ PartNumber, ETag: res.ETag });
  };
  try {
    for await (const chunk of data) {
      buf.push(chunk);
      if (UploadId === undefined && buf.size > t.threshold) {
        const res = await t.send(() => client.send(new CreateMultipartUploadCommand({ Bucket, Key })));
        UploadId = res.UploadId;
        if (UploadId === undefined) throw new Error('CreateMultipartUpload returned no UploadId');
      }
      while (UploadId !== undefined && buf.size >= t.partSize) await uploadPart(buf.take(t.partSize));
    }
    if (UploadId === undefined) return await t.putObject(buf.take(buf.size));
    if (buf.size > 0 || parts.length === 0) await uploadPart(buf.take(buf.size));
    await t.send(() => client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } })));
  } catch (e) {
    if (UploadId !== undefined) {
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => undefined);
    }
    throw e;
  }
}

/** FIFO of chunks from which fixed-size parts are cut without copying more than once. */
export class ChunkBuffer {
  #chunks: Uint8Array[] = [];
  size = 0;

  push(chunk: Uint8Array): void {
    if (chunk.byteLength === 0) return;
    this.#chunks.push(chunk);
    this.size += chunk.byteLength;
  }

  take(n: number): Uint8Array {
    const out = new Uint8Array(Math.min(n, this.size));
    let at = 0;
    while (at < out.byteLength) {
      const head = this.#chunks[0];
      if (head === undefined) break;
      const k = Math.min(head.byteLength, out.byteLength - at);
      out.set(head.subarray(0, k), at);
      at += k;
      if (k === head.byteLength) this.#chunks.shift();
      else this.#chunks[0] = head.subarray(k);
    }
    this.size -= at;
    return out;
  }
}
