/**
 * ObjectStore: the byte-level storage interface everything above storage/ reads and writes through
 * (Iceberg metadata JSON, Avro manifests, Parquet data files).
 *
 * Paths are keys relative to the store root: no leading slash, `/` as separator, no `.`/`..` segments
 * (see checkObjectPath).
 * For LocalFsStore the root is a directory, for S3Store a bucket plus an optional key prefix, for
 * MemoryStore a map. Callers that hold URIs (`s3://…`, `file:///…`) go through FileIO, which maps a URI
 * to (store, path).
 *
 * Every failure is a GatewayError 58030 (io_error) naming the object and keeping the cause; a missing
 * object is a NotFoundError (also 58030), see storage-errors.ts.
 */
import { GatewayError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';

export interface ObjectMeta {
  readonly size: number;
  readonly lastModified?: Date;
}

export interface ObjectListing {
  /** Path relative to the store root, as accepted by get/head/delete. */
  readonly path: string;
  readonly size: number;
}

export type PutBody = Uint8Array | AsyncIterable<Uint8Array>;

export interface ObjectStore {
  /** Whole object. Missing → NotFoundError. */
  get(path: string): Promise<Uint8Array>;
  /**
   * Bytes [offset, offset + length). A range running past the end is cut at the end (possibly empty),
   * as S3 does; a missing object → NotFoundError.
   */
  getRange(path: string, offset: number, length: number): Promise<Uint8Array>;
  /** Size and modification time, or null when the object does not exist. */
  head(path: string): Promise<ObjectMeta | null>;
  /** Creates or replaces the object. Readers never see a partial object. */
  put(path: string, data: PutBody): Promise<void>;
  /**
   * Creates the object only if nothing exists at `path`: true when written, false when it already
   * existed. Used for the Iceberg metadata commit (`v<N>.metadata.json`).
   */
  putIfAbsent(path: string, data: PutBody): Promise<boolean>;
  /** Every object whose path starts with `prefix` (a plain string prefix), in lexicographic path order. */
  list(prefix: string): AsyncIterable<ObjectListing>;
  /** Removes the object; deleting a missing object is not an error (S3 semantics). */
  delete(path: string): Promise<void>;
  /** The display form of a path, used in error messages (`/abs/file`, `s3://bucket/key`, `memory://key`). */
  uriOf(path: string): string;
}

/** Concatenates a body into one buffer (small bodies, conditional writes). */
export async function collectBody(data: PutBody): Promise<Uint8Array> {
  if (data instanceof Uint8Array) return data;
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of data) {
    chunks.push(chunk);
    total += chunk.byteLength;
  }
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * Validates a store-relative path: not empty, no leading slash, no `.` or `..` segment. Empty segments
 * (`a//b`) are allowed because S3 keys written by some engines contain them.
 */
export function checkObjectPath(path: string): string {
  if (path === '' || path.startsWith('/') || path.split('/').some((s) => s === '.' || s === '..')) {
    throw new GatewayError(SqlState.io_error, `could not open file "${path}": invalid object path`);
  }
  return path;
}
