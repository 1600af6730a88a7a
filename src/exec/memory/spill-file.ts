/**
 * Spill files: a sequence of frames, each a 4-byte little-endian length followed by rows serialized with
 * spill-codec.ts. SpillWriter buffers frames into ~1 MB writes; SpillReader reads frame by frame, so a merge
 * holds one frame per file in memory.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { decodeRows, encodeRows } from './spill-codec.ts';

const WRITE_CHUNK = 1 << 20;
const READ_CHUNK = 1 << 18;

export class SpillWriter {
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #written = 0;
  private constructor(readonly path: string, private readonly fh: FileHandle) {}

  static async create(path: string): Promise<SpillWriter> {
    return new SpillWriter(path, await open(path, 'wx'));
  }

  /** bytes written so far (frames still buffered included) */
  get bytes(): number { return this.#written + this.#pendingBytes; }

  async writeFrame(rows: readonly (readonly unknown[])[]): Promise<void> {
    const body = encodeRows(rows);
    const head = Buffer.allocUnsafe(4);
    head.writeUInt32LE(body.length, 0);
    this.#pending.push(head, body);
    this.#pendingBytes += 4 + body.length;
    if (this.#pendingBytes >= WRITE_CHUNK) await this.#flush();
  }

  async #flush(): Promise<void> {
    if (this.#pendingBytes === 0) return;
    const data = Buffer.concat(this.#pending, this.#pendingBytes);
    this.#pending = [];
    this.#written += this.#pendingBytes;
    this.#pendingBytes = 0;
    await this.fh.write(data, 0, data.length, null);
  }

  /** flushes and closes; the total size in bytes */
  async close(): Promise<number> {
    try { await this.#flush(); } finally { await this.fh.close(); }
    return this.#written;
  }

  /** closes without flushing (error paths) */
  async abandon(): Promise<void> {
    this.#pending = [];
    this.#pendingBytes = 0;
    await this.fh.close().catch(() => undefined);
  }
}

export class SpillReader {
  #buf: Buffer = Buffer.alloc(0);
  #pos = 0;
  #filePos = 0;
  #eof = false;
  #closed = false;
  private constructor(private readonly fh: FileHandle) {}

  static async open(path: string): Promise<SpillReader> {
    return new SpillReader(await open(path, 'r'));
  }

  /** the next frame's rows, or null at the end of the file */
  async next(): Promise<unknown[][] | null> {
    if (!(await this.#fill(4))) return null;
    const len = this.#buf.readUInt32LE(this.#pos);
    if (!(await this.#fill(4 + len))) throw new Error('spill file ends inside a frame');
    const frame = this.#buf.subarray(this.#pos + 4, this.#pos + 4 + len);
    this.#pos += 4 + len;
    return decodeRows(frame);
  }

  /** makes `n` unread bytes available; false if the file ends first (with nothing unread: a clean end) */
  async #fill(n: number): Promise<boolean> {
    while (this.#buf.length - this.#pos < n) {
      if (this.#eof) {
        if (this.#buf.length - this.#pos === 0) return false;
        throw new Error('spill file ends inside a frame');
      }
      const rest = this.#buf.subarray(this.#pos);
      const chunk = Buffer.allocUnsafe(Math.max(READ_CHUNK, n - rest.length));
      const { bytesRead } = await this.fh.read(chunk, 0, chunk.length, this.#filePos);
      this.#filePos += bytesRead;
      if (bytesRead === 0) this.#eof = true;
      this.#buf = Buffer.concat([rest, chunk.subarray(0, bytesRead)]);
      this.#pos = 0;
    }
    return true;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.fh.close();
  }
}
