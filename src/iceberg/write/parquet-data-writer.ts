/**
 * ParquetDataWriter: lakegate Batches → Parquet data files (Snappy unless the table names another codec) with Iceberg field ids, rolled at a
 * target size, each described as a DataFileInfo (path, size, record count, per-field metrics) for the
 * manifest. Field ids go into Arrow field metadata `PARQUET:field_id`, which arrow-rs (parquet-wasm)
 * writes as the Parquet schema `field_id`. Required fields are written non-nullable; a NULL in one is
 * 23502 before any file is written for that batch. The size check uses the Arrow buffers (uncompressed),
 * so files come out smaller than the target once compressed. A file made only of TypedBatches whose
 * buffers fit their fields (COPY, typed-columns.ts) is never turned into Arrow here: the buffers are moved to
 * an encode worker, which writes the Parquet file from them in JS (js-parquet-writer.mjs; with
 * LAKEGATE_PARQUET_WRITER=wasm it builds Arrow and the IPC stream for parquet-wasm, typed-file-ipc.mjs) with the
 * bounds, and moves them back for reuse; this thread only waits for a free encode slot. Other files are built as Arrow
 * here (typed columns wrapped without converting) and big ones encoded in a worker (parquet-encode-pool.ts)
 * while the next one fills.
 */
import { randomUUID } from 'node:crypto';
import { Field, RecordBatch, Schema as ArrowSchema, Struct, Table, makeData, tableToIPC, type Data } from 'apache-arrow';
import type { Batch } from '../../common/batch.ts';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { NestedField, Schema } from '../spec/schema.ts';
import { FIELD_ID_KEY } from '../read/arrow-values.ts';
import { arrowColumn, dataBytes } from './arrow-column.ts';
import type { ColumnMetrics } from './column-metrics.ts';
import { arrowTypeOfIceberg, columnMetricsOf, nestedArrowColumn } from './nested-column.ts';
import { onlyNulls, storedInDataFiles } from '../variant/v3-type-rules.ts';
import type { IcebergWriteIO } from './write-io.ts';
import { encodeParquetIpc, encodeTypedFile, type ParquetEncodeOptions, type TypedFileResult } from './parquet-encode.mjs';
import { ENCODE_THREADS, encodeInWorker, encodeSlot, encodeTypedInWorker, releaseEncodeSlot, tryEncodeSlot, warmEncodePool } from './parquet-encode-pool.ts';
import { addTypedBounds, mostlyDistinct, sortedKeys, typedArrowData, typedMatches, type BufferColumn } from './typed-arrow-data.ts';
import { isTypedBatch, materializeColumn, typedBuffers, typedNullCount, type TypedBatch, type TypedColumn } from './typed-columns.ts';
import type { TypedFileBatch } from './typed-file-ipc.mjs';
import { giveBuffers } from './typed-buffer-pool.ts';

/**
 * 48 MiB of Arrow buffers per file (≈ 12–18 MB of ZSTD Parquet, ≈ 35 % more with Snappy): a file is encoded in one piece, so the
 * buffers, their IPC copy and parquet-wasm's memory all scale with it, once per thread encoding (COPY of TPC-H
 * lineitem SF1 peaked at 1.17 GB RSS with 128 MiB in one thread, and at 1.09 GB with 64 MiB once the main
 * thread and a worker encode side by side)
 */
export const DEFAULT_TARGET_FILE_SIZE = 48 * 1024 * 1024;

/**
 * Rows per Parquet row group (arrow-rs would put up to 1M rows in one): row groups are the unit of
 * row-group pruning on footer statistics and of a scan worker's split, and one decoded row group is the
 * reader's memory peak; 128Ki rows (DuckDB uses 122,880) keeps several per file.
 */
export const DEFAULT_ROW_GROUP_ROWS = 128 * 1024;

export interface DataFileInfo {
  readonly path: string;
  readonly fileSizeInBytes: number;
  readonly recordCount: number;
  readonly metrics: readonly ColumnMetrics[];
}

