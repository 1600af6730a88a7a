/**
 * SocketReader: reads a plain TCP socket into one reused buffer, the way `net.Socket`'s `onread` option
 * does, instead of through stream 'data' events. Per read that saves Node's 64 KiB read allocation, its
 * ArrayBuffer and Buffer objects, and the Readable push / emit path: the bytes go from libuv straight to
 * the callback, which must be done with them when it returns (FrontendParser.push(chunk, borrowed)).
 *
 * `net.Server` has no `onread` option for accepted sockets, so this installs on an accepted socket what
 * `new net.Socket({ onread })` would (its buffer and callback slots, and the handle's `useUserBuffer`).
 * Where that is not possible (another Node version, a TLS socket, a test double) it says so and the
 * caller keeps its 'data' listener. pause() / resume() keep working: net.Socket stops and starts the
 * handle's reading itself when the slots are set. A short read's view is made once per length and handed out
 * again for every read of that length (valid only during the call, as the buffer's bytes are).
 * @see https://nodejs.org/docs/latest-v20.x/api/net.html#socketconnectoptions-connectlistener (onread)
 */
import type { Socket } from 'node:net';
import { streamWrapBinding } from './stream-wrap-binding.ts';

/** the size of each connection's read buffer: Node's own read size */
export const READ_BUFFER_SIZE = 64 * 1024;
/** reads up to this many bytes get a view of the buffer made once per length (a round trip's messages are short) */
const KEPT_VIEW_BYTES = 256;

interface UserBufferHandle {
  useUserBuffer(buffer: Uint8Array): void;
  /** the JS function libuv's reads call (net.Socket installs Node's onStreamRead) */
  onread: ((this: unknown, arrayBuffer: ArrayBuffer) => unknown) | null;
}

/** the Socket's private slots that `onread` fills, found by their description (Node 18–22) */
function onreadSlots(socket: Socket): { buffer: symbol; callback: symbol } | null {
  let buffer: symbol | undefined;
  let callback: symbol | undefined;
  for (const s of Object.getOwnPropertySymbols(socket)) {
    if (s.description === 'kBuffer') buffer = s;
    else if (s.description === 'kBufferCb') callback = s;
  }
  return buffer === undefined || callback === undefined ? null : { buffer, callback };
}

/**
 * Switches `socket` to reads into one reused buffer: `onChunk` gets a view of the bytes read, valid only
 * until it returns. Returns false (and changes nothing) when the socket cannot be switched; the caller
 * then keeps reading 'data' events. Bytes the stream had already buffered are handed over first.
 */
export function readIntoReusedBuffer(socket: Socket, onChunk: (chunk: Buffer) => void): boolean {
  const slots = onreadSlots(socket);
  const handle = (socket as unknown as { _handle?: Partial<UserBufferHandle> | null })._handle;
  if (slots === null || handle === null || handle === undefined || typeof handle.useUserBuffer !== 'function') return false;
  const record = socket as unknown as Record<symbol, unknown>;
  if (record[slots.buffer] !== null || record[slots.callback] !== null) return false;
  const buffer = Buffer.allocUnsafe(READ_BUFFER_SIZE);
  handle.useUserBuffer(buffer);
  record[slots.buffer] = buffer;
  // the view of a read's bytes is borrowed like the buffer itself, so one per length serves every read of that
  // length: no Buffer object per read (a pgbench round trip reads the same few lengths over and over)
  const views: (Buffer | undefined)[] = [];
  const deliver = (nread: number, buf: Buffer): void => {
    if (nread > KEPT_VIEW_BYTES || buf !== buffer) return onChunk(buf.subarray(0, nread));
    let view = views[nread];
    if (view === undefined) {
      while (views.length < nread) views.push(undefined);
      view = views[nread] = buf.subarray(0, nread);
    }
    onChunk(view);
  };
  record[slots.callback] = deliver;
  // Bytes read go straight to `deliver`: Node's onStreamRead would first look the socket and its slots up through
  // megamorphic symbol loads and refresh the socket's idle timer (connections here use none). EOF and errors stay
  // with onStreamRead, which ends or destroys the stream as it always does. No destroyed check: destroy() closes
  // the handle and sets its onread to a no-op in the same synchronous call, so no read reaches this one after it.
  const state = streamWrapBinding();
  const nodeOnread = typeof handle.onread === 'function' ? handle.onread : null;
  if (state !== null && nodeOnread !== null) {
    const bytes = state.streamBaseState;
    const slot = state.kReadBytesOrError;
    handle.onread = function onread(this: unknown, arrayBuffer: ArrayBuffer): unknown {
      const nread = bytes[slot]!;
      if (nread > 0) return deliver(nread, buffer);
      return nodeOnread.call(this, arrayBuffer);
    };
  }
  // whatever the stream read before the switch is still in its queue
  for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null) onChunk(chunk);
  return true;
}
