/**
 * ViewSource: the TableSource of a view. Its query is bound again at each scan (against the scanning
 * session's catalog, with the search_path in force when the view was created) and executed as a subplan.
 */
import type { Batch } from '../common/batch.ts';
import type { ColumnDef, ScanContext, TableSource } from '../catalog/table-source.ts';
import type { FunctionRegistry } from '../functions/index.ts';
import { bindQuery, parseSql } from '../sql/index.ts';
import { executePlan } from '../exec/index.ts';
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { LoadedView } from '../iceberg/index.ts';

export class ViewSource implements TableSource {
  constructor(
    readonly columns: readonly ColumnDef[],
    /** the parsed SELECT (bound again at each scan, and by statements/view-dependencies.ts) */
    readonly query: unknown,
    /** the search_path in force at CREATE VIEW */
    readonly searchPath: readonly string[],
    private readonly functions: FunctionRegistry,
  ) {}

  async *scan(ctx: ScanContext): AsyncIterable<Batch> {
    const bound = bindQuery(this.query, {
      catalog: ctx.catalog,
      searchPath: this.searchPath,
      functions: this.functions,
      paramTypes: [],
    });
    const now = BigInt(Date.now()) * 1000n;
    yield* executePlan(bound.plan, {
      session: ctx.session,
      catalog: ctx.catalog,
      transactionTimestamp: now,
      statementTimestamp: now,
      signal: ctx.signal,
      params: [],
      // only what is not about this view's columns: a projection, filters or limit pushed into the view's
      // scan index the view's columns and would be misapplied to the tables inside it
      scan: { signal: ctx.signal, session: ctx.session, catalog: ctx.catalog, ...(ctx.metrics === undefined ? {} : { metrics: ctx.metrics }) },
    });
  }
}

/**
 * An Iceberg view stored by another engine only (no `postgresql` SQL): listed with its columns, but reading
 * it is 0A000 — its SQL has that engine's semantics, so lakegate does not guess.
 */
export class ForeignViewSource implements TableSource {
  constructor(
    readonly columns: readonly ColumnDef[],
    private readonly name: string,
    private readonly dialects: readonly string[],
  ) {}

  // eslint-disable-next-line require-yield
  async *scan(): AsyncIterable<Batch> {
    throw pgError(SqlState.feature_not_supported, `view "${this.name}" has no PostgreSQL definition`, {
      detail: `The Iceberg view stores SQL for ${this.dialects.length === 0 ? 'no dialect' : `dialect ${this.dialects.join(', ')}`} only.`,
      hint: 'Recreate the view with CREATE OR REPLACE VIEW through lakegate, which stores dialect "postgresql".',
    });
  }
}

/** the engine's ViewSourceFactory for Iceberg views: the stored SQL parsed once, bound at each scan */
export function icebergViewSource(functions: FunctionRegistry): (view: LoadedView, schema: string, name: string) => TableSource {
  return (view, _schema, name) => {
    if (view.sql === undefined) return new ForeignViewSource(view.columns, name, view.dialects);
    const statements = parseSql(view.sql);
    const query = statements.length === 1 ? statements[0]!.ast : undefined;
    if (query === undefined || query === null || typeof query !== 'object' || !('SelectStmt' in query)) {
      throw pgError(SqlState.data_corrupted, `Iceberg view "${name}" does not hold one SELECT statement`);
    }
    return new ViewSource(view.columns, query, view.searchPath, functions);
  };
}
