/**
 * StreamingDataWriter: the data files of one partition of a partitioned write, each a multi-row-group Parquet file
 * written front to back while the statement runs. The partition's buffered rows can be flushed at any time
 * (`flushRowGroup`, when the partitioned writer's memory budget is tight) and become row groups of the file being
 * written instead of a file of their own; a new file starts only when this one reaches the target size. So a
 * partitioned COPY writes one file per partition per statement up to the target size, whatever the budget.
 *
 * Encoding is ParquetDataWriter's (Arrow build, metrics, worker-thread encoding, all owned by COPY): one inner
 * writer per file, whose "files" are pieces handed to ParquetSplice through an IcebergWriteIO that appends them
 * to the file instead of storing them. The file streams to the store (IcebergWriteIO.writeStream) as pieces come;
 * without it the file's bytes are kept and written when it is done.
 *
 * With `mergeRowGroups` (partitioned writes), pieces are not appended as they come: a partitioned write holds
 * many partitions at once, so each flush is small, and a row group per flush made scans of by-month lineitem
 * read 5× as many row groups. Encoded pieces are held (compressed, a few times smaller than their rows) until
 * they add up to `rowGroupRows` rows, the file ends, or the partitioned writer needs the memory
 * (`mergeHeld`), and then become ONE row group (parquet-row-group-merge.ts: pages concatenated, dictionaries
 * folded, no value decoded). Merges of at least `mergeInWorkerMinBytes` (off by default) run on an encode thread
 * (parquet-encode-pool.ts mergeInWorker) while this thread goes on staging rows: the file's appends are then
 * chained in order (`OpenFile.tail`), and the encode slots bound the merges in flight.
 */
import { randomUUID } from 'node:crypto';
import type { Batch } from '../../common/batch.ts';
import type { Schema } from '../spec/schema.ts';
import { ByteChannel } from './byte-channel.ts';
import type { ColumnMetrics } from './column-metrics.ts';
import { DEFAULT_ROW_GROUP_ROWS, DEFAULT_TARGET_FILE_SIZE, ENCODE_SLOTS, ParquetDataWriter, type DataFileInfo, type ParquetDataWriterOptions } from './parquet-data-writer.ts';
import { mergeRowGroups } from './parquet-row-group-merge.ts';
import { encodeSlot, mergeInWorker, releaseEncodeSlot } from './parquet-encode-pool.ts';
import { envFlagSetOn } from '../../common/env-settings.ts';
import { ParquetSplice, parquetFooterOf } from './parquet-splice.ts';
import { intField, listField } from './thrift-compact-tree.ts';
import type { IcebergWriteIO } from './write-io.ts';

/**
 * bytes of a file waiting for (or being written to) the store before the piece's writer waits: per open file, and a
 * partitioned write has one per partition (84 for lineitem by month), so what a slow disk makes them hold adds up
 */
const STREAM_HIGH_WATER = 256 * 1024;

/** `targetCountsFileBytes`: rows are flushed as a row group at this many Arrow bytes, so the file's size is known as it grows */
export const FILE_BYTES_ROW_GROUP = 16 * 1024 * 1024;

export interface StreamingDataWriterOptions extends ParquetDataWriterOptions {
  /**
   * the target size counts Parquet bytes written (Iceberg's meaning of write.target-file-size-bytes; compaction)
   * instead of the Arrow bytes of the rows (ParquetDataWriter's, so that regular writes roll alike partitioned or
   * not). Pieces still being encoded are not counted yet: a file can pass the target by what is in flight.
   */
  readonly targetCountsFileBytes?: boolean;
  /** encoded pieces are held and merged into row groups of up to `rowGroupRows` rows (see the header) */
  readonly mergeRowGroups?: boolean;
  /**
   * held pieces of at least this many bytes are merged on an encode thread; Infinity: never. Default:
   * MERGE_IN_WORKER_MIN_BYTES with LAKEGATE_COPY_MERGE_WORKER=on, else Infinity
   */
  readonly mergeInWorkerMinBytes?: number;
}

/**
 * held pieces of this many bytes and more are merged on an encode thread: below it the hand-off costs about what the
 * merge does (TPC-H lineitem by month holds ≈ 0.3–2.5 MB per partition when it merges)
 */
export const MERGE_IN_WORKER_MIN_BYTES = 128 * 1024;

/**
 * merges on an encode thread only with LAKEGATE_COPY_MERGE_WORKER=on. Off by default: in SF 1 lineitem-by-month runs
 * (session 23, load 12–25) it cut the staging thread's CPU (11.1–11.6 s against 12.0–14.0) but raised peak RSS to
 * 940–1001 MB (default 833–868): the pieces and merged row groups are then freed on the other thread, and glibc's
 * per-thread malloc arenas keep that memory. With MALLOC_MMAP_THRESHOLD_=131072 in the server's environment (big
 * buffers always mmapped, returned to the system on free), two pairs: staging thread 12.35 → 11.56 s (median),
 * encode thread +1.3 s, all threads +3.5 %, peak RSS 787 / 816 → 804 / 800 MB.
 */
