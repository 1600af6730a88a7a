/**
 * SystemTable: the TableSource behind every pg_catalog / information_schema relation. Its rows are computed at
 * scan time by a RowProducer from a fresh CatalogSnapshot (CatalogView + SessionView), so they always match
 * the session. Producers return rows keyed by PostgreSQL's column names; columns they omit are NULL.
 */
import type { Batch } from '../common/batch.ts';
import { batchFromRows } from '../common/batch.ts';
import { internalError } from '../common/errors.ts';
import type { ColumnDef, ScanContext, TableSource } from '../catalog/table-source.ts';
import { CatalogSnapshot, type SystemCatalog } from './catalog-snapshot.ts';

export type CatalogRow = Readonly<Record<string, unknown>>;
export type RowProducer = (snap: CatalogSnapshot) => Iterable<CatalogRow>;

const statementCache = new WeakMap<ScanContext, { snap: CatalogSnapshot; batches: Map<SystemTable, Batch> }>();

export class SystemTable implements TableSource {
  readonly columns: readonly ColumnDef[];
  private readonly names: readonly string[];

  constructor(
    readonly relationName: string,
    columns: readonly ColumnDef[],
    private readonly producer: RowProducer | undefined,
    private readonly system: () => SystemCatalog,
  ) {
    this.columns = columns;
    this.names = columns.map((c) => c.name);
  }

  /** the rows as objects (tests and functions that read a catalog directly) */
  rowObjects(snap: CatalogSnapshot): CatalogRow[] {
    return this.producer === undefined ? [] : [...this.producer(snap)];
  }

  async *scan(ctx: ScanContext): AsyncIterable<Batch> {
    if (ctx.signal.aborted) return;
    // one catalog snapshot per statement (ScanContext), as PostgreSQL reads catalogs: rescans (nested loops,
    // correlated subqueries) reuse the rows instead of recomputing them
    let perStatement = statementCache.get(ctx);
    if (perStatement === undefined) {
      perStatement = { snap: new CatalogSnapshot(ctx, this.system()), batches: new Map() };
      statementCache.set(ctx, perStatement);
    }
    let batch = perStatement.batches.get(this);
    if (batch === undefined) {
      batch = this.toBatch(this.rowObjects(perStatement.snap));
      perStatement.batches.set(this, batch);
    }
    yield batch;
  }

  toBatch(rows: readonly CatalogRow[]): Batch {
    const first = rows[0];
    if (first !== undefined) {
      for (const key of Object.keys(first)) {
        if (!this.names.includes(key)) throw internalError(`${this.relationName} has no column ${key}`);
      }
    }
    return batchFromRows(rows.map((o) => this.names.map((n) => o[n] ?? null)), this.names.length);
  }
}
