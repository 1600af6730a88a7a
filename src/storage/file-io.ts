/**
 * FileIO: the URI-level file access Iceberg code uses. Every location first goes through the PathMap,
 * then resolves to (ObjectStore, path):
 *
 *   s3://bucket/key, s3a://…, s3n://…  → S3Store for `bucket` (one S3Client for the FileIO's S3 config)
 *   /abs/path, file:///abs/path, file:/abs/path, file://localhost/abs → LocalFsStore rooted at `/`
 *   rel/path, ./rel/path, file://rel/path (malformed) → LocalFsStore, resolved against `baseDir`
 *   memory://name/key                  → a MemoryStore per name, living as long as this FileIO (tests)
 *
 * Other schemes raise 0A000. Paths are used literally (no percent-decoding), as Iceberg writes them.
 */
import { isAbsolute, resolve as resolvePath } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { notSupported } from '../common/errors.ts';
import { LocalFsStore } from './local-fs-store.ts';
import { MemoryStore } from './memory-store.ts';
import type { ObjectMeta, ObjectStore, PutBody } from './object-store.ts';
import { PathMap, fileUriPath, type PathMapEntry } from './path-map.ts';
import type { RetryOptions } from './retry.ts';
import { S3Store, createS3Client, type S3Config } from './s3-store.ts';
import { NotFoundError } from './storage-errors.ts';

export interface FileIOS3Options extends S3Config {
  readonly multipartThreshold?: number;
  readonly partSize?: number;
  readonly listPageSize?: number;
  readonly retry?: RetryOptions;
}

export interface FileIOOptions {
  /** Ordered `FROM=TO` prefix rewrites (see PathMap). */
  readonly pathMap?: readonly PathMapEntry[];
  readonly s3?: FileIOS3Options;
  /** Directory relative locations resolve against (default: process.cwd()). */
  readonly baseDir?: string;
}

/** local locations a FileIO keeps resolved (locate); cleared whole when full */
const LOCATED_URIS = 4096;

/** Where a location lives: the store and the store-relative path. */
export interface ResolvedLocation {
  readonly store: ObjectStore;
  readonly path: string;
}

export interface FileListing {
  /** The listed object's location, spelled from the prefix given to list(). */
  readonly uri: string;
  readonly size: number;
}

export class FileIO {
  readonly baseDir: string;
  readonly #pathMap: PathMap;
  readonly #pathMapEntries: readonly PathMapEntry[];
  readonly #s3Options: FileIOS3Options;
  readonly #local = new LocalFsStore('/');
  readonly #buckets = new Map<string, S3Store>();
  readonly #memory = new Map<string, MemoryStore>();
  #s3Client: S3Client | undefined;

  constructor(opts: FileIOOptions = {}) {
    this.baseDir = resolvePath(opts.baseDir ?? process.cwd());
    this.#pathMapEntries = [...(opts.pathMap ?? [])];
    this.#pathMap = new PathMap(this.#pathMapEntries);
    this.#s3Options = opts.s3 ?? {};
  }

