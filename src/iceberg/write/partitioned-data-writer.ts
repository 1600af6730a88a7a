/**
 * PartitionedDataWriter: splits each batch by partition tuple (the table's default spec applied to every
 * row) and keeps one StreamingDataWriter per partition under `<data>/<partition path>/`
 * (`ts_day=2024-01-02/id_bucket=3`), as Iceberg Java's fanout writer does. Each file it returns carries its
 * partition tuple (values in the JS representation of the fields' result types) for the manifest.
 *
 * A typed batch (COPY, typed-columns.ts) stays typed: its rows are grouped from the buffers
 * (typed-partition-groups.ts) and gathered into a per-partition TypedStage (typed-stage.ts), which feeds
 * that partition's writer in batches of STAGE_ROWS. Memory is bounded whatever the number of partitions:
 * after each batch, while the rows held by all partitions (staged, counted as allocated, + buffered in
 * writers) pass `partitionBufferBytes`, the largest partition's rows are written out as a row group of its
 * open file. Flushing one partition at a time keeps the encode threads fed at the rate rows come in (a
 * flush to half the budget made this thread wait for a burst of encodes while the threads had idled
 * before), and row groups come out at ≈ 2 × budget / partitions. While an encode slot is free (a thread idle
 * or its queue empty), the largest partitions are also flushed once they hold IDLE_FLUSH_MIN_BYTES, so encoding
 * starts with the first MBs of input instead of at the budget (feedEncoders). A partition's file is closed only
 * at the target size or at the end of the statement, so a statement writes one file per partition up to the
 * target size (not one per flush). Flushed rows are encoded
 * into pieces that the partition's writer holds and merges into row groups of up to rowGroupRows rows
 * (StreamingDataWriter `mergeRowGroups`), so row groups do not shrink with the number of open partitions; the
 * held pieces of all partitions are bounded too (`partitionHeldBytes`): past it, the partitions holding the
 * most write theirs as a row group.
 */
import type { Batch } from '../../common/batch.ts';
import type { Schema } from '../spec/schema.ts';
import { partitionKey, partitionPath, type BoundPartitionField } from '../transforms/partition-path.ts';
import { ENCODE_SLOTS, type DataFileInfo, type ParquetDataWriterOptions } from './parquet-data-writer.ts';
import { StreamingDataWriter, type StreamingDataWriterOptions } from './streaming-data-writer.ts';
import type { IcebergWriteIO } from './write-io.ts';
import { isTypedBatch, TypedBatch, typedBuffers, type TypedColumn } from './typed-columns.ts';
import { giveBuffers } from './typed-buffer-pool.ts';
import { tupleAt, typedPartitionGroups, type RowGroups } from './typed-partition-groups.ts';
import { TypedStage } from './typed-stage.ts';
import { encodeSlotsInUse } from './parquet-encode-pool.ts';
import { splitInWorker } from './partition-split-pool.ts';
import { envFlagSetOn } from '../../common/env-settings.ts';
import { int32PartitionFn, type SplitField, type SplitResult } from './partition-split.mjs';
import type { BufferColumn } from './typed-file-ipc.mjs';

export interface PartitionedFileInfo extends DataFileInfo {
  /** one value per partition field of the spec, in spec order */
  readonly partition: readonly unknown[];
}

export interface PartitionedDataWriterOptions extends StreamingDataWriterOptions {
  /** bytes of rows held by all open partitions before the largest are flushed (partitionWriteDefaults.bufferBytes) */
  readonly partitionBufferBytes?: number;
  /** an encode slot free: the largest partitions are flushed once they hold this much (IDLE_FLUSH_MIN_BYTES) */
  readonly idleFlushMinBytes?: number;
  /** bytes of encoded pieces held by all partitions for their next row group (partitionWriteDefaults.heldBytes) */
  readonly partitionHeldBytes?: number;
}

/**
 * 192 MiB of Arrow-sized rows across partitions: TPC-H lineitem by month (84 partitions) is flushed in pieces of
 * ≈ 2–5 MiB (10k–30k rows) instead of holding all of SF 1 (≈ 900 MiB) until the end; the pieces' size no longer
 * makes the row groups' (they are merged), only the encoder's per-piece cost. 64 MiB halved the fresh
 * ArrayBuffers of an SF 0.2 COPY by month (279 → 137 MB) and its peak RSS by ≈ 80 MB, but was no faster
 * (session 16, loaded machine: server CPU median 9.71 vs 9.30 s)
 */