export interface ParquetDataWriterOptions {
  /** roll to a new file when the buffered Arrow data reaches this many bytes */
  readonly targetFileSizeBytes?: number;
  /** at most this many rows per Parquet row group (DEFAULT_ROW_GROUP_ROWS) */
  readonly rowGroupRows?: number;
  /** the table's `write.parquet.compression-codec` (parquet-encode.mjs; default snappy) */
  readonly compressionCodec?: string;
  /** table name for error messages (23502) */
  readonly relationName?: string;
  /**
   * files of at least this many bytes of Arrow IPC are encoded in a worker thread (parquet-encode-pool.ts)
   * while the next one is built; smaller ones in-thread. Default WORKER_MIN_BYTES; Infinity: never.
   */
  readonly workerMinBytes?: number;
  /**
   * shared by the writers of one statement (a partitioned write): the first file started from a typed batch
   * of at least DICTIONARY_SAMPLE rows decides which columns skip the dictionary, the others reuse it
   * instead of sampling every partition's first batch again
   */
  readonly dictionaryChoice?: { noDictionary?: string[] };
  /**
   * a typed file of at most this many bytes is encoded on this thread when the encode threads are all busy,
   * instead of waiting for one (the encoder is COPY's slower side: this thread then shares its work). Default
   * 0: always wait (a big file's wasm memory would then be grown on this thread too).
   */
  readonly busyInThreadMaxBytes?: number;
}

/** rows mostlyDistinct and sortedKeys sample */
const DICTIONARY_SAMPLE = 2048;

/** 8 MiB of Arrow data (≈ 130k TPC-H lineitem rows): below that a thread hand-off is not worth it */
export const WORKER_MIN_BYTES = 8 * 1024 * 1024;

/**
 * files queued for the encode threads beyond one per thread: the threads never wait for the next file while
 * this thread encodes one itself (with none queued, the worker sat idle half of a SF 0.2 COPY while the
 * main thread encoded: 1.3 s of 7.3 s). Each queued file holds its IPC copy (≈ the target size) in memory.
 */
export const QUEUED_FILES = 1;

/** files written but not yet collected into `files` (their encoding may be done): bounds what is kept alive */
export const MAX_UNCOLLECTED = ENCODE_THREADS + QUEUED_FILES + 2;

/** files in the encode threads' hands at once (running or queued there), by all writers */
export const ENCODE_SLOTS = ENCODE_THREADS + QUEUED_FILES;

/** bytes of a buffer column's values (what its Arrow Data will hold) */
function bufferBytes(c: BufferColumn): number {
  switch (c.kind) {
    case 'int32': case 'int64': return c.values.byteLength;
    case 'decimal': return c.words.byteLength;
    case 'utf8': return c.offsets.byteLength + c.data.byteLength;
  }
}

export class ParquetDataWriter {
  readonly files: DataFileInfo[] = [];
  private readonly fields: readonly NestedField[];
  private readonly arrowSchema: ArrowSchema;
  private pending: RecordBatch[] = [];
  private pendingMetrics: ColumnMetrics[];
  private pendingBytes = 0;
  private pendingRows = 0;
  private readonly target: number;
  /** files being encoded and written, in order; `collected` of them are in `files` */
  private readonly inflight: Promise<DataFileInfo>[] = [];
  /** the path of every file started (written, being written or failed): what abort() removes */
  private readonly started: string[] = [];
  private collected = 0;
  private warmed = false;
  /** typed batches in `pending`: their buffers are recycled once the file's IPC copy is made */
  private pendingTyped: TypedBatch[] = [];
  /** columns of the current file written without dictionary (mostlyDistinct or sortedKeys on its first typed batch) */
  private noDictionary: string[] = [];
  /**
   * the current file is made of typed buffers only (`pendingTyped`, no Arrow built here): its Arrow, bounds, IPC
   * and Parquet are made by an encode worker (typed-file-ipc.mjs). False: Arrow batches in `pending`.
   */
  private pendingBuffers = false;
  /** every field is a primitive stored in data files: a typed batch can make a buffers-only file */
  private readonly buffersPossible: boolean;
  /** the Arrow schema as an IPC stream without batches (what an encode worker rebuilds it from) */
  private schemaIpc: Uint8Array | null = null;

