/**
 * TransactionState: PostgreSQL's transaction block state machine for one session (idle → in block →
 * failed), savepoints, and undo records for what a transaction changed in memory tables and the
 * session's temp relations. Iceberg tables get real atomic commits from the Iceberg layer instead.
 */
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { Batch } from '../common/batch.ts';
import type { RelationInfo } from '../catalog/catalog-view.ts';
import type { MemoryTable } from './memory-table.ts';

export type TxStatus = 'I' | 'T' | 'E';

interface Frame {
  /** null for the transaction itself, the savepoint name otherwise */
  readonly name: string | null;
  readonly tableData: Map<MemoryTable, readonly Batch[]>;
  readonly tempRelations: readonly RelationInfo[] | null;
}

export class TransactionState {
  status: TxStatus = 'I';
  /** µs since epoch when the current transaction started (now()) */
  startedAt: bigint = 0n;
  private frames: Frame[] = [];
  private xid: bigint | null = null;

  /** number of open frames: 1 for the transaction plus one per savepoint */
  get depth(): number {
    return this.frames.length;
  }

  get inBlock(): boolean {
    return this.status !== 'I';
  }

  begin(tempRelations: readonly RelationInfo[], nowMicros: bigint): void {
    this.status = 'T';
    this.startedAt = nowMicros;
    this.frames = [{ name: null, tableData: new Map(), tempRelations }];
  }

  savepoint(name: string, tempRelations: readonly RelationInfo[]): void {
    this.frames.push({ name, tableData: new Map(), tempRelations });
  }

  /** depth of the frame named `name` (the most recent one with that name), or 42-error */
  findSavepoint(name: string): number {
    for (let i = this.frames.length - 1; i >= 1; i--) if (this.frames[i]!.name === name) return i;
    throw pgError(SqlState.invalid_savepoint_specification, `savepoint "${name}" does not exist`);
  }

  /** records a table's contents before the first write in each open frame */
  noteWrite(table: MemoryTable): void {
    for (const frame of this.frames) if (!frame.tableData.has(table)) frame.tableData.set(table, table.snapshot());
  }

  /** RELEASE: frames above and including `depth` merge into their parent */
  release(depth: number): void {
    const removed = this.frames.splice(depth);
    const parent = this.frames[this.frames.length - 1]!;
    for (const frame of removed) {
      for (const [t, data] of frame.tableData) if (!parent.tableData.has(t)) parent.tableData.set(t, data);
    }
  }

  /** ROLLBACK TO: undo frames above `depth`, keep the savepoint itself (re-opened empty). Returns the temp relations to restore. */
  rollbackTo(depth: number): readonly RelationInfo[] | null {
    const removed = this.frames.splice(depth);
    const target = removed[0]!;
    for (let i = removed.length - 1; i >= 0; i--) {
      for (const [t, data] of removed[i]!.tableData) t.restore(data);
    }
    this.frames.push({ name: target.name, tableData: new Map(), tempRelations: target.tempRelations });
    if (this.status === 'E') this.status = 'T';
    return target.tempRelations;
  }

  /** ROLLBACK of the whole transaction: returns the temp relations as they were at BEGIN */
  rollback(): readonly RelationInfo[] | null {
    const first = this.frames[0];
    for (let i = this.frames.length - 1; i >= 0; i--) {
      for (const [t, data] of this.frames[i]!.tableData) t.restore(data);
    }
    this.reset();
    return first?.tempRelations ?? null;
  }

  commit(): void {
    this.reset();
  }

  fail(): void {
    if (this.status === 'T') this.status = 'E';
  }

  /** the transaction's id, taken from `allocate` (the server's counter) the first time it is asked for */
  transactionId(allocate: () => bigint): bigint {
    this.xid ??= allocate();
    return this.xid;
  }

  /**
   * End of an implicit transaction (a simple Query message, or the extended protocol's Sync) outside a block:
   * the next statement gets a transaction id of its own, as in PostgreSQL.
   */
  endImplicit(): void {
    if (this.status === 'I') this.xid = null;
  }

  private reset(): void {
    this.status = 'I';
    this.frames = [];
    this.xid = null;
  }
}
