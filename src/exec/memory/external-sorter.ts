/**
 * ExternalSorter: SortExec's state. Rows are sorted in memory while the query's memory budget allows; when the
 * budget refuses a batch, the rows held so far are sorted into a run and written to a spill file (external
 * merge sort, as PostgreSQL's tuplesort does past work_mem), then merged k ways at the end. Array.sort is
 * stable and runs hold consecutive input rows, so ties go to the earlier run: the order equals the in-memory
 * sort's, row for row. Too many runs for one merge are merged in passes of consecutive runs.
 */
import { rm } from 'node:fs/promises';
import { compareKeys, type KeySpec } from '../expr/sort-compare.ts';
import { sortByKeyRanks } from '../expr/sort-key-ranks.ts';
import type { MemoryReservation } from './memory-reservation.ts';
import { estimateRowBytes } from './size-estimate.ts';
import { SpillUnsupported } from './spill-codec.ts';
import { SpillDirectory } from './spill-directory.ts';
import { SpillReader, SpillWriter } from './spill-file.ts';

export interface SortEntry {
  readonly key: readonly unknown[];
  readonly row: readonly unknown[];
}

export type SortMethod = 'quicksort' | 'external merge';

const MAX_FAN_IN = 64;
const FRAME_MAX_ROWS = 1024;

export class ExternalSorter {
  #rows: SortEntry[] = [];
  #runs: string[] = [];
  #dir: SpillDirectory | null = null;
  #diskBytes = 0;
  #spillable = true;
  /** estimated heap bytes of the rows of one frame (a merge holds one frame per run) */
  readonly #frameBytes: number;

  constructor(private readonly specs: readonly KeySpec[], private readonly mem: MemoryReservation, private readonly checkAbort: () => void) {
    this.#frameBytes = Math.min(64 * 1024, Math.max(4 * 1024, Math.floor(mem.pool.limit / 32)));
  }

