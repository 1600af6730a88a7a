/** SortExec (pipeline breaker): materializes its input, sorts stably by the keys, emits in batches. */
import type { Batch } from '../../common/batch.ts';
import type { Sort } from '../../sql/index.ts';
import { BATCH_SIZE, checkAbort, type Env } from '../context.ts';
import { compileAll } from '../expr/compile-expr.ts';
import { compareKeys, type KeySpec } from '../expr/sort-compare.ts';
import { rowsToBatch } from '../batch-util.ts';
import type { ExecOperator } from '../operator.ts';

export class SortExec implements ExecOperator {
  readonly name = 'SortExec';
  constructor(private readonly plan: Sort, private readonly input: ExecOperator, private readonly env: Env, private readonly fetch: number | null = null) {}
  get children(): readonly ExecOperator[] { return [this.input]; }

  async *execute(): AsyncIterable<Batch> {
    const { fns, prepare } = compileAll(this.plan.keys.map((k) => k.expr), this.env);
    const specs: KeySpec[] = this.plan.keys.map((k) => ({ oid: k.expr.type.oid, descending: k.descending, nullsFirst: k.nullsFirst }));
    const width = this.plan.columns.length;
    const rows: { key: unknown[]; row: unknown[] }[] = [];
    for await (const b of this.input.execute()) {
      checkAbort(this.env);
      await prepare(b);
      for (let i = 0; i < b.length; i++) {
        rows.push({ key: fns.map((f) => f(b.columns, i)), row: b.columns.map((c) => c[i] ?? null) });
      }
    }
    rows.sort((x, y) => compareKeys(specs, x.key, y.key));
    const n = this.fetch === null ? rows.length : Math.min(this.fetch, rows.length);
    for (let s = 0; s < n; s += BATCH_SIZE) {
      yield rowsToBatch(rows.slice(s, Math.min(n, s + BATCH_SIZE)).map((r) => r.row), width);
    }
  }
}
