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
    const k = this.fetch;
    const cmp = (x: { key: unknown[] }, y: { key: unknown[] }): number => compareKeys(specs, x.key, y.key);
    for await (const b of this.input.execute()) {
      checkAbort(this.env);
      await prepare(b);
      for (let i = 0; i < b.length; i++) {
        const key = fns.map((f) => f(b.columns, i));
        if (k !== null && rows.length >= k) {
          // top-k: keep the k smallest, stable (a later equal row never displaces an earlier one)
          if (k === 0 || compareKeys(specs, key, rows[k - 1]!.key) >= 0) continue;
          let lo = 0;
          let hi = k - 1;
          while (lo < hi) { const mid = (lo + hi) >> 1; if (compareKeys(specs, key, rows[mid]!.key) < 0) hi = mid; else lo = mid + 1; }
          rows.splice(lo, 0, { key, row: b.columns.map((c) => c[i] ?? null) });
          rows.pop();
          continue;
        }
        rows.push({ key, row: b.columns.map((c) => c[i] ?? null) });
        if (k !== null && rows.length === k) rows.sort(cmp);
      }
    }
    rows.sort(cmp);
    const n = this.fetch === null ? rows.length : Math.min(this.fetch, rows.length);
    for (let s = 0; s < n; s += BATCH_SIZE) {
      yield rowsToBatch(rows.slice(s, Math.min(n, s + BATCH_SIZE)).map((r) => r.row), width);
    }
  }
}
