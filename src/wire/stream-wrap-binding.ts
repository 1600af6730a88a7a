/**
 * Node's `stream_wrap` binding (in process.binding's allowed list since Node 11), shared by socket-reader.ts and
 * socket-writer.ts: the WriteWrap request class and the state array where libuv's stream calls leave a read's
 * byte count and whether the last write had to wait. Null when the binding is absent or not of this shape
 * (another Node version): the callers then keep Node's own stream paths.
 * @see https://github.com/nodejs/node/blob/v20.x/src/stream_base.h (StreamBaseStateFields)
 */

/** a WriteWrap request: libuv keeps it, and the bytes, until the write completed (then oncomplete runs) */
export interface WriteReq {
  oncomplete?: (status: number) => void;
  buffer?: Uint8Array | null;
}

export interface StreamWrapBinding {
  readonly WriteWrap: new () => WriteReq;
  readonly streamBaseState: Int32Array;
  /** index in streamBaseState: a read's byte count, or its error */
  readonly kReadBytesOrError: number;
  /** index in streamBaseState: 1 when libuv queued the last write (the kernel did not take every byte) */
  readonly kLastWriteWasAsync: number;
}

let binding: StreamWrapBinding | null | undefined;

export function streamWrapBinding(): StreamWrapBinding | null {
  if (binding !== undefined) return binding;
  binding = null;
  try {
    const b = (process as unknown as { binding(name: string): Partial<StreamWrapBinding> }).binding('stream_wrap');
    if (typeof b.WriteWrap === 'function' && b.streamBaseState instanceof Int32Array && typeof b.kReadBytesOrError === 'number' && typeof b.kLastWriteWasAsync === 'number') {
      binding = b as StreamWrapBinding;
    }
  } catch {
    // no binding: callers keep Node's stream paths
  }
  return binding;
}
