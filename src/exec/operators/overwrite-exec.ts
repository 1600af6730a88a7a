/**
 * OverwriteExec (pipeline breaker): UPDATE / DELETE. Sources with a RowLevelWriter (Iceberg tables) get
 * row-level changes: the input's scan is swapped for the row delta's scan, which adds each row's file and
 * position; affected rows are deleted by those ids and UPDATE's new rows inserted, then one commit. Other
 * writable sources (temp tables) are rewritten: read all of `input` (old row, affected flag, new row), check
 * NOT NULL on updated rows, truncate and insert the surviving rows. Yields `[[count]]` or the RETURNING rows.
 * A row delta with system columns (Iceberg v3 row lineage) scans them after the table's columns: they are
 * passed up beside the row ids, handed to insert() with UPDATE's new rows (which keep their `_row_id`) and
 * given to RETURNING (the binder lets WHERE / SET / RETURNING name them).
 * RETURNING is computed before the commit (into a buffer, yielded after it): an error in it fails the
 * statement with nothing committed, as in PostgreSQL — except an UPDATE's RETURNING that names a v3 system
 * column, whose `_last_updated_sequence_number` is the commit's and so known only after it.
 */
import type { Batch } from '../../common/batch.ts';
import type { ColumnDef, RowDelta, RowLevelWriter, TableSource, WritableTableSource } from '../../catalog/table-source.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { notSupported, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { someExpr, type Expr, type LogicalPlan, type Overwrite } from '../../sql/index.ts';
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
    const all = keep;
    async function* batches(): AsyncIterable<Batch> {
      for (let s = 0; s < all.length; s += BATCH_SIZE) yield rowsToBatch(all.slice(s, s + BATCH_SIZE), n);
    }
    // RETURNING before the table changes: its error must leave the table as it was
    const out = await this.result(affected);
    // a table that checks keys swaps its contents only when they hold (23505 leaves it as it was)
    if (p.table.replaceAll !== undefined) await p.table.replaceAll(batches(), this.env.ctx.scan);
    else {
      await p.table.truncate();
      await p.table.insert(batches(), this.env.ctx.scan);
    }
    yield* out;
  }

  /** UPDATE / DELETE through a row delta: delete affected rows by (file, position), insert new versions, one commit */
  private async *rowLevel(rl: RowLevelWriter, rel: string): AsyncIterable<Batch> {
    const p = this.plan;
    const cols = p.table.columns;
    const n = cols.length;
    const delta = rl.begin(p.op);
    const sys = delta.systemColumns ?? [];
    const k = sys.length;
    const plan = withRowIds(p.input, p, delta);
    const sysCol = plan.columns.length - 2 - k;
    const fileCol = plan.columns.length - 2;
    const affected: unknown[][] = [];
    // UPDATE … RETURNING: the old versions' system values, completed once the commit is known
    const previous: unknown[][] = [];
    let count = 0;
    for await (const b of this.env.run(plan, this.env)) {
      checkAbort(this.env);
      const flags = b.columns[n]!;
      const files = b.columns[fileCol]!;
      const positions = b.columns[fileCol + 1]!;
      const newRows: unknown[][] = [];
      const oldSys: unknown[][] = [];
      for (let i = 0; i < b.length; i++) {
        if (flags[i] !== true) continue;
        count++;
        delta.delete(files[i] as string, positions[i] as bigint);
        const sysValues = b.columns.slice(sysCol, sysCol + k).map((c) => c[i] ?? null);
        if (p.op === 'delete') {
          if (p.returning !== null) affected.push([...b.columns.slice(0, n).map((c) => c[i] ?? null), ...sysValues]);
          continue;
        }
        const row = b.columns.slice(n + 1, 2 * n + 1).map((c) => c[i] ?? null);
        checkNotNull(cols, row, rel);
        newRows.push(row);
        oldSys.push(sysValues);
        if (p.returning !== null) { affected.push(row); previous.push(sysValues); }
      }
      if (newRows.length > 0) await delta.insert(rowsToBatch(newRows, n), k === 0 ? undefined : rowsToBatch(oldSys, k));
    }
    if (p.returning === null) {
      await delta.commit();
      yield { columns: [[BigInt(count)]], length: 1 };
      return;
    }
    // an UPDATE's new system values (v3 lineage) come from the commit: only then can a RETURNING naming them run
    const afterCommit = p.op === 'update' && k > 0 && namesColumns(p.returning, n, n + k);
    if (!afterCommit && p.op === 'update' && k > 0) affected.forEach((row, i) => row.push(...previous[i]!));
    const early = afterCommit ? null : await this.result(affected, n + k);
    await delta.commit();
    if (early !== null) {
      yield* early;
      return;
    }
    affected.forEach((row, i) => row.push(...(delta.updatedSystemValues?.(previous[i]!) ?? previous[i]!)));
    yield* await this.result(affected, n + k);
  }

  /** the count or the RETURNING rows, computed now; `width`: the table's columns, then any system columns RETURNING may name */
  private async result(affected: unknown[][], width = this.plan.table.columns.length): Promise<Batch[]> {
    const p = this.plan;
    if (p.returning === null) return [{ columns: [[BigInt(affected.length)]], length: 1 }];
    return returningBatches(p.returning, this.env, affected, width);
  }
}

