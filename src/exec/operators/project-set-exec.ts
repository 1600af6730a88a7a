/**
 * ProjectSetExec: select lists with set-returning functions. Per input row, every SRF yields its rows in
 * lock step; the row count is the longest SRF's, shorter ones are padded with NULL (PostgreSQL 10+).
 */
import type { Batch } from '../../common/batch.ts';
import type { ProjectSet, SetCallExpr } from '../../sql/index.ts';
import { BATCH_SIZE, checkAbort, type Env } from '../context.ts';
import { compileAll, compileExpr, type Compiled, type RowFn } from '../expr/compile-expr.ts';
import { BatchBuilder } from '../batch-util.ts';
import type { ExecOperator } from '../operator.ts';

export class ProjectSetExec implements ExecOperator {
  readonly name = 'ProjectSetExec';
  constructor(private readonly plan: ProjectSet, private readonly input: ExecOperator, private readonly env: Env) {}
  get children(): readonly ExecOperator[] { return [this.input]; }

  async *execute(): AsyncIterable<Batch> {
    const ctx = this.env.ctx;
    type Item = { kind: 'scalar'; c: Compiled } | { kind: 'set'; e: SetCallExpr; args: { fns: RowFn[]; prepare: (b: Batch) => Promise<void> } };
    const items: Item[] = this.plan.exprs.map((e) =>
      e.kind === 'SetCall' ? { kind: 'set', e, args: compileAll(e.args, this.env) } : { kind: 'scalar', c: compileExpr(e, this.env) });
    const out = new BatchBuilder(this.plan.columns.length, BATCH_SIZE);
    for await (const b of this.input.execute()) {
      checkAbort(this.env);
      for (const it of items) {
        if (it.kind === 'set') await it.args.prepare(b);
        else if (it.c.prepare) await it.c.prepare(b);
      }
      for (let i = 0; i < b.length; i++) {
        const vals: unknown[][] = [];
        let max = 0;
        const scalars: unknown[] = [];
        items.forEach((it, k) => {
          if (it.kind === 'scalar') { scalars[k] = it.c.fn(b.columns, i); return; }
          const a = it.args.fns.map((f) => f(b.columns, i));
          let rows = it.e.def.strict !== false && a.some((v) => v === null) ? [] : [...it.e.def.impl(a, ctx, it.e.argTypes)];
          if (it.e.def.outColumns) {
            // a multi-column SRF in a select list yields records: (f(x)).field selects from them
            const oids = it.e.def.outColumns(it.e.argTypes).map((c) => c.type.oid);
            rows = rows.map((r) => ({ kind: 'record', fieldOids: oids, values: r as unknown[] }));
          }
          vals[k] = rows;
          max = Math.max(max, rows.length);
        });
        for (let r = 0; r < max; r++) {
          out.push(items.map((it, k) => (it.kind === 'scalar' ? scalars[k] : vals[k]![r] ?? null)));
          if (out.full()) yield out.take();
        }
      }
    }
    if (out.length > 0) yield out.take();
  }
}