  constructor(
    private readonly io: IcebergWriteIO,
    private readonly dataLocation: string,
    schema: Schema,
    private readonly options: ParquetDataWriterOptions = {},
  ) {
    this.fields = schema.fields;
    this.arrowSchema = new ArrowSchema(this.fields.filter(storedInDataFiles).map((f) => new Field(f.name, arrowTypeOfIceberg(f.type), !f.required, new Map([[FIELD_ID_KEY, String(f.id)]]))));
    this.pendingMetrics = this.newMetrics();
    this.target = options.targetFileSizeBytes ?? DEFAULT_TARGET_FILE_SIZE;
    this.buffersPossible = this.fields.every((f) => f.type.kind === 'primitive' && storedInDataFiles(f));
  }

  /** every column of `typed` is a buffer the field's Parquet column takes as it is */
  private allBuffers(typed: readonly TypedColumn[] | null): typed is readonly BufferColumn[] {
    return this.buffersPossible && typed !== null && typed.length === this.fields.length
      && this.fields.every((f, c) => f.type.kind === 'primitive' && typedMatches(typed[c]!, f.type));
  }

  private newMetrics(): ColumnMetrics[] {
    return this.fields.map(columnMetricsOf);
  }

  /** converts one batch (columns in schema order) and writes a file when the target size is reached */
  async add(batch: Batch): Promise<void> {
    if (batch.length === 0) return;
    const typed = isTypedBatch(batch) ? batch.typed : null;
    this.checkRequired(batch, typed);
    const buffers = this.allBuffers(typed);
    // a file is all buffers or all Arrow: a batch of the other kind (a date column that met infinity) starts a new one
    if (this.pendingRows > 0 && buffers !== this.pendingBuffers) await this.flush();
    if (this.pendingRows === 0) {
      this.noDictionary = this.chooseNoDictionary(typed, batch.length);
      this.pendingBuffers = buffers;
    }
    if (buffers) {
      // counts here; bounds come back with the file's encoding
      typed.forEach((col, c) => {
        const m = this.pendingMetrics[c]!;
        m.valueCount += col.length;
        m.nullCount += col.nullCount;
        this.pendingBytes += bufferBytes(col);
      });
      this.pendingTyped.push(batch as TypedBatch);
      this.pendingRows += batch.length;
      this.warm();
      if (this.pendingBytes >= this.target) await this.flush();
      return;
    }
    const children: Data[] = this.fields.map((f, c) => {
      if (!storedInDataFiles(f)) return onlyNulls(f, typed?.[c] !== undefined ? materializeColumn(typed[c]) : batch.columns[c], batch.length, this.options.relationName); // v3 unknown: never stored
      // typed buffers (COPY) are wrapped as they are; other columns are converted from JS values
      const tc = typed?.[c];
      if (tc !== undefined && f.type.kind === 'primitive') {
        const d = typedArrowData(tc, f.type, this.pendingMetrics[c]!);
        if (d !== null) return d;
      }
      const values = tc !== undefined ? materializeColumn(tc) : batch.columns[c] ?? [];
      return f.type.kind === 'primitive'
        ? arrowColumn(values, batch.length, f.type, this.pendingMetrics[c]!)
        : nestedArrowColumn(values, batch.length, f, this.pendingMetrics[c]!, this.options.relationName);
    }).filter((d): d is Data => d !== null);
    const struct = makeData({ type: new Struct(this.arrowSchema.fields), length: batch.length, nullCount: 0, children });
    this.pending.push(new RecordBatch(this.arrowSchema, struct));
    if (isTypedBatch(batch)) this.pendingTyped.push(batch);
    this.pendingBytes += children.reduce((s, d) => s + dataBytes(d), 0);
    this.pendingRows += batch.length;
    this.warm();
    if (this.pendingBytes >= this.target) await this.flush();
  }

