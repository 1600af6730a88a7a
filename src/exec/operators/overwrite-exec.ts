/**
 * OverwriteExec (pipeline breaker): UPDATE / DELETE. Sources with a RowLevelWriter (Iceberg tables) get
 * row-level changes: the input's scan is swapped for the row delta's scan, which adds each row's file and
 * position; affected rows are deleted by those ids and UPDATE's new rows inserted, then one commit. Other
 * writable sources (temp tables) are rewritten: read all of `input` (old row, affected flag, new row), check
 * NOT NULL on updated rows, truncate and insert the surviving rows. Yields `[[count]]` or the RETURNING rows.
 */
import type { Batch } from '../../common/batch.ts';
import type { ColumnDef, RowDelta, RowLevelWriter, TableSource, WritableTableSource } from '../../catalog/table-source.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { notSupported, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { Expr, LogicalPlan, Overwrite } from '../../sql/index.ts';
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
    if (p.table.rowLevel !== undefined) {
      yield* this.rowLevel(p.table.rowLevel, rel);
      return;
    }
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
        checkNotNull(cols, row, rel);
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
    yield* this.result(affected);
  }

  /** UPDATE / DELETE through a row delta: delete affected rows by (file, position), insert new versions, one commit */
  private async *rowLevel(rl: RowLevelWriter, rel: string): AsyncIterable<Batch> {
    const p = this.plan;
    const cols = p.table.columns;
    const n = cols.length;
    const delta = rl.begin(p.op);
    const plan = withRowIds(p.input, p.table, delta);
    const fileCol = plan.columns.length - 2;
    const affected: unknown[][] = [];
    let count = 0;
    for await (const b of this.env.run(plan, this.env)) {
      checkAbort(this.env);
      const flags = b.columns[n]!;
      const files = b.columns[fileCol]!;
      const positions = b.columns[fileCol + 1]!;
      const newRows: unknown[][] = [];
      for (let i = 0; i < b.length; i++) {
        if (flags[i] !== true) continue;
        count++;
        delta.delete(files[i] as string, positions[i] as bigint);
        const old = p.op === 'delete' ? b.columns.slice(0, n).map((c) => c[i] ?? null) : null;
        if (old !== null) {
          if (p.returning !== null) affected.push(old);
          continue;
        }
        const row = b.columns.slice(n + 1, 2 * n + 1).map((c) => c[i] ?? null);
        checkNotNull(cols, row, rel);
        newRows.push(row);
        if (p.returning !== null) affected.push(row);
      }
      if (newRows.length > 0) await delta.insert(rowsToBatch(newRows, n));
    }
    await delta.commit();
    if (p.returning === null) {
      yield { columns: [[BigInt(count)]], length: 1 };
      return;
    }
    yield* this.result(affected);
  }

  private async *result(affected: unknown[][]): AsyncIterable<Batch> {
    const p = this.plan;
    const n = p.table.columns.length;
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

function checkNotNull(cols: readonly ColumnDef[], row: readonly unknown[], rel: string): void {
  cols.forEach((c, j) => {
    if (!c.nullable && row[j] === null) {
      throw pgError(SqlState.not_null_violation, `null value in column "${c.name}" of relation "${rel}" violates not-null constraint`, { table: rel, column: c.name });
    }
  });
}

const ROW_ID_COLUMNS = [
  { name: '$file', type: { oid: Oid.text, typmod: -1 } },
  { name: '$pos', type: { oid: Oid.int8, typmod: -1 } },
] as const;

/**
 * `input` (projections over the scan of `table`, as bind-modify builds it and the optimizer leaves it) with the
 * scan reading through the row delta and every projection passing the two row-id columns on at its end
 */
function withRowIds(input: LogicalPlan, table: WritableTableSource, delta: RowDelta): LogicalPlan {
  if (input.kind === 'TableScan' && input.source === table) {
    const source: TableSource = {
      columns: [...table.columns, ...ROW_ID_COLUMNS.map((c) => ({ ...c, nullable: false }))],
      scan: (ctx) => delta.scan(ctx),
    };
    return { ...input, source, columns: [...input.columns, ...ROW_ID_COLUMNS] };
  }
  if (input.kind === 'Projection') {
    const inner = withRowIds(input.input, table, delta);
    const w = inner.columns.length;
    const refs: Expr[] = ROW_ID_COLUMNS.map((c, k) => ({ kind: 'ColumnRef', index: w - 2 + k, levelsUp: 0, type: c.type, name: c.name }));
    return { ...input, input: inner, exprs: [...input.exprs, ...refs], columns: [...input.columns, ...ROW_ID_COLUMNS] };
  }
  throw notSupported(`row-level UPDATE / DELETE over a ${input.kind} plan`);
}
