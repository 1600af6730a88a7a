/**
 * SetOpExec: UNION [ALL] streams both inputs (deduplicating for UNION); INTERSECT/EXCEPT [ALL] build a
 * count table of the right input first (pipeline breaker on the right side). NULLs compare equal here.
 */
import type { Batch } from '../../common/batch.ts';
import type { SetOp } from '../../sql/index.ts';
import { checkAbort, queryMemory, type Env } from '../context.ts';
import { rowKey } from '../batch-util.ts';
import type { ExecOperator } from '../operator.ts';
import type { MemoryReservation } from '../memory/memory-reservation.ts';
import { MAP_ENTRY_BYTES } from '../memory/size-estimate.ts';

export class SetOpExec implements ExecOperator {
  readonly name = 'SetOpExec';
  constructor(private readonly plan: SetOp, private readonly left: ExecOperator, private readonly right: ExecOperator, private readonly env: Env) {}
  get children(): readonly ExecOperator[] { return [this.left, this.right]; }

  async *execute(): AsyncIterable<Batch> {
    // the keys seen / counted are held in the query's memory budget (53200 past it)
    const mem = queryMemory(this.env).reserve('HashSetOp');
    try {
      yield* this.#run(mem);
    } finally {
      mem.release();
    }
  }

  async *#run(mem: MemoryReservation): AsyncIterable<Batch> {
    const { op, all } = this.plan;
    /** bytes of the keys added to a Set / Map since the last batch */
    let added = 0;
    const charge = (k: string): void => { added += MAP_ENTRY_BYTES + 16 + 2 * k.length; };
    const settle = (): void => { mem.grow(added); added = 0; };
    const oids = this.plan.columns.map((c) => c.type.oid);
    const key = (b: Batch, i: number): string => rowKey(b.columns.map((c) => c[i] ?? null), oids);
    const pick = (b: Batch, keep: number[]): Batch => ({ columns: b.columns.map((c) => keep.map((i) => c[i] ?? null)), length: keep.length });
    if (op === 'union') {
      const seen = new Set<string>();
      for (const input of [this.left, this.right]) {
        for await (const b of input.execute()) {
          checkAbort(this.env);
          if (all) { if (b.length > 0) yield b; continue; }
          const keep: number[] = [];
          for (let i = 0; i < b.length; i++) { const k = key(b, i); if (!seen.has(k)) { seen.add(k); charge(k); keep.push(i); } }
          settle();
          if (keep.length > 0) yield pick(b, keep);
        }
      }
      return;
    }
    const counts = new Map<string, number>();
    for await (const b of this.right.execute()) {
      checkAbort(this.env);
      for (let i = 0; i < b.length; i++) { const k = key(b, i); const n = counts.get(k); if (n === undefined) charge(k); counts.set(k, (n ?? 0) + 1); }
      settle();
    }
    const emitted = new Set<string>();
    for await (const b of this.left.execute()) {
      checkAbort(this.env);
      const keep: number[] = [];
      for (let i = 0; i < b.length; i++) {
        const k = key(b, i);
        const n = counts.get(k) ?? 0;
        if (op === 'intersect') {
          if (n === 0) continue;
          if (all) { counts.set(k, n - 1); keep.push(i); } else if (!emitted.has(k)) { emitted.add(k); charge(k); keep.push(i); }
        } else if (all) {
          if (n > 0) counts.set(k, n - 1); else keep.push(i);
        } else if (n === 0 && !emitted.has(k)) { emitted.add(k); charge(k); keep.push(i); }
      }
      settle();
      if (keep.length > 0) yield pick(b, keep);
    }
  }
}