  /** a big write: start the encode threads while this file fills */
  private warm(): void {
    if (this.warmed || this.pendingBytes < this.workerMinBytes()) return;
    this.warmed = true;
    warmEncodePool();
  }

  private chooseNoDictionary(typed: readonly TypedColumn[] | null, rows: number): string[] {
    const shared = this.options.dictionaryChoice;
    if (shared?.noDictionary !== undefined) return shared.noDictionary;
    const choice = typed === null ? [] : this.fields.filter((f, c) => typed[c] !== undefined && (mostlyDistinct(typed[c], DICTIONARY_SAMPLE) || sortedKeys(typed[c], DICTIONARY_SAMPLE))).map((f) => f.name);
    if (shared !== undefined && typed !== null && rows >= DICTIONARY_SAMPLE) shared.noDictionary = choice;
    return choice;
  }

  /** bytes of Arrow data buffered for the next file */
  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  private workerMinBytes(): number {
    return this.options.workerMinBytes ?? WORKER_MIN_BYTES;
  }

  private checkRequired(batch: Batch, typed: readonly TypedColumn[] | null): void {
    this.fields.forEach((f, c) => {
      if (!f.required) return;
      const tc = typed?.[c];
      if (tc !== undefined && typedNullCount(tc) === 0) return;
      const col = tc !== undefined ? materializeColumn(tc) : batch.columns[c] ?? [];
      for (let i = 0; i < batch.length; i++) {
        if (col[i] === null || col[i] === undefined) {
          const rel = this.options.relationName ?? '';
          throw pgError(SqlState.not_null_violation, `null value in column "${f.name}" of relation "${rel}" violates not-null constraint`, { table: rel, column: f.name });
        }
      }
    });
  }

  /**
   * writes the buffered rows as one Parquet file. A big one goes to the encode threads (to an idle one, or
   * queued behind QUEUED_FILES) and the caller goes on building the next; when that queue is full, this
   * thread encodes it itself rather than wait
   * (decoding and encoding then share the cores whichever is slower). Small files are encoded in-thread.
   */
  async flush(): Promise<void> {
    if (this.pendingRows === 0) return;
    if (this.pendingBuffers) return this.flushBuffers();
    const ipc = tableToIPC(new Table(this.arrowSchema, this.pending), 'stream');
    for (const b of this.pendingTyped) giveBuffers(typedBuffers(b.typed));
    const path = this.startFile();
    const recordCount = this.pendingRows;
    const metrics = this.pendingMetrics;
    this.resetPending();
    const options = this.encodeOptions();
    const inWorker = ipc.byteLength >= this.workerMinBytes() && tryEncodeSlot(ENCODE_SLOTS);
    const done = (async (): Promise<DataFileInfo> => {
      let bytes: Uint8Array;
      try {
        bytes = inWorker ? await encodeInWorker(ipc, options) : encodeParquetIpc(ipc, options);
      } finally {
        if (inWorker) releaseEncodeSlot();
      }
      await this.io.write(path, bytes);
      return { path, fileSizeInBytes: bytes.byteLength, recordCount, metrics };
    })();
    // a failed statement abandons the writer: its files' errors must not become unhandled rejections
    done.catch(() => undefined);
    this.inflight.push(done);
    await this.collect(MAX_UNCOLLECTED);
  }