/**
 * RETURNING over `rows` (each `width` wide), computed into batches before the statement commits, so that an
 * error in it (`RETURNING 1/(v-2)`) commits nothing (also ModifyRowsExec's)
 */
export async function returningBatches(returning: readonly Expr[], env: Env, rows: readonly unknown[][], width: number): Promise<Batch[]> {
  const { fns, prepare } = compileAll(returning, env);
  const out: Batch[] = [];
  for (let s = 0; s < rows.length; s += BATCH_SIZE) {
    checkAbort(env);
    const b = rowsToBatch(rows.slice(s, s + BATCH_SIZE), width);
    await prepare(b);
    out.push({ columns: fns.map((f) => Array.from({ length: b.length }, (_, i) => f(b.columns, i))), length: b.length });
  }
  return out;
}

/** whether one of `exprs` reads a column of this row in [from, to) (v3 system columns after the table's) */
export function namesColumns(exprs: readonly Expr[], from: number, to: number): boolean {
  return exprs.some((e) => someExpr(e, (x) => x.kind === 'ColumnRef' && x.levelsUp === 0 && x.index >= from && x.index < to));
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
 * `input` (projections over the scan of the target, as bind-modify builds it and the optimizer leaves it) with
 * the scan reading through the row delta — the table's columns, the delta's system columns, file, position;
 * the binder's scan has the table's columns, or those and the same system columns when the statement names
 * one — and every projection passing the system and row-id columns on at its end
 */
function withRowIds(input: LogicalPlan, target: Pick<Overwrite, 'table' | 'tableOid'>, delta: RowDelta): LogicalPlan {
  const table: WritableTableSource = target.table;
  const sys = delta.systemColumns ?? [];
  const trailing = [...sys.map((c) => ({ name: c.name, type: c.type })), ...ROW_ID_COLUMNS];
  // the target itself, or its system-columns variant (withSystemColumns) the binder scanned
  if (input.kind === 'TableScan' && (input.source === table || input.tableOid === target.tableOid)) {
    const source: TableSource = {
      columns: [...table.columns, ...sys, ...ROW_ID_COLUMNS.map((c) => ({ ...c, nullable: false }))],
      scan: (ctx) => delta.scan(ctx),
    };
    const own = input.columns.length - table.columns.length;
    if (own !== 0 && own !== sys.length) throw notSupported('system columns the row-level writer does not read');
    return { ...input, source, columns: [...input.columns.slice(0, table.columns.length), ...trailing] };
  }
  if (input.kind === 'Projection') {
    const inner = withRowIds(input.input, target, delta);
    const w = inner.columns.length;
    const refs: Expr[] = trailing.map((c, k) => ({ kind: 'ColumnRef', index: w - trailing.length + k, levelsUp: 0, type: c.type, name: c.name }));
    return { ...input, input: inner, exprs: [...input.exprs, ...refs], columns: [...input.columns, ...trailing] };
  }
  throw notSupported(`row-level UPDATE / DELETE over a ${input.kind} plan`);
}
