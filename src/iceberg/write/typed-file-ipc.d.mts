/** Types of typed-file-ipc.mjs (plain JS so the encode worker loads it without tsx). */
import type { TypedColumn } from './typed-columns.ts';
import type { typedBounds } from './typed-bounds.mjs';

export type BufferColumn = Exclude<TypedColumn, { kind: 'values' }>;
export type TypedBounds = ReturnType<typeof typedBounds>;

export interface TypedFileBatch {
  readonly length: number;
  /** one per field of the file's schema, each matching the field's type */
  readonly columns: readonly BufferColumn[];
}

export interface TypedFile {
  /** the file's Arrow schema as an IPC stream without batches */
  readonly schema: Uint8Array;
  readonly batches: readonly TypedFileBatch[];
}

/** on a worker thread `ipc` is a view of a buffer reused by the next call (read it before calling again) */
export function typedFileIpc(task: TypedFile): { ipc: Uint8Array; bounds: TypedBounds[][] };
export function typedFileBuffers(batches: readonly TypedFileBatch[]): ArrayBuffer[];
