/**
 * RewriteRowDelta: the RowDelta of a writable source without row-level writes (memory and temp tables, which
 * can only truncate and insert). scan() reads every row — pushed filters and projections dropped, since all
 * rows are written back — naming each by its ordinal (`$file` '', `$pos` 0, 1, …); commit() truncates the
 * table and inserts the rows not deleted, in their order, then the new ones. ModifyRowsExec uses it so that
 * UPDATE … FROM, DELETE … USING and MERGE work the same on these tables as on Iceberg tables.
 */
import type { Batch } from '../../common/batch.ts';
import type { RowDelta, ScanContext, WritableTableSource } from '../../catalog/table-source.ts';
import { BATCH_SIZE } from '../context.ts';
import { rowsToBatch } from '../batch-util.ts';

export class RewriteRowDelta implements RowDelta {
  private readonly rows: (readonly unknown[])[] = [];
  private readonly deleted = new Set<number>();
  private readonly added: Batch[] = [];
  private scanned = false;

  constructor(private readonly table: WritableTableSource & { truncate(): Promise<void> }, private readonly ctx: ScanContext) {}

  async *scan(ctx: Pick<ScanContext, 'signal'>): AsyncIterable<Batch> {
    // read once: a second scan (a nested loop's inner side) numbers the same rows again
    const first = !this.scanned;
    this.scanned = true;
    const n = this.table.columns.length;
    let pos = 0;
    const { signal, session, catalog } = this.ctx;
    for await (const b of this.table.scan({ signal: ctx.signal ?? signal, session, catalog })) {
      const ids: bigint[] = new Array<bigint>(b.length);
      for (let i = 0; i < b.length; i++) {
        ids[i] = BigInt(pos + i);
        if (first) this.rows.push(b.columns.slice(0, n).map((c) => c[i] ?? null));
      }
      pos += b.length;
      yield { columns: [...b.columns.slice(0, n), new Array<unknown>(b.length).fill(''), ids], length: b.length };
    }
  }

  delete(_file: string, pos: bigint): void {
    this.deleted.add(Number(pos));
  }

  async insert(batch: Batch): Promise<void> {
    this.added.push(batch);
  }

  async commit(): Promise<void> {
    if (this.deleted.size === 0 && this.added.length === 0) return;
    const kept = this.rows.filter((_r, i) => !this.deleted.has(i));
    const n = this.table.columns.length;
    const added = this.added;
    async function* batches(): AsyncIterable<Batch> {
      for (let s = 0; s < kept.length; s += BATCH_SIZE) yield rowsToBatch(kept.slice(s, s + BATCH_SIZE), n);
      yield* added;
    }
    if (this.table.replaceAll !== undefined) {
      await this.table.replaceAll(batches(), this.ctx);
      return;
    }
    await this.table.truncate();
    await this.table.insert(batches(), this.ctx);
  }
}