const mergeInWorkerDefault = (): number => (envFlagSetOn('LAKEGATE_COPY_MERGE_WORKER') ? MERGE_IN_WORKER_MIN_BYTES : Infinity);

interface OpenFile {
  readonly path: string;
  readonly inner: ParquetDataWriter;
  readonly splice: ParquetSplice;
  /** Arrow bytes of the rows already flushed into the file (the target size is counted in Arrow bytes, as ParquetDataWriter does) */
  flushedBytes: number;
  readonly channel: ByteChannel | null;
  /** the store's write of the streamed body; null when buffered */
  readonly stored: Promise<void> | null;
  /** the file's bytes when the store cannot stream */
  readonly chunks: Uint8Array[];
  /** encoded pieces waiting to be merged into one row group (mergeRowGroups) */
  held: Uint8Array[];
  heldRows: number;
  heldBytes: number;
  /** the file's appends so far, in order: a merge on an encode thread appends when it is done, later ones after it */
  tail: Promise<void>;
}

/** metrics of a file = metrics of its pieces merged (counts added, bounds widened) */
function mergedMetrics(pieces: readonly DataFileInfo[]): readonly ColumnMetrics[] {
  const [first, ...rest] = pieces;
  if (first === undefined) return [];
  for (const p of rest) p.metrics.forEach((m, i) => first.metrics[i]?.merge(m));
  return first.metrics;
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((s, c) => s + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

export class StreamingDataWriter {
  readonly files: DataFileInfo[] = [];
  private cur: OpenFile | null = null;
  private readonly target: number;
  private readonly countFileBytes: boolean;
  private readonly merging: boolean;
  private readonly rowGroupRows: number;
  private readonly mergeInWorkerMin: number;
  private readonly fileOptions: ParquetDataWriterOptions;
  /** every file started (done or not): what abort() removes */
  private readonly started: string[] = [];

  constructor(
    private readonly io: IcebergWriteIO,
    private readonly dataLocation: string,
    private readonly schema: Schema,
    options: StreamingDataWriterOptions = {},
  ) {
    const { targetCountsFileBytes, mergeRowGroups: merging, mergeInWorkerMinBytes, ...fileOptions } = options;
    this.mergeInWorkerMin = mergeInWorkerMinBytes ?? mergeInWorkerDefault();
    this.fileOptions = fileOptions;
    this.countFileBytes = targetCountsFileBytes === true;
    this.merging = merging === true;
    this.rowGroupRows = options.rowGroupRows ?? DEFAULT_ROW_GROUP_ROWS;
    this.target = options.targetFileSizeBytes ?? DEFAULT_TARGET_FILE_SIZE;
  }

  /** Arrow bytes of rows buffered and not yet flushed */
  get bufferedBytes(): number {
    return this.cur?.inner.bufferedBytes ?? 0;
  }

  /** bytes of encoded pieces held for a merge (mergeRowGroups) */
  get heldBytes(): number {
    return this.cur?.heldBytes ?? 0;
  }

  /** the held pieces become one row group of the current file now (the partitioned writer needs the memory) */
  async mergeHeld(): Promise<void> {
    if (this.cur !== null) await this.flushHeld(this.cur);
  }

  async add(batch: Batch): Promise<void> {
    if (batch.length === 0) return;
    const f = (this.cur ??= this.openFile());
    await f.inner.add(batch);
    if (this.countFileBytes) {
      if (f.inner.bufferedBytes >= FILE_BYTES_ROW_GROUP) await this.flushRowGroup();
      if (f.splice.bytesWritten + f.heldBytes >= this.target) await this.finishFile();
    } else if (f.flushedBytes + f.inner.bufferedBytes >= this.target) {
      await this.finishFile();
    }
  }

  /** the buffered rows become row groups of the current file (encoded in the background) */
  async flushRowGroup(): Promise<void> {
    const f = this.cur;
    if (f === null || f.inner.bufferedBytes === 0) return;
    f.flushedBytes += f.inner.bufferedBytes;
    await f.inner.flush();
  }

  /** flushes and returns every file written */
  async close(): Promise<DataFileInfo[]> {
    await this.finishFile();
    return this.files;
  }

  /** a failed statement: drops buffered rows, stops the open file's upload and removes every file written */
  async abort(): Promise<void> {
    const f = this.cur;
    this.cur = null;
    if (f !== null) await this.drop(f, new Error('write aborted'));
    const del = this.io.delete?.bind(this.io);
    if (del === undefined) return;
    await Promise.allSettled(this.started.splice(0).map((p) => del(p)));
  }

  private openFile(): OpenFile {
    const path = `${this.dataLocation}/${randomUUID()}-${String(this.started.length).padStart(5, '0')}.parquet`;
    this.started.push(path);
    const writeStream = this.io.writeStream?.bind(this.io);
    const channel = writeStream === undefined ? null : new ByteChannel(STREAM_HIGH_WATER);
    const chunks: Uint8Array[] = [];
    let stored: Promise<void> | null = null;
    if (channel !== null && writeStream !== undefined) {
      stored = writeStream(path, channel).catch((e: unknown) => {
        // the store gave up: pushes waiting for it fail instead of hanging
        channel.fail(e);
        throw e;
      });
      stored.catch(() => undefined);
    }
    const splice = new ParquetSplice(async (chunk) => {
      if (channel !== null) await channel.push(chunk);
      else chunks.push(chunk);
    });
    // the inner writer's files are pieces of this one: appended (or held), never stored or removed on their own
    const pieces: IcebergWriteIO = {
      read: (uri) => this.io.read(uri),
      readRange: (uri, offset, length) => this.io.readRange(uri, offset, length),
      writeIfAbsent: (uri, data) => this.io.writeIfAbsent(uri, data),
      write: (_uri, data) => (this.merging ? this.hold(f, data) : splice.append(data)),
      delete: async () => undefined,
    };
    const inner = new ParquetDataWriter(pieces, this.dataLocation, this.schema, { ...this.fileOptions, targetFileSizeBytes: Number.MAX_SAFE_INTEGER });
    const f: OpenFile = { path, inner, splice, flushedBytes: 0, channel, stored, chunks, held: [], heldRows: 0, heldBytes: 0, tail: Promise.resolve() };
    return f;
  }

  /** keeps an encoded piece for the next merged row group; a piece that is a row group (or more) on its own is appended */
  private async hold(f: OpenFile, piece: Uint8Array): Promise<void> {
    const { meta } = parquetFooterOf(piece);
    const rows = intField(meta, 3) ?? 0;
    // flushHeld takes the held pieces and its place in the file's appends before it waits: pieces arriving
    // meanwhile (other encodes finishing) are held or appended after it, in order
    if (listField(meta, 4).length !== 1 || rows >= this.rowGroupRows) {
      const flushed = this.flushHeld(f);
      const appended = this.appendInOrder(f, [piece]);
      await flushed;
      await appended;
      return;
    }
    const flushed = f.heldRows + rows > this.rowGroupRows ? this.flushHeld(f) : null;
    f.held.push(piece);
    f.heldRows += rows;
    f.heldBytes += piece.byteLength;
    await flushed;
  }

  /**
   * the held pieces, merged into one row group, appended to the file (each on its own if the merge cannot take
   * them). Synchronously, before any wait: the pieces are taken and the append is chained (the file's order). A big
   * merge goes to an encode thread once a slot is free and is appended when done; this waits only for the slot
   */
  private async flushHeld(f: OpenFile): Promise<void> {
    const pieces = f.held;
    if (pieces.length === 0) return;
    const bytes = f.heldBytes;
    f.held = [];
    f.heldRows = 0;
    f.heldBytes = 0;
    if (pieces.length > 1 && bytes >= this.mergeInWorkerMin) {
      const slot = encodeSlot(ENCODE_SLOTS);
      const parts = slot.then(() => mergeInWorker(pieces));
      // the slot is held until the merged bytes are in the file: merges in flight stay bounded however slow the store
      const appended = f.tail.then(async () => {
        for (const p of await parts) await f.splice.append(p);
      });
      f.tail = appended;
      void slot.then(() => appended.finally(releaseEncodeSlot).catch(() => undefined));
      // a failure surfaces when the file is finished (finishFile awaits the tail); not an unhandled rejection before
      f.tail.catch(() => undefined);
      parts.catch(() => undefined);
      await slot;
      return;
    }
    const merged = pieces.length === 1 ? pieces[0]! : mergeRowGroups(pieces);
    await this.appendInOrder(f, merged !== null ? [merged] : pieces);
  }

  /** appends `parts` to the file after everything chained before them (a merge may still run on an encode thread) */
  private appendInOrder(f: OpenFile, parts: readonly Uint8Array[]): Promise<void> {
    const appended = f.tail.then(async () => {
      for (const p of parts) await f.splice.append(p);
    });
    f.tail = appended;
    f.tail.catch(() => undefined);
    return appended;
  }

  /** the current file: its last rows flushed, its pieces appended, footer written and stored */
  private async finishFile(): Promise<void> {
    const f = this.cur;
    if (f === null) return;
    this.cur = null;
    try {
      const pieces = await f.inner.close();
      await this.flushHeld(f);
      await f.tail;
      if (pieces.length === 0) {
        await this.drop(f, new Error('empty file'));
        return;
      }
      const size = await f.splice.finish();
      if (f.channel !== null) {
        f.channel.end();
        await f.stored;
      } else {
        await this.io.write(f.path, concat(f.chunks));
      }
      const recordCount = pieces.reduce((s, p) => s + p.recordCount, 0);
      this.files.push({ path: f.path, fileSizeInBytes: size, recordCount, metrics: mergedMetrics(pieces) });
    } catch (e) {
      await this.drop(f, e);
      throw e;
    }
  }

  /** stops a file that will not be finished: its upload ends with `why`, so the store keeps nothing */
  private async drop(f: OpenFile, why: unknown): Promise<void> {
    await f.inner.abort();
    f.held = [];
    f.heldBytes = 0;
    f.channel?.fail(why);
    // a merge still running on an encode thread: its append fails on the failed channel, and its slot is given back
    await f.tail.catch(() => undefined);
    await f.stored?.catch(() => undefined);
  }
}
