/**
 * SortExec (pipeline breaker): materializes its input, sorts stably by the keys, emits in batches. The rows
 * are held in the query's memory budget; past it they spill to disk and are merged (memory/external-sorter.ts).
 * Under a constant LIMIT (`fetch`) only the first rows are kept (top-N, never spills: top-n-rows.ts).
 */
import type { Batch } from '../../common/batch.ts';
import type { Sort } from '../../sql/index.ts';
import { BATCH_SIZE, checkAbort, queryMemory, type Env } from '../context.ts';
import { compileAll } from '../expr/compile-expr.ts';
import type { KeySpec } from '../expr/sort-compare.ts';
import { TopNRows } from './top-n-rows.ts';
import { rowsToBatch } from '../batch-util.ts';
import type { ExecOperator } from '../operator.ts';
import { ExternalSorter, type SortEntry } from '../memory/external-sorter.ts';
import { explainKb, noteMemoryDetail } from '../memory/memory-explain.ts';
import type { MemoryReservation } from '../memory/memory-reservation.ts';
import { estimateBatchAsRowsBytes, OBJECT_BYTES, SLOT_BYTES } from '../memory/size-estimate.ts';

export class SortExec implements ExecOperator {
  readonly name = 'SortExec';
  constructor(private readonly plan: Sort, private readonly input: ExecOperator, private readonly env: Env, private readonly fetch: number | null = null) {}
  get children(): readonly ExecOperator[] { return [this.input]; }

  async *execute(): AsyncIterable<Batch> {
    const mem = queryMemory(this.env).reserve('Sort');
    const specs: KeySpec[] = this.plan.keys.map((k) => ({ oid: k.expr.type.oid, descending: k.descending, nullsFirst: k.nullsFirst }));
    if (this.fetch !== null) {
      try { yield* this.#topN(specs, this.fetch, mem); } finally { mem.release(); }
      return;
    }
    const sorter = new ExternalSorter(specs, mem, () => checkAbort(this.env));
    try {
      const { fns, prepare } = compileAll(this.plan.keys.map((k) => k.expr), this.env);
      // per row: the entry object, its key array and the key slots
      const entryBytes = OBJECT_BYTES * 2 + fns.length * SLOT_BYTES;
      for await (const b of this.input.execute()) {
        checkAbort(this.env);
        await prepare(b);
        const entries = new Array<SortEntry>(b.length);
        for (let i = 0; i < b.length; i++) entries[i] = { key: fns.map((f) => f(b.columns, i)), row: b.columns.map((c) => c[i] ?? null) };
        await sorter.add(entries, estimateBatchAsRowsBytes(b) + b.length * entryBytes);
      }
      await sorter.finishInput();
      noteMemoryDetail(this.env, this.plan, sorter.method === 'quicksort'
        ? `Sort Method: quicksort  Memory: ${explainKb(mem.peak)}`
        : `Sort Method: external merge  Disk: ${explainKb(sorter.diskBytes)}`);
      const width = this.plan.columns.length;
      for await (const rows of sorter.sorted(BATCH_SIZE)) yield rowsToBatch(rows, width);
    } finally {
      await sorter.close();
    }
  }

  /** top-k: keep the k smallest, stable (a later equal row never displaces an earlier one) */
  async *#topN(specs: KeySpec[], k: number, mem: MemoryReservation): AsyncIterable<Batch> {
    const { fns, prepare } = compileAll(this.plan.keys.map((key) => key.expr), this.env);
    const width = this.plan.columns.length;
    const top = new TopNRows(specs, fns, k);
    for await (const b of this.input.execute()) {
      checkAbort(this.env);
      await prepare(b);
      const added = top.add(b.columns, b.length);
      // the kept rows grow until there are k of them; estimated from this batch's row size
      if (added > 0 && b.length > 0) mem.grow(((estimateBatchAsRowsBytes(b) / b.length) + OBJECT_BYTES * 2 + fns.length * SLOT_BYTES) * added);
    }
    const rows = top.sorted();
    noteMemoryDetail(this.env, this.plan, `Sort Method: top-N heapsort  Memory: ${explainKb(mem.peak)}`);
    const n = Math.min(k, rows.length);
    for (let s = 0; s < n; s += BATCH_SIZE) {
      yield rowsToBatch(rows.slice(s, Math.min(n, s + BATCH_SIZE)).map((r) => r.row), width);
    }
  }
}