export const DEFAULT_PARTITION_BUFFER_BYTES = 192 * 1024 * 1024;

/**
 * the budget of writers constructed without `partitionBufferBytes` (the server's): tests over the wire lower it
 * to see partitions flushed many times within a small statement
 */
export const partitionWriteDefaults = { bufferBytes: DEFAULT_PARTITION_BUFFER_BYTES, heldBytes: 0 };

/**
 * encoded pieces held for merging by all partitions (Parquet is ≈ 4× smaller than the rows' Arrow bytes): TPC-H
 * lineitem SF 1 by month is ≈ 210 MB of Snappy Parquet, so its months end in one or two row groups of 30k–70k
 * rows (was ≈ 11k), with the rows' budget at most ≈ 350 MiB held by the statement
 */
export const DEFAULT_PARTITION_HELD_BYTES = 160 * 1024 * 1024;
partitionWriteDefaults.heldBytes = DEFAULT_PARTITION_HELD_BYTES;

/**
 * rows gathered per partition before they go to its writer as one batch. A full stage keeps its room for the
 * next rows, and every open partition's room counts against the budget: 16Ki rows of lineitem (2.7 MB) × 84
 * months filled most of the 256 MiB with empty room, and partitions were flushed as pieces of a few hundred rows
 */
export const STAGE_ROWS = 4 * 1024;

/** a partition's row group is small: worth a worker thread from 256 KiB on (below IDLE_FLUSH_MIN_BYTES: fed pieces go there) */
const PARTITION_WORKER_MIN_BYTES = 256 * 1024;

/**
 * row groups up to this size are encoded on this thread while the encode threads are busy. 0: never — a partitioned
 * write's thread also stages every row (TypedStage) and merges the pieces, so it is the slower side, and encoding
 * there made it slower still (SF 0.2 lineitem by month, 7–8 runs each on a loaded machine: main thread median 7.65
 * → 6.30 CPU s, encode thread 1.4–2.5 → 3.5–3.8, all threads ≈ equal)
 */
const PARTITION_BUSY_IN_THREAD_MAX_BYTES = 0;

/**
 * an encode slot is free: the largest partitions are flushed early from this much on (≈ 3k TPC-H lineitem rows;
 * parquet-wasm's cost per row measured flat from ≈ 4k rows a piece, ≈ 3× at 1k). Was 2 MiB: 84 evenly growing
 * months reach it only after ≈ 170 MB of input, so encoding started near the end of an SF 0.2 COPY
 */
export const IDLE_FLUSH_MIN_BYTES = 512 * 1024;

/**
 * typed batches split by partition on the split thread (partition-split.mjs) before this thread stages the first
 * of them: the thread decoding the next batch overlaps the split of the previous ones
 */
const SPLITS_AHEAD = 2;

/**
 * whether typed batches are split on the split thread: null (the default) takes LAKEGATE_COPY_SPLIT_WORKER, off
 * unless set on. Off by default: in SF 0.2 A/Bs on a loaded machine (load 14–25) it cut the decoding thread's CPU
 * by month 7–12 % but added 5–8 % CPU in all and ≈ 90 MB peak RSS, and wall time was not better (tests set it)
 */
export const partitionSplitDefaults: { inWorker: boolean | null } = { inWorker: null };

const splitOn = (): boolean => partitionSplitDefaults.inWorker ?? envFlagSetOn('LAKEGATE_COPY_SPLIT_WORKER');

/** what the budget did during a statement (tests, bench traces) */
export interface PartitionWriteStats {
  /** row groups written because the rows held passed the budget */
  budgetFlushes: number;
  /** row groups written early to a free encode slot (feedEncoders) */
  idleFlushes: number;
  /** most bytes held by all partitions when an add returned (at most the budget) */
  maxHeldBytes: number;
  /** row groups written because the encoded pieces held by all partitions passed partitionHeldBytes */
  heldFlushes: number;
  /** typed batches split by partition on the split thread */
  workerSplits: number;
}

interface Open {
  readonly tuple: readonly unknown[];
  readonly writer: StreamingDataWriter;
  stage: TypedStage | null;
}

/**
 * counting sort of a typed batch's rows by group, then what fits of each group goes into its partition's stage
 * column by column (TypedStage.appendGroups; groups are distinct partitions). Kept out of the async addTyped:
 * with these loops inside, V8 compiled that whole function (OSR) 17 times in an SF 0.2 COPY by month, now once.
 */
