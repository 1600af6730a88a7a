/** DistinctExec: drops rows whose key (all columns, or the DISTINCT ON expressions) was already seen. */
import type { Batch } from '../../common/batch.ts';
import type { Distinct } from '../../sql/index.ts';
import { checkAbort, queryMemory, type Env } from '../context.ts';
import { compileAll } from '../expr/compile-expr.ts';
import { rowKey } from '../batch-util.ts';
import type { ExecOperator } from '../operator.ts';
import { MAP_ENTRY_BYTES } from '../memory/size-estimate.ts';

export class DistinctExec implements ExecOperator {
  readonly name = 'DistinctExec';
  constructor(private readonly plan: Distinct, private readonly input: ExecOperator, private readonly env: Env) {}
  get children(): readonly ExecOperator[] { return [this.input]; }

  async *execute(): AsyncIterable<Batch> {
    const on = this.plan.on;
    const compiled = on === null ? null : compileAll(on, this.env);
    const oids = (on ?? this.plan.columns).map((c) => c.type.oid);
    const seen = new Set<string>();
    // the seen keys are held in the query's memory budget (53200 past it)
    const mem = queryMemory(this.env).reserve('Distinct');
    try {
      for await (const b of this.input.execute()) {
        checkAbort(this.env);
        if (compiled) await compiled.prepare(b);
        const keep: number[] = [];
        let chars = 0;
        for (let i = 0; i < b.length; i++) {
          const vals = compiled ? compiled.fns.map((f) => f(b.columns, i)) : b.columns.map((c) => c[i] ?? null);
          const k = rowKey(vals, oids);
          if (seen.has(k)) continue;
          seen.add(k);
          chars += k.length;
          keep.push(i);
        }
        mem.grow(keep.length * (MAP_ENTRY_BYTES + 16) + 2 * chars);
        if (keep.length > 0) yield { columns: b.columns.map((c) => keep.map((i) => c[i] ?? null)), length: keep.length };
      }
    } finally {
      mem.release();
    }
  }
}