  get method(): SortMethod { return this.#diskBytes > 0 || this.#runs.length > 0 ? 'external merge' : 'quicksort'; }
  /** bytes written by the first pass (EXPLAIN ANALYZE's Disk) */
  get diskBytes(): number { return this.#diskBytes; }

  /** takes a batch's entries, estimated at `bytes`; when the budget refuses them, spills the rows held so far */
  async add(entries: readonly SortEntry[], bytes: number): Promise<void> {
    if (!this.mem.tryGrow(bytes)) {
      if (this.#spillable && this.#rows.length > 0) {
        try {
          await this.#spillRun();
        } catch (e) {
          if (!(e instanceof SpillUnsupported)) throw e;
          this.#spillable = false;
        }
      }
      if (!this.mem.tryGrow(bytes)) {
        // still too big: half a batch may fit (one row that does not fit is out of memory)
        if (entries.length <= 1 || !this.#spillable) this.mem.grow(bytes);
        else {
          const mid = entries.length >> 1;
          await this.add(entries.slice(0, mid), bytes / 2);
          await this.add(entries.slice(mid), bytes / 2);
          return;
        }
      }
    }
    const rows = this.#rows;
    for (let i = 0; i < entries.length; i++) rows.push(entries[i]!);
  }

  /** ends the input: once runs were spilled, the rows still in memory become the last run */
  async finishInput(): Promise<void> {
    if (this.#runs.length > 0 && this.#rows.length > 0) await this.#spillRun();
  }

  /** the rows in order, in arrays of up to `batchSize` (after finishInput) */
  async *sorted(batchSize: number): AsyncGenerator<(readonly unknown[])[]> {
    if (this.#runs.length === 0) {
      const rows = sortByKeyRanks(this.specs, this.#rows);
      for (let s = 0; s < rows.length; s += batchSize) {
        const end = Math.min(rows.length, s + batchSize);
        const out = new Array<readonly unknown[]>(end - s);
        for (let i = s; i < end; i++) out[i - s] = rows[i]!.row;
        yield out;
      }
      return;
    }
    await this.finishInput();
    const fanIn = this.#reserveFanIn();
    while (this.#runs.length > fanIn) {
      const next: string[] = [];
      for (let i = 0; i < this.#runs.length; i += fanIn) {
        const group = this.#runs.slice(i, i + fanIn);
        if (group.length === 1) { next.push(group[0]!); continue; }
        next.push((await this.#writeRun(this.#merge(group))).path);
        await Promise.all(group.map((p) => rm(p, { force: true })));
      }
      this.#runs = next;
    }
    let out: (readonly unknown[])[] = [];
    for await (const e of this.#merge(this.#runs)) {
      out.push(e.row);
      if (out.length >= batchSize) { yield out; out = []; }
    }
    if (out.length > 0) yield out;
  }

  /** removes the spill files (end of query, error, cancel) and gives the memory back */
  async close(): Promise<void> {
    this.#rows = [];
    this.mem.release();
    const dir = this.#dir;
    this.#dir = null;
    await dir?.remove();
  }

  async #spillRun(): Promise<void> {
    const rows = sortByKeyRanks(this.specs, this.#rows);
    const run = await this.#writeRun(rows);
    this.#runs.push(run.path);
    this.#diskBytes += run.bytes;
    this.#rows = [];
    this.mem.release();
  }

  /** writes sorted entries as frames of flat rows (key values, then the row) */
  async #writeRun(entries: Iterable<SortEntry> | AsyncIterable<SortEntry>): Promise<{ path: string; bytes: number }> {
    this.#dir ??= await SpillDirectory.create();
    const w = await SpillWriter.create(this.#dir.newFile('run'));
    try {
      let frame: unknown[][] = [];
      let frameBytes = 0;
      for await (const e of entries) {
        const flat = [...e.key, ...e.row];
        frame.push(flat);
        frameBytes += estimateRowBytes(flat);
        if (frameBytes >= this.#frameBytes || frame.length >= FRAME_MAX_ROWS) {
          this.checkAbort();
          await w.writeFrame(frame);
          frame = [];
          frameBytes = 0;
        }
      }
      if (frame.length > 0) await w.writeFrame(frame);
      return { path: w.path, bytes: await w.close() };
    } catch (e) {
      await w.abandon();
      await rm(w.path, { force: true });
      throw e;
    }
  }

  /** merge buffers: one frame per run, as many runs as the budget allows (2 at least) */
  #reserveFanIn(): number {
    let fan = 0;
    while (fan < MAX_FAN_IN && this.mem.tryGrow(this.#frameBytes)) fan++;
    if (fan < 2) { this.mem.grow((2 - fan) * this.#frameBytes); fan = 2; }
    return fan;
  }

  /** k-way merge of sorted runs; ties go to the lower run index (stability) */
  async *#merge(paths: readonly string[]): AsyncGenerator<SortEntry> {
    const nk = this.specs.length;
    const readers: SpillReader[] = [];
    try {
      for (const p of paths) readers.push(await SpillReader.open(p));
      const frames: (unknown[][] | null)[] = await Promise.all(readers.map((r) => r.next()));
      const pos = new Array<number>(paths.length).fill(0);
      const keyOf = (run: number): unknown[] => frames[run]![pos[run]!]!.slice(0, nk);
      const keys: unknown[][] = frames.map((f, run) => (f === null || f.length === 0 ? [] : keyOf(run)));
      const less = (a: number, b: number): boolean => {
        const c = compareKeys(this.specs, keys[a]!, keys[b]!);
        return c < 0 || (c === 0 && a < b);
      };
      const heap: number[] = [];
      for (let run = 0; run < frames.length; run++) if (frames[run] !== null && frames[run]!.length > 0) heap.push(run);
      heap.sort((a, b) => (less(a, b) ? -1 : 1));
      while (heap.length > 0) {
        const run = heap[0]!;
        const flat = frames[run]![pos[run]!]!;
        yield { key: keys[run]!, row: flat.slice(nk) };
        pos[run]!++;
        if (pos[run]! >= frames[run]!.length) {
          this.checkAbort();
          frames[run] = await readers[run]!.next();
          pos[run] = 0;
          while (frames[run] !== null && frames[run]!.length === 0) frames[run] = await readers[run]!.next();
        }
        if (frames[run] === null) {
          const last = heap.pop()!;
          if (heap.length === 0) break;
          heap[0] = last;
        } else keys[run] = keyOf(run);
        siftDown(heap, less);
      }
    } finally {
      await Promise.all(readers.map((r) => r.close()));
    }
  }
}

function siftDown(heap: number[], less: (a: number, b: number) => boolean): void {
  const n = heap.length;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= n) return;
    const r = l + 1;
    const m = r < n && less(heap[r]!, heap[l]!) ? r : l;
    if (!less(heap[m]!, heap[i]!)) return;
    [heap[i], heap[m]] = [heap[m]!, heap[i]!];
    i = m;
  }
}
