/**
 * SocketWriter: writes a plain TCP socket's output straight through its libuv handle, the way `net.Socket`
 * does underneath `socket.write`, without the Writable stream around it. Per write that saves the stream's
 * state machine (writeOrBuffer, the onwrite callback, a process.nextTick for afterWrite) and, when the kernel
 * takes every byte at once (the usual case for a ReadyForQuery round trip), the WriteWrap request object: one
 * request is kept and only handed to libuv when a write has to wait (socket buffer full).
 *
 * The counterpart of socket-reader.ts, with the same rule: where the handle or Node's stream_wrap binding is
 * not what this expects (another Node version, TLS, a test double) `socketWriter` answers null and the caller
 * keeps `socket.write`. Writes that `socket.write` queued in the stream (bytes not yet handed to libuv) go first:
 * a direct write is only made while `writableLength` is 0; otherwise it falls back to `socket.write` itself.
 * @see https://github.com/nodejs/node/blob/v20.x/lib/internal/stream_base_commons.js (writeGeneric)
 */
import type { Socket } from 'node:net';
import { streamWrapBinding, type StreamWrapBinding, type WriteReq } from './stream-wrap-binding.ts';

/** what libuv's stream handle offers (LibuvStreamWrap::WriteBuffer) */
interface WriteHandle {
  writeBuffer(req: WriteReq, data: Uint8Array): number;
}

/** SocketWriter.write's answers: the bytes went to the kernel / are kept (room for more) / are kept (wait) */
export const WRITTEN = 0;
export const KEPT = 1;
export const FULL = 2;
export type WriteOutcome = typeof WRITTEN | typeof KEPT | typeof FULL;

export class SocketWriter {
  /** the request for the next write; replaced after a write that libuv had to queue */
  private req: WriteReq;
  /** direct writes libuv has not finished yet */
  private pending = 0;
  private waiters: Array<() => void> = [];
  /** the binding's state array and the index of its "last write was async" flag, kept here: the binding object's loads are megamorphic */
  private readonly state: Int32Array;
  private readonly lastWriteWasAsync: number;

  private constructor(
    private readonly socket: Socket,
    private readonly handle: WriteHandle,
    private readonly b: StreamWrapBinding,
  ) {
    this.req = new b.WriteWrap();
    this.state = b.streamBaseState;
    this.lastWriteWasAsync = b.kLastWriteWasAsync;
  }

  /**
   * Writes `bytes`. Answers WRITTEN when the kernel took them all (the caller may reuse the memory at once),
   * KEPT when the bytes are held for a later write but there is room for more (leave the memory alone), FULL
   * when they wait and the caller must also await `drained()` before writing more. A failed write destroys
   * the socket, as a failed `socket.write` does.
   */
  write(bytes: Uint8Array): WriteOutcome {
    const socket = this.socket;
    // bytes the stream still holds must go first: through the stream then. A destroyed socket has no handle
    // (destroy() drops it synchronously), so the destroyed check is only needed off the direct path
    if (this.handleOf() !== this.handle || socket.writableLength > 0) {
      if (socket.destroyed) return WRITTEN;
      return socket.write(bytes) ? KEPT : FULL;
    }
    const req = this.req;
    const err = this.handle.writeBuffer(req, bytes);
    if (err !== 0) {
      socket.destroy(new Error(`write failed (${err})`));
      return WRITTEN;
    }
    if (this.state[this.lastWriteWasAsync] === 0) return WRITTEN;
    // libuv queued the rest (the socket's kernel buffer is full): the request and the bytes are its own until
    // oncomplete, and the caller waits, as a blocking send would
    req.buffer = bytes;
    req.oncomplete = (status: number) => this.completed(req, status);
    this.req = new this.b.WriteWrap();
    this.pending++;
    return FULL;
  }

  /** resolves once every queued write finished (or the socket is gone); after FULL */
  drained(): Promise<void> {
    if (this.pending === 0) {
      if (this.socket.writableLength === 0 || this.socket.destroyed) return Promise.resolve();
      return new Promise((resolve) => {
        const done = (): void => {
          this.socket.off('drain', done);
          this.socket.off('close', done);
          resolve();
        };
        this.socket.on('drain', done);
        this.socket.on('close', done);
      });
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** wakes whoever waits (the connection closed) */
  wakeAll(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }

  private completed(req: WriteReq, status: number): void {
    req.buffer = null;
    this.pending--;
    if (status < 0 && !this.socket.destroyed) this.socket.destroy(new Error(`write failed (${status})`));
    if (this.pending === 0) this.wakeAll();
  }

  private handleOf(): unknown {
    return (this.socket as unknown as { _handle?: unknown })._handle;
  }

  /** A direct writer for a plain socket, or null (keep socket.write) when its handle is not libuv's stream. */
  static for(socket: Socket): SocketWriter | null {
    // an escape hatch while this leans on process.binding (DEP0111): LAKEGATE_SOCKET_WRITES=stream keeps socket.write
    if (process.env['LAKEGATE_SOCKET_WRITES'] === 'stream') return null;
    const b = streamWrapBinding();
    const handle = (socket as unknown as { _handle?: Partial<WriteHandle> | null })._handle;
    if (b === null || handle === null || handle === undefined || typeof handle.writeBuffer !== 'function') return null;
    return new SocketWriter(socket, handle as WriteHandle, b);
  }
}
