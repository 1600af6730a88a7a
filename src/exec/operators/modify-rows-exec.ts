/**
 * ModifyRowsExec (pipeline breaker): UPDATE … FROM, DELETE … USING and MERGE (logical/modify-rows.ts).
 * The input's scan of the RowIdTarget placeholder reads through this statement's row delta (Iceberg: the table's
 * RowLevelWriter, merge-on-read; memory / temp tables: RewriteRowDelta), so every joined row carries its
 * target row's (file, position). Per input row the first applicable action runs: DELETE and UPDATE delete the
 * target row by its id, UPDATE and INSERT hand the new row to the delta; then one commit (deletes and appends
 * in one snapshot). A target row reached a second time is skipped (UPDATE / DELETE: once, with an arbitrary
 * one of its joined rows, as PostgreSQL) or, when a second action would change it, 21000 (MERGE).
 * Yields `[[count]]` or the RETURNING rows, computed before the commit (overwrite-exec.ts returningBatches: an
 * error in RETURNING commits nothing) unless an UPDATE's RETURNING names a v3 system column the commit sets.
 */
import type { Batch } from '../../common/batch.ts';
import type { ColumnDef, RowDelta } from '../../catalog/table-source.ts';
import { internalError, notSupported, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { ModifyRows } from '../../sql/index.ts';
import { checkAbort, type Env } from '../context.ts';
import { asyncResult, compileAll, settleAsync, type RowFn } from '../expr/compile-expr.ts';
import { rowsToBatch, tupleKey } from '../batch-util.ts';
import type { ExecOperator } from '../operator.ts';
import { RewriteRowDelta } from './rewrite-row-delta.ts';
import { namesColumns, returningBatches } from './overwrite-exec.ts';

interface CompiledAction {
  readonly matched: boolean;
  readonly kind: 'update' | 'delete' | 'insert' | 'nothing';
  readonly condition: RowFn | null;
  readonly values: readonly RowFn[];
}

export class ModifyRowsExec implements ExecOperator {
  readonly name = 'ModifyRowsExec';
  constructor(private readonly plan: ModifyRows, private readonly input: ExecOperator, private readonly env: Env) {}
  get children(): readonly ExecOperator[] { return [this.input]; }

  async *execute(): AsyncIterable<Batch> {
    const signal = this.env.ctx.scan.signal;
    const delta = this.begin();
    this.plan.target.attach(signal, delta);
    try {
      yield* this.run(delta);
    } finally {
      this.plan.target.detach(signal);
    }
  }

  private async *run(delta: RowDelta): AsyncIterable<Batch> {
    const p = this.plan;
    const env = this.env;
    const cols = p.table.columns;
    const n = cols.length;
    const rel = p.name.slice(p.name.indexOf('.') + 1);
    const sys = delta.systemColumns ?? [];
    if (sys.length !== p.target.system.length) throw internalError(`row delta of "${rel}" has ${sys.length} system columns, the plan ${p.target.system.length}`);
    const k = sys.length;

    // one compilation for every condition and value of every action, and RETURNING's per-row part
    const exprs = p.actions.flatMap((a) => [...(a.condition === null ? [] : [a.condition]), ...(a.values ?? [])]);
    const { fns, prepare } = compileAll(exprs, env);
    let next = 0;
    const actions: CompiledAction[] = p.actions.map((a) => ({
      matched: a.matched, kind: a.kind,
      condition: a.condition === null ? null : fns[next++]!,
      values: (a.values ?? []).map(() => fns[next++]!),
    }));
    const { start, file: fileCol, pos: posCol, system: sysCol } = p.rowId;
    const seen = new Set<string>();
    // ON CONFLICT: keys of the rows this statement inserted, per arbiter
    const keys = (p.conflictKeys ?? []).map((cols) => ({ cols, oids: cols.map((c) => c.oid), inserted: new Set<unknown>() }));
    const returned: unknown[][] = [];
    const previous: unknown[][] = [];
    let count = 0;
    for await (const b of this.input.execute()) {
      checkAbort(env);
      await prepare(b);
      const files = b.columns[fileCol]!;
      const positions = b.columns[posCol]!;
      const newRows: unknown[][] = [];
      const oldSys: unknown[][] = [];
      for (let i = 0; i < b.length; i++) {
        const file = files[i] ?? null;
        const matched = file !== null;
        let a = firstAction(actions, matched, b, i);
        if (asyncResult.pending) a = await firstActionAsync(actions, matched, b, i, env);
        if (a === undefined || a.kind === 'nothing') continue;
        if (matched) {
          const key = `${String(positions[i])}\u0000${file as string}`;
          if (seen.has(key)) {
            if (p.repeat === 'skip') continue;
            throw secondTime(p);
          }
          seen.add(key);
          delta.delete(file as string, positions[i] as bigint);
        }
        if (a.kind === 'insert' && keys.length > 0) {
          const found = insertedConflict(keys, b.columns, i);
          if (found) {
            if (p.onInsertedConflict === 'error') throw secondTime(p);
            continue;
          }
        }
        count++;
        const sysValues = matched ? b.columns.slice(sysCol, sysCol + k).map((c) => c[i] ?? null) : new Array<unknown>(k).fill(null);
        let row: unknown[] | null = null;
        if (a.kind !== 'delete') {
          row = [];
          for (const f of a.values) {
            const v = f(b.columns, i);
            row.push(asyncResult.pending ? await settleAsync(v, env.ctx) : v);
          }
          checkNotNull(cols, row, rel);
          newRows.push(row);
          oldSys.push(sysValues);
        }
        if (p.returning !== null) {
          const out: unknown[] = b.columns.map((c) => c[i] ?? null);
          if (row !== null) for (let j = 0; j < n; j++) out[start + j] = row[j];
          returned.push(out);
          previous.push(sysValues);
        }
      }
      if (newRows.length > 0) await delta.insert(rowsToBatch(newRows, n), k === 0 ? undefined : rowsToBatch(oldSys, k));
    }
    if (p.returning === null) {
      await delta.commit();
      yield { columns: [[BigInt(count)]], length: 1 };
      return;
    }
    const width = p.input.columns.length;
    // an updated row's system columns (v3 _row_id kept, _last_updated_sequence_number the commit's) are known
    // after the commit only: a RETURNING naming them runs then; any other runs first, so its error commits nothing
    if (p.command === 'update' && k > 0 && namesColumns(p.returning, sysCol, sysCol + k)) {
      await delta.commit();
      returned.forEach((row, i) => {
        const v = delta.updatedSystemValues?.(previous[i]!) ?? previous[i]!;
        for (let j = 0; j < k; j++) row[sysCol + j] = v[j];
      });
      yield* await returningBatches(p.returning, env, returned, width);
      return;
    }
    const out = await returningBatches(p.returning, env, returned, width);
    await delta.commit();
    yield* out;
  }

  /** the row delta of this statement: the table's row-level writer, or a rewrite of the whole table */
  private begin(): RowDelta {
    const p = this.plan;
    const t = p.table;
    if (t.rowLevel !== undefined) return t.rowLevel.begin(p.command === 'delete' ? 'delete' : 'update');
    if (t.truncate === undefined) throw notSupported(`${p.command.toUpperCase()} on relation "${p.name.slice(p.name.indexOf('.') + 1)}"`);
    return new RewriteRowDelta(t as typeof t & { truncate(): Promise<void> }, this.env.ctx.scan);
  }
}

/** the first action of the row's kind (matched or not) whose condition holds */
function firstAction(actions: readonly CompiledAction[], matched: boolean, b: Batch, i: number): CompiledAction | undefined {
  return actions.find((x) => x.matched === matched && (x.condition === null || x.condition(b.columns, i) === true));
}

/**
 * the same when a condition called a function that returned a Promise (flagged by asyncResult.pending, settled
 * as ProjectionExec settles them): the conditions are evaluated again, each settled
 */
async function firstActionAsync(actions: readonly CompiledAction[], matched: boolean, b: Batch, i: number, env: Env): Promise<CompiledAction | undefined> {
  await settleAsync(undefined, env.ctx);
  for (const x of actions) {
    if (x.matched !== matched) continue;
    if (x.condition === null) return x;
    const v = x.condition(b.columns, i);
    if ((asyncResult.pending ? await settleAsync(v, env.ctx) : v) === true) return x;
  }
  return undefined;
}

function secondTime(p: ModifyRows): Error {
  if (p.command === 'insert') {
    return pgError(SqlState.cardinality_violation, 'ON CONFLICT DO UPDATE command cannot affect row a second time', {
      hint: 'Ensure that no rows proposed for insertion within the same command have duplicate constrained values.',
    });
  }
  return pgError(SqlState.cardinality_violation, 'MERGE command cannot affect row a second time', {
    hint: 'Ensure that not more than one source row matches any one target row.',
  });
}

/** whether row i's key equals one inserted before, on any arbiter (a key with a NULL never conflicts); else records it */
function insertedConflict(keys: readonly { cols: readonly { index: number }[]; oids: readonly number[]; inserted: Set<unknown> }[], cols: readonly (readonly unknown[])[], i: number): boolean {
  const found: unknown[] = [];
  for (const k of keys) {
    const values = k.cols.map((c) => cols[c.index]![i] ?? null);
    if (values.some((v) => v === null)) { found.push(undefined); continue; }
    const key = tupleKey(values, k.oids);
    if (k.inserted.has(key)) return true;
    found.push(key);
  }
  keys.forEach((k, j) => { if (found[j] !== undefined) k.inserted.add(found[j]); });
  return false;
}

function checkNotNull(cols: readonly ColumnDef[], row: readonly unknown[], rel: string): void {
  cols.forEach((c, j) => {
    if (!c.nullable && row[j] === null) {
      throw pgError(SqlState.not_null_violation, `null value in column "${c.name}" of relation "${rel}" violates not-null constraint`, { table: rel, column: c.name });
    }
  });
}
