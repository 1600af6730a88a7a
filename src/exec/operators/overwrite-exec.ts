/**
 * OverwriteExec (pipeline breaker): UPDATE / DELETE by rewriting the table. Reads all of `input` (old row,
 * affected flag, new row), checks NOT NULL on updated rows, then truncates the table and inserts the surviving
 * rows. Yields `[[count]]` or the RETURNING rows.
 */
import type { Batch } from '../../common/batch.ts';
import { notSupported, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { Overwrite } from '../../sql/index.ts';
import { BATCH_SIZE, checkAbort, type Env } from '../context.ts';
import { compileAll } from '../expr/compile-expr.ts';
import { rowsToBatch } from '../batch-util.ts';
import type { ExecOperator } from '../operator.ts';

export class OverwriteExec implements ExecOperator {
  readonly name = 'OverwriteExec';
  constructor(private readonly plan: Overwrite, private readonly input: ExecOperator, private readonly env: Env) {}
  get children(): readonly ExecOperator[] { return [this.input]; }

  async *execute(): AsyncIterable<Batch> {
    const p = this.plan;
    const cols = p.table.columns;
    const n = cols.length;
    const rel = p.name.slice(p.name.indexOf('.') + 1);
    if (p.table.truncate === undefined) throw notSupported(`${p.op.toUpperCase()} on relation "${rel}"`);
    const keep: unknown[][] = [];
    const affected: unknown[][] = [];
    for await (const b of this.input.execute()) {
      checkAbort(this.env);
      for (let i = 0; i < b.length; i++) {
        const old = b.columns.slice(0, n).map((c) => c[i] ?? null);
        if (b.columns[n]![i] !== true) { keep.push(old); continue; }
        if (p.op === 'delete') { affected.push(old); continue; }
        const row = b.columns.slice(n + 1, 2 * n + 1).map((c) => c[i] ?? null);
        cols.forEach((c, j) => {
          if (!c.nullable && row[j] === null) {
            throw pgError(SqlState.not_null_violation, `null value in column "${c.name}" of relation "${rel}" violates not-null constraint`, { table: rel, column: c.name });
          }
        });
        affected.push(row);
        keep.push(row);
      }
    }
    await p.table.truncate();
    const all = keep;
    async function* batches(): AsyncIterable<Batch> {
      for (let s = 0; s < all.length; s += BATCH_SIZE) yield rowsToBatch(all.slice(s, s + BATCH_SIZE), n);
    }
    await p.table.insert(batches(), this.env.ctx.scan);
    if (p.returning === null) {
      yield { columns: [[BigInt(affected.length)]], length: 1 };
      return;
    }
    const { fns, prepare } = compileAll(p.returning, this.env);
    for (let s = 0; s < affected.length; s += BATCH_SIZE) {
      const b = rowsToBatch(affected.slice(s, s + BATCH_SIZE), n);
      await prepare(b);
      yield { columns: fns.map((f) => Array.from({ length: b.length }, (_, i) => f(b.columns, i))), length: b.length };
    }
  }
}
