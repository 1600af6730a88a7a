/**
 * ModifyRows: row changes driven by a join — UPDATE … FROM, DELETE … USING, MERGE, INSERT … ON CONFLICT
 * (PostgreSQL's ModifyTable over a join, with MERGE's action list; ON CONFLICT joins the proposed rows to the
 * target on the arbiter key). `input` is the joined plan; it reads the target through a TableScan
 * of `target` (a RowIdTarget placeholder: the table's columns, its system columns, then `$file` and `$pos`
 * naming each row), which reads through the statement's row delta (exec/operators/modify-rows-exec.ts); then,
 * per input row, takes the first action whose `matched` fits (`$file` non-null = a target row joined) and
 * whose condition holds: delete the target row, update it (delete + insert `values`), insert `values`, or
 * nothing. Everything is one commit. Yields `[[count]]` or the RETURNING rows.
 */
import type { ColumnDef, RowDelta, ScanContext, TableSource, WritableTableSource } from '../../catalog/table-source.ts';
import type { Batch } from '../../common/batch.ts';
import { internalError } from '../../common/errors.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import type { Expr } from './expr.ts';
import type { LogicalPlan } from './plan.ts';
import type { PlanColumn } from './plan-column.ts';

export interface ModifyAction {
  /** WHEN MATCHED (a target row joined) or WHEN NOT MATCHED */
  readonly matched: boolean;
  /** `AND …` of the WHEN clause, over the input row; null = always */
  readonly condition: Expr | null;
  readonly kind: 'update' | 'delete' | 'insert' | 'nothing';
  /** update / insert: the new row (the table's columns, assignment casts applied), over the input row */
  readonly values: readonly Expr[] | null;
}

export interface ModifyRows {
  readonly kind: 'ModifyRows';
  readonly command: 'update' | 'delete' | 'merge' | 'insert';
  readonly table: WritableTableSource;
  readonly name: string;
  readonly tableOid: number;
  /** the source of the input's target scan (swapped for the row delta's scan at execution) */
  readonly target: RowIdTarget;
  readonly input: LogicalPlan;
  /** input columns of the target row: its first column, its system columns, `$file` and `$pos` */
  readonly rowId: { readonly start: number; readonly system: number; readonly file: number; readonly pos: number };
  /** in order; the first that applies wins */
  readonly actions: readonly ModifyAction[];
  /**
   * a target row reached again: 'skip' (UPDATE … FROM / DELETE … USING change it once, with an arbitrary
   * one of its joined rows) or 'error' (MERGE, ON CONFLICT DO UPDATE: 21000 when a second action would change it)
   */
  readonly repeat: 'skip' | 'error';
  /**
   * ON CONFLICT: the arbiter keys as input columns of the proposed row. A proposed row to be inserted whose key
   * (no part NULL) equals one this statement inserted already conflicts with it: DO NOTHING skips it, DO UPDATE
   * is 21000 (the join saw only the rows before the statement)
   */
  readonly conflictKeys?: readonly (readonly { readonly index: number; readonly oid: number }[])[];
  /** ON CONFLICT: what a conflict with a row this statement inserted does */
  readonly onInsertedConflict?: 'nothing' | 'error';
  /** over the input row, the target's columns replaced by the new values (UPDATE) */
  readonly returning: readonly Expr[] | null;
  readonly columns: readonly PlanColumn[];
}

/** the two columns naming a row for a row delta: data file (text) and position (int8) */
export const ROW_ID_COLUMNS: readonly ColumnDef[] = [
  { name: '$file', type: { oid: Oid.text, typmod: -1 }, nullable: false },
  { name: '$pos', type: { oid: Oid.int8, typmod: -1 }, nullable: false },
];

/**
 * What the binder scans for the target of a ModifyRows: the table's columns, `system` (the ones the row
 * delta adds: Iceberg v3 row lineage), `$file`, `$pos`. A scan reads through the row delta the executing
 * statement attached under its abort signal (one statement per signal), so the plan stays as bound.
 */
export class RowIdTarget implements TableSource {
  readonly columns: readonly ColumnDef[];
  constructor(readonly table: WritableTableSource, readonly system: readonly ColumnDef[]) {
    this.columns = [...table.columns, ...system, ...ROW_ID_COLUMNS];
  }

  private readonly deltas = new WeakMap<AbortSignal, RowDelta>();

  get estimatedRows(): number | undefined {
    return this.table.estimatedRows;
  }

  /** the statement with this signal reads the target through `delta` until detach() */
  attach(signal: AbortSignal, delta: RowDelta): void {
    this.deltas.set(signal, delta);
  }

  detach(signal: AbortSignal): void {
    this.deltas.delete(signal);
  }

  scan(ctx: ScanContext): AsyncIterable<Batch> {
    const delta = this.deltas.get(ctx.signal);
    if (delta === undefined) throw internalError('the target of a row change was scanned without its row delta');
    return delta.scan(ctx);
  }
}
