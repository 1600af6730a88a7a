/**
 * Errors of reading one table file, as PostgreSQL reports a damaged relation file: 58030 (io_error) when
 * the bytes cannot be had (missing file, unreachable store — IcebergIO already raises those), XX001
 * (data_corrupted) when they are there but do not decode. Either way the message names the file, so an
 * operator knows what to restore; the session and the server go on.
 */
import { GatewayError, pgError } from '../common/errors.ts';
import type { IcebergIO } from './io.ts';

const PASS_THROUGH = new Set(['58030', '57014', 'XX001', '0A000']);

/**
 * `e` raised while decoding `uri` (a `kind` file: "Parquet", "Avro", "table metadata"): I/O errors,
 * cancellation and already-classified errors pass through; anything else becomes XX001 naming the file.
 */
export function fileReadError(kind: string, uri: string, e: unknown): GatewayError {
  if (GatewayError.is(e) && (PASS_THROUGH.has(e.code) || !e.code.startsWith('XX'))) return e;
  const why = e instanceof Error ? e.message : String(e);
  return pgError('XX001', why.includes(`"${uri}"`) ? why : `could not read ${kind} file "${uri}": ${why}`, { cause: e });
}

/**
 * Wraps an IcebergIO for parquet-wasm's ranged reads: a rejected read inside the WASM reader's futures aborts
 * the module (RuntimeError: unreachable) and leaves the query hanging, so a failed readRange is recorded here
 * and answered with zero bytes instead. The reader then fails with its own EOF error, and `rethrow` prefers
 * the recorded I/O error (58030 naming the file) over it.
 */
export class GuardedReads {
  private failure: unknown = undefined;

  constructor(private readonly inner: IcebergIO) {}

  get io(): IcebergIO {
    const inner = this.inner;
    return {
      read: (uri) => inner.read(uri),
      readRange: async (uri, offset, length) => {
        try {
          return await inner.readRange(uri, offset, length);
        } catch (e) {
          this.failure ??= e;
          return new Uint8Array(0);
        }
      },
    };
  }

  /** the error to raise for a failure of the reader on `uri` */
  error(kind: string, uri: string, e: unknown): GatewayError {
    return fileReadError(kind, uri, this.failure ?? e);
  }
}