function sortByGroup(length: number, groups: RowGroups): { perm: Int32Array; starts: Int32Array } {
  const starts = new Int32Array(groups.count + 1);
  for (let i = 0; i < length; i++) starts[groups.groupOf[i]! + 1]!++;
  for (let g = 0; g < groups.count; g++) starts[g + 1]! += starts[g]!;
  const perm = new Int32Array(length);
  const fill = starts.slice(0, groups.count);
  for (let i = 0; i < length; i++) perm[fill[groups.groupOf[i]!]!++] = i;
  return { perm, starts };
}

/** what fits of each group goes into its partition's stage; returns how many rows of each group went */
function stageGroups(parts: readonly Open[], typed: readonly TypedColumn[], perm: Int32Array | null, starts: Int32Array): Int32Array {
  const stages = parts.map((o) => (o.stage ??= new TypedStage(typed.length, STAGE_ROWS)));
  const counts = new Int32Array(parts.length);
  if (new Set(stages).size === stages.length) {
    for (let g = 0; g < parts.length; g++) counts[g] = Math.min(starts[g + 1]! - starts[g]!, stages[g]!.room);
    TypedStage.appendGroups(stages, typed, perm, starts, counts);
  }
  return counts;
}

export class PartitionedDataWriter {
  private readonly open = new Map<string, Open>();
  private readonly budget: number;
  private readonly idleFlushMin: number;
  private readonly fileOptions: StreamingDataWriterOptions;
  private readonly heldBudget: number;
  readonly stats: PartitionWriteStats = { budgetFlushes: 0, idleFlushes: 0, maxHeldBytes: 0, heldFlushes: 0, workerSplits: 0 };
  /** splits running on the split thread, oldest first: staged in this order */
  private readonly splits: Promise<SplitResult>[] = [];
  /** the partition fields as the split thread takes them (made on first use) */
  private splitFields: SplitField[] | undefined;

  constructor(
    private readonly io: IcebergWriteIO,
    private readonly dataLocation: string,
    private readonly schema: Schema,
    private readonly fields: readonly BoundPartitionField[],
    options: PartitionedDataWriterOptions = {},
  ) {
    const { partitionBufferBytes, idleFlushMinBytes, partitionHeldBytes, ...fileOptions } = options;
    this.budget = partitionBufferBytes ?? partitionWriteDefaults.bufferBytes;
    this.heldBudget = partitionHeldBytes ?? partitionWriteDefaults.heldBytes;
    this.idleFlushMin = idleFlushMinBytes ?? IDLE_FLUSH_MIN_BYTES;
    this.fileOptions = { workerMinBytes: PARTITION_WORKER_MIN_BYTES, busyInThreadMaxBytes: PARTITION_BUSY_IN_THREAD_MAX_BYTES, dictionaryChoice: {}, mergeRowGroups: true, ...fileOptions };
  }

  async add(batch: Batch): Promise<void> {
    if (batch.length === 0) return;
    if (isTypedBatch(batch)) await this.addTyped(batch);
    else {
      await this.settleSplits();
      await this.addValues(batch);
    }
    await this.bound();
  }

  private partition(tuple: readonly unknown[], key = partitionKey(this.fields, tuple)): Open {
    let o = this.open.get(key);
    if (o === undefined) {
      const dir = `${this.dataLocation}/${partitionPath(this.fields, tuple)}`;
      o = { tuple, writer: new StreamingDataWriter(this.io, dir, this.schema, this.fileOptions), stage: null };
      this.open.set(key, o);
    }
    return o;
  }

  /** the batch's columns are all buffers and every field an int32 transform partition-split.mjs computes */
  private splittable(typed: readonly TypedColumn[]): typed is readonly BufferColumn[] {
    if (this.splitFields === undefined) {
      this.splitFields = this.fields.map((f) => ({ pos: f.sourcePos, name: f.transform.name, param: f.transform.param }));
    }
    const fields = this.splitFields;
    if (!splitOn() || typed.some((c) => c.kind === 'values')) return false;
    return fields.every((f) => {
      const c = typed[f.pos];
      return c !== undefined && c.kind === 'int32' && int32PartitionFn(f.name, f.param, c.domain) !== null;
    });
  }