  /**
   * writes the buffered typed batches as one Parquet file: an encode worker gets their buffers (moved, not
   * copied) and makes Arrow, bounds, IPC and Parquet; this thread only waits for a free slot (at most
   * ENCODE_THREADS + QUEUED_FILES files at a time), so a fast input is held back instead of piling up.
   * Small files (below workerMinBytes) are encoded in-thread, without a hand-off, and so are files up to
   * busyInThreadMaxBytes while every slot is taken.
   */
  private async flushBuffers(): Promise<void> {
    let inWorker = this.pendingBytes >= this.workerMinBytes();
    let slot = false;
    if (inWorker && this.pendingBytes <= (this.options.busyInThreadMaxBytes ?? 0)) {
      // the threads' "done" messages are macrotasks: without this turn of the event loop, a thread that finished
      // while this one encoded would still look busy, and this thread would end up encoding every file itself
      await new Promise<void>((resolve) => setImmediate(resolve));
      // threads busy: this thread encodes it rather than wait
      slot = tryEncodeSlot(ENCODE_SLOTS);
      inWorker = slot;
    }
    const batches: TypedFileBatch[] = this.pendingTyped.map((b) => ({ length: b.length, columns: b.typed as readonly BufferColumn[] }));
    // what addTypedBounds needs once the buffers are gone: each column's decimal scale (null: not a decimal; a
    // column's scale is its field's, the same in every batch)
    const scales = (batches[0]?.columns ?? []).map((c) => (c.kind === 'decimal' ? c.scale : null));
    const path = this.startFile();
    const recordCount = this.pendingRows;
    const metrics = this.pendingMetrics;
    this.resetPending();
    this.schemaIpc ??= tableToIPC(new Table(this.arrowSchema, []), 'stream');
    const task = { schema: this.schemaIpc, batches, options: this.encodeOptions() };
    if (inWorker && !slot) await encodeSlot(ENCODE_SLOTS);
    const done = (async (): Promise<DataFileInfo> => {
      let result: TypedFileResult;
      if (inWorker) {
        try {
          const r = await encodeTypedInWorker(task);
          giveBuffers(r.buffers);
          result = r;
        } finally {
          releaseEncodeSlot();
        }
      } else {
        result = encodeTypedFile(task);
        for (const b of batches) giveBuffers(typedBuffers(b.columns));
      }
      for (const set of result.bounds) set.forEach((bounds, c) => addTypedBounds(metrics[c]!, scales[c] ?? null, bounds));
      await this.io.write(path, result.bytes);
      return { path, fileSizeInBytes: result.bytes.byteLength, recordCount, metrics };
    })();
    done.catch(() => undefined);
    this.inflight.push(done);
    await this.collect(MAX_UNCOLLECTED);
  }

  private startFile(): string {
    const path = `${this.dataLocation}/${randomUUID()}-${String(this.inflight.length).padStart(5, '0')}.parquet`;
    this.started.push(path);
    return path;
  }

  private resetPending(): void {
    this.pending = [];
    this.pendingTyped = [];
    this.pendingMetrics = this.newMetrics();
    this.pendingBytes = 0;
    this.pendingRows = 0;
  }

  private encodeOptions(): ParquetEncodeOptions {
    const codec = this.options.compressionCodec;
    return { rowGroupRows: this.options.rowGroupRows ?? DEFAULT_ROW_GROUP_ROWS, noDictionary: this.noDictionary, ...(codec === undefined ? {} : { compressionCodec: codec }) };
  }

  /** waits for the oldest files until at most `pending` are still in flight */
  private async collect(pending: number): Promise<void> {
    while (this.inflight.length - this.collected > pending) this.files.push(await this.inflight[this.collected++]!);
  }

  /** flushes and returns every file written */
  async close(): Promise<DataFileInfo[]> {
    await this.flush();
    await this.collect(0);
    return this.files;
  }

  /**
   * a failed statement: drops the buffered rows, waits until no file is being encoded or written any more,
   * then removes every file this writer wrote (nothing of them was committed). Best effort: a store that
   * cannot delete (no `io.delete`) keeps them as orphans, as does a delete that fails.
   */
  async abort(): Promise<void> {
    for (const b of this.pendingTyped) giveBuffers(typedBuffers(b.typed));
    this.pending = [];
    this.pendingTyped = [];
    this.pendingBytes = 0;
    this.pendingRows = 0;
    await Promise.allSettled(this.inflight);
    const del = this.io.delete?.bind(this.io);
    if (del === undefined) return;
    await Promise.allSettled(this.started.splice(0).map((p) => del(p)));
  }
}
