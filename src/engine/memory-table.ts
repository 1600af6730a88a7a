/**
 * MemoryTable: a table held in process memory — session temp tables, and user tables until Iceberg
 * storage arrives. Its contents are an immutable list of batches, so a transaction can take a snapshot
 * cheaply and ROLLBACK restores it (copy-on-write at batch granularity).
 */
import type { Batch } from '../common/batch.ts';
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { ColumnDef, ScanContext, WritableTableSource } from '../catalog/table-source.ts';

export class MemoryTable implements WritableTableSource {
  private data: readonly Batch[] = [];
  private rows = 0;

  constructor(
    public columns: readonly ColumnDef[],
    public name: string,
  ) {}

  get estimatedRows(): number {
    return this.rows;
  }

  async *scan(ctx: ScanContext): AsyncIterable<Batch> {
    // the array reference is captured, so a concurrent insert never shows up half-way through a scan
    const snapshot = this.data;
    for (const batch of snapshot) {
      if (ctx.signal.aborted) return;
      yield batch;
    }
  }

  async insert(batches: AsyncIterable<Batch>): Promise<number> {
    let added = 0;
    const next = [...this.data];
    for await (const batch of batches) {
      if (batch.length === 0) continue;
      this.checkNotNull(batch);
      next.push(batch);
      added += batch.length;
    }
    this.data = next;
    this.rows += added;
    return added;
  }

  private checkNotNull(batch: Batch): void {
    this.columns.forEach((col, c) => {
      if (col.nullable) return;
      const values = batch.columns[c];
      if (values === undefined) return;
      for (let r = 0; r < batch.length; r++) {
        if (values[r] === null || values[r] === undefined) {
          throw pgError(SqlState.not_null_violation, `null value in column "${col.name}" of relation "${this.name}" violates not-null constraint`, {
            table: this.name,
            column: col.name,
          });
        }
      }
    });
  }

  async truncate(): Promise<void> {
    this.data = [];
    this.rows = 0;
  }

  /** replaces the whole contents (UPDATE/DELETE rewrite the table) */
  replace(batches: readonly Batch[]): void {
    this.data = batches;
    this.rows = batches.reduce((n, b) => n + b.length, 0);
  }

  snapshot(): readonly Batch[] {
    return this.data;
  }

  restore(snapshot: readonly Batch[]): void {
    this.replace(snapshot);
  }
}