  /**
   * a typed batch goes to the split thread (its buffers moved there); the oldest split beyond SPLITS_AHEAD comes
   * back grouped into runs and is staged here. Any other batch first stages the splits still out, so each
   * partition's rows keep their input order.
   */
  private async addTyped(batch: TypedBatch): Promise<void> {
    const { typed, length } = batch;
    if (this.splittable(typed)) {
      const split = splitInWorker({ length, columns: typed, fields: this.splitFields! });
      // a failed statement may abandon it: its error must not become an unhandled rejection
      split.catch(() => undefined);
      this.splits.push(split);
      this.stats.workerSplits++;
      while (this.splits.length > SPLITS_AHEAD) await this.stageSplit(await this.splits.shift()!);
      return;
    }
    await this.settleSplits();
    await this.stageTyped(batch);
  }

  /** every split still out, staged in order */
  private async settleSplits(): Promise<void> {
    while (this.splits.length > 0) await this.stageSplit(await this.splits.shift()!);
  }

  /** a batch split into runs (partition-split.mjs): each run copied into its partition's stage */
  private async stageSplit(r: SplitResult): Promise<void> {
    const typed = r.columns as readonly TypedColumn[];
    const length = r.starts[r.count]!;
    const parts: Open[] = [];
    for (let g = 0; g < r.count; g++) parts.push(this.partition(tupleAt(this.fields, typed, r.starts[g]!)));
    if (r.count === 1 && (parts[0]!.stage === null || parts[0]!.stage.rows === 0)) {
      await parts[0]!.writer.add(new TypedBatch(length, typed));
      return;
    }
    await this.stageRuns(parts, typed, null, r.starts);
  }

  private async stageTyped(batch: TypedBatch): Promise<void> {
    const { typed, length } = batch;
    const groups = typedPartitionGroups(this.fields, typed, length);
    const parts = groups.first.map((r) => this.partition(tupleAt(this.fields, typed, r)));
    if (groups.count === 1 && (parts[0]!.stage === null || parts[0]!.stage.rows === 0)) {
      // one partition: the batch goes on as it is
      await parts[0]!.writer.add(batch);
      return;
    }
    const { perm, starts } = sortByGroup(length, groups);
    await this.stageRuns(parts, typed, perm, starts);
  }

  /**
   * group g's rows — perm[starts[g]] … perm[starts[g + 1] − 1], or rows starts[g] … with perm null — into
   * parts[g]'s stage (a full stage goes to its writer); the columns' buffers are then given back for reuse
   */
  private async stageRuns(parts: readonly Open[], typed: readonly TypedColumn[], perm: Int32Array | null, starts: Int32Array): Promise<void> {
    const counts = stageGroups(parts, typed, perm, starts);
    for (let g = 0; g < parts.length; g++) {
      const o = parts[g]!;
      let at = starts[g]! + counts[g]!;
      const end = starts[g + 1]!;
      if (o.stage!.full) await o.writer.add(o.stage!.finish());
      while (at < end) {
        o.stage ??= new TypedStage(typed.length, STAGE_ROWS);
        at += o.stage.append(typed, perm, at, end);
        if (o.stage.full) await o.writer.add(o.stage.finish());
      }
    }
    // every row is copied out: the batch's buffers can be reused by the next ones
    giveBuffers(typedBuffers(typed));
  }

  private async addValues(batch: Batch): Promise<void> {
    const groups = new Map<string, { tuple: unknown[]; rows: number[] }>();
    const source = new Map<number, readonly unknown[]>();
    for (const f of this.fields) if (!source.has(f.sourcePos)) source.set(f.sourcePos, batch.columns[f.sourcePos] ?? []);
    for (let r = 0; r < batch.length; r++) {
      const tuple = this.fields.map((f) => f.transform.apply(source.get(f.sourcePos)![r] ?? null));
      const key = partitionKey(this.fields, tuple);
      let g = groups.get(key);
      if (g === undefined) groups.set(key, (g = { tuple, rows: [] }));
      g.rows.push(r);
    }
    for (const [key, g] of groups) {
      const o = this.partition(g.tuple, key);
      await this.drain(o);
      const sub: Batch = groups.size === 1
        ? batch
        : { length: g.rows.length, columns: batch.columns.map((col) => g.rows.map((r) => col[r])) };
      await o.writer.add(sub);
    }
  }

