/**
 * InsertExec: streams the input rows (whole table rows) into WritableTableSource.insert after checking
 * NOT NULL (23502). Yields one batch with one int8 column `count` — or, with RETURNING, the returned rows,
 * computed as the rows stream into the write (before its commit), so an error in RETURNING commits nothing.
 */
import type { Batch } from '../../common/batch.ts';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { Insert } from '../../sql/index.ts';
import { checkAbort, type Env } from '../context.ts';
import { compileAll } from '../expr/compile-expr.ts';
import type { ExecOperator } from '../operator.ts';

export class InsertExec implements ExecOperator {
  readonly name = 'InsertExec';
  constructor(private readonly plan: Insert, private readonly input: ExecOperator, private readonly env: Env) {}
  get children(): readonly ExecOperator[] { return [this.input]; }

  async *execute(): AsyncIterable<Batch> {
    const p = this.plan;
    const cols = p.table.columns;
    const returned: Batch[] = [];
    const env = this.env;
    const input = this.input;
    const rel = p.name.slice(p.name.indexOf('.') + 1);
    const ret = p.returning === null ? null : compileAll(p.returning, env);
    async function* checked(): AsyncIterable<Batch> {
      for await (const b of input.execute()) {
        checkAbort(env);
        cols.forEach((c, j) => {
          if (c.nullable) return;
          const col = b.columns[j]!;
          for (let i = 0; i < b.length; i++) {
            if (col[i] === null || col[i] === undefined) {
              throw pgError(SqlState.not_null_violation, `null value in column "${c.name}" of relation "${rel}" violates not-null constraint`, { table: rel, column: c.name });
            }
          }
        });
        if (ret !== null) {
          await ret.prepare(b);
          returned.push({ columns: ret.fns.map((f) => Array.from({ length: b.length }, (_, i) => f(b.columns, i))), length: b.length });
        }
        yield b;
      }
    }
    const count = await p.table.insert(checked(), env.ctx.scan);
    if (ret === null) {
      yield { columns: [[BigInt(count)]], length: 1 };
      return;
    }
    yield* returned;
  }
}