  /**
   * The options this FileIO was built with, structured-cloneable (injected retry functions dropped), so a
   * worker thread can build an equivalent FileIO. memory:// stores are per FileIO and are not shared.
   */
  describe(): FileIOOptions {
    const { retry, ...s3 } = this.#s3Options;
    const r = retry === undefined ? undefined
      : { ...(retry.maxAttempts === undefined ? {} : { maxAttempts: retry.maxAttempts }), ...(retry.baseDelayMs === undefined ? {} : { baseDelayMs: retry.baseDelayMs }), ...(retry.maxDelayMs === undefined ? {} : { maxDelayMs: retry.maxDelayMs }) };
    return { pathMap: this.#pathMapEntries, s3: r === undefined ? s3 : { ...s3, retry: r }, baseDir: this.baseDir };
  }

  /** The location after path-map rewrites (what gets opened, and what tests check). */
  resolve(uri: string): string {
    return this.#pathMap.apply(uri);
  }

  /**
   * Local locations by uri, as locate() resolved them: a scan locates the same data files once per column-chunk,
   * footer and page-index read, and the path map, four regular expressions and path.resolve per read were ~1–2 %
   * of a scan thread (TPC-H q10 / q17); the answer also hands LocalFsStore the same path string each time, whose
   * hash V8 keeps. Only local answers are kept: the path map and base dir are fixed, the local store never changes
   * (an S3 store is made again after close()).
   */
  readonly #located = new Map<string, ResolvedLocation>();

  /** The store and store-relative path for a location (for callers that want ObjectStore directly). */
  locate(uri: string): ResolvedLocation {
    const hit = this.#located.get(uri);
    if (hit !== undefined) return hit;
    const at = this.#locate(this.resolve(uri), false);
    if (at.store === this.#local) {
      if (this.#located.size >= LOCATED_URIS) this.#located.clear();
      this.#located.set(uri, at);
    }
    return at;
  }

  read(uri: string): Promise<Uint8Array> {
    const { store, path } = this.locate(uri);
    return store.get(path);
  }

  readRange(uri: string, offset: number, length: number): Promise<Uint8Array> {
    const { store, path } = this.locate(uri);
    return store.getRange(path, offset, length);
  }

  head(uri: string): Promise<ObjectMeta | null> {
    const { store, path } = this.locate(uri);
    return store.head(path);
  }

  /** Size in bytes; a missing file → NotFoundError (58030). */
  async size(uri: string): Promise<number> {
    const { store, path } = this.locate(uri);
    const meta = await store.head(path);
    if (meta === null) throw new NotFoundError(store.uriOf(path));
    return meta.size;
  }

  async exists(uri: string): Promise<boolean> {
    return (await this.head(uri)) !== null;
  }

  write(uri: string, data: PutBody): Promise<void> {
    const { store, path } = this.locate(uri);
    return store.put(path, data);
  }

  /** Atomic create: true when written, false when the file already existed. */
  writeIfAbsent(uri: string, data: PutBody): Promise<boolean> {
    const { store, path } = this.locate(uri);
    return store.putIfAbsent(path, data);
  }

  delete(uri: string): Promise<void> {
    const { store, path } = this.locate(uri);
    return store.delete(path);
  }

  /** Every file whose location starts with `uriPrefix` (plain string prefix after mapping). */
  async *list(uriPrefix: string): AsyncIterable<FileListing> {
    const { store, path } = this.#locate(this.resolve(uriPrefix), true);
    // `s3://bucket` lists the bucket root; its entries are spelled `s3://bucket/key`.
    const base = /^s3[an]?:\/\/[^/]+$/i.test(uriPrefix) ? `${uriPrefix}/` : uriPrefix;
    for await (const obj of store.list(path)) {
      yield { uri: base + obj.path.slice(path.length), size: obj.size };
    }
  }

  /** Releases the S3 client's sockets. */
  close(): void {
    this.#s3Client?.destroy();
    this.#s3Client = undefined;
    this.#buckets.clear();
  }

  #locate(location: string, forList: boolean): ResolvedLocation {
    const s3 = /^s3[an]?:\/\/([^/]+)\/?(.*)$/i.exec(location);
    if (s3 !== null) return { store: this.#bucket(s3[1] ?? ''), path: s3[2] ?? '' };
    const mem = /^memory:\/\/([^/]+)\/?(.*)$/i.exec(location);
    if (mem !== null) return { store: this.#memoryStore(mem[1] ?? ''), path: mem[2] ?? '' };
    let fsPath = /^file:/i.test(location) ? fileUriPath(location) : location;
    const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(fsPath);
    if (scheme !== null) throw notSupported(`storage scheme "${scheme[1] ?? ''}"`);
    const trailingSlash = fsPath.endsWith('/');
    fsPath = isAbsolute(fsPath) ? resolvePath(fsPath) : resolvePath(this.baseDir, fsPath);
    // A listing prefix keeps its trailing slash, so `dir/` does not also match `dir2/…`.
    if (forList && trailingSlash && !fsPath.endsWith('/')) fsPath += '/';
    return { store: this.#local, path: fsPath.slice(1) };
  }

  #bucket(bucket: string): S3Store {
    let store = this.#buckets.get(bucket);
    if (store === undefined) {
      const { multipartThreshold, partSize, listPageSize, retry, ...config } = this.#s3Options;
      this.#s3Client ??= createS3Client(config);
      store = new S3Store({
        client: this.#s3Client,
        bucket,
        ...(multipartThreshold !== undefined ? { multipartThreshold } : {}),
        ...(partSize !== undefined ? { partSize } : {}),
        ...(listPageSize !== undefined ? { listPageSize } : {}),
        ...(retry !== undefined ? { retry } : {}),
      });
      this.#buckets.set(bucket, store);
    }
    return store;
  }

  #memoryStore(name: string): MemoryStore {
    let store = this.#memory.get(name);
    if (store === undefined) this.#memory.set(name, (store = new MemoryStore(name)));
    return store;
  }
}