  /** hands a partition's staged rows to its writer (`keepCapacity`: TypedStage.finish) */
  private async drain(o: Open, keepCapacity = true): Promise<void> {
    if (o.stage !== null && o.stage.rows > 0) await o.writer.add(o.stage.finish(keepCapacity));
  }

  private heldBytes(o: Open): number {
    return o.writer.bufferedBytes + (o.stage?.allocatedBytes ?? 0);
  }

  /** bytes held by all partitions' rows not yet handed to the encoder */
  get bufferedBytes(): number {
    let total = 0;
    for (const o of this.open.values()) total += this.heldBytes(o);
    return total;
  }

  /** over budget: the largest partitions' rows become row groups until it is kept; idle encoders: the largest early */
  private async bound(): Promise<void> {
    const held = [...this.open.values()].map((o) => ({ o, bytes: this.heldBytes(o) }));
    let total = held.reduce((s, h) => s + h.bytes, 0);
    if (total > this.budget) {
      held.sort((a, b) => b.bytes - a.bytes);
      for (const h of held) {
        if (total <= this.budget) break;
        await this.flushPartition(h.o);
        total -= h.bytes;
        this.stats.budgetFlushes++;
      }
    } else {
      total -= await this.feedEncoders(held);
    }
    if (total > this.stats.maxHeldBytes) this.stats.maxHeldBytes = total;
    await this.boundHeld();
  }

  /**
   * below the budget: while an encode slot is free (a thread idle, or its one queued file missing), the largest
   * partitions holding at least idleFlushMin go to the encode threads, so encoding starts with the first MBs
   * and never waits for rows. TPC-H lineitem by month grows its 84 months evenly: with only an idle thread fed,
   * one piece at a time from 2 MiB on, the encode thread started after ≈ 85 % of an SF 0.2 COPY had been staged
   * and then encoded nearly all of it after the input ended. Returns the bytes flushed.
   */
  private async feedEncoders(held: { o: Open; bytes: number }[]): Promise<number> {
    held.sort((a, b) => b.bytes - a.bytes);
    if (held[0] === undefined || held[0].bytes < this.idleFlushMin) return 0;
    // a finished encode reaches this thread as a message (a macrotask): while CopyData is queued, decoding goes on
    // through promises alone and the slots look busy long after the thread is done; one turn lets them in
    if (encodeSlotsInUse() >= ENCODE_SLOTS) await new Promise<void>((resolve) => setImmediate(resolve));
    let flushed = 0;
    for (const h of held) {
      if (encodeSlotsInUse() >= ENCODE_SLOTS || h.bytes < this.idleFlushMin) break;
      await this.flushPartition(h.o);
      flushed += h.bytes;
      this.stats.idleFlushes++;
    }
    return flushed;
  }

  /** encoded pieces held past their budget: the partitions holding the most write theirs as a row group */
  private async boundHeld(): Promise<void> {
    const held = [...this.open.values()].map((o) => ({ o, bytes: o.writer.heldBytes }));
    let total = held.reduce((s, h) => s + h.bytes, 0);
    if (total <= this.heldBudget) return;
    held.sort((a, b) => b.bytes - a.bytes);
    for (const h of held) {
      if (total <= this.heldBudget) break;
      await h.o.writer.mergeHeld();
      total -= h.bytes;
      this.stats.heldFlushes++;
    }
  }

  private async flushPartition(o: Open): Promise<void> {
    await this.drain(o, false);
    await o.writer.flushRowGroup();
  }

  /** a failed statement: every partition's writer removes what it wrote (ParquetDataWriter.abort) */
  async abort(): Promise<void> {
    await Promise.allSettled(this.splits.splice(0));
    for (const o of this.open.values()) {
      if (o.stage !== null && o.stage.rows > 0) o.stage.finish();
      o.stage = null;
    }
    await Promise.allSettled([...this.open.values()].map((o) => o.writer.abort()));
  }

  /** flushes every partition and returns all files written, each with its partition tuple */
  async close(): Promise<PartitionedFileInfo[]> {
    await this.settleSplits();
    const out: PartitionedFileInfo[] = [];
    // every partition's last rows are started first, so they are encoded side by side (workers + this thread)
    for (const o of this.open.values()) await this.flushPartition(o);
    for (const o of this.open.values()) {
      for (const f of await o.writer.close()) out.push({ ...f, partition: o.tuple });
    }
    return out;
  }
}

