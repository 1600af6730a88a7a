/**
 * storage/: bytes in and out of object stores (local filesystem, S3, memory) and URI-level file access
 * for Iceberg. Imports only common/. See README.md.
 */
export type { ObjectListing, ObjectMeta, ObjectStore, PutBody } from './object-store.ts';
export { collectBody } from './object-store.ts';
export { LocalFsStore } from './local-fs-store.ts';
export { MemoryStore } from './memory-store.ts';
export { S3Store, createS3Client, type S3Config, type S3StoreOptions } from './s3-store.ts';
export { withRetry, isRetryable, type RetryOptions } from './retry.ts';
export { NotFoundError, ioError, type IoOperation } from './storage-errors.ts';
export { PathMap, canonicalLocation, type PathMapEntry, type PathMapping } from './path-map.ts';
export { FileIO, type FileIOOptions, type FileIOS3Options, type FileListing, type ResolvedLocation } from './file-io.ts';
