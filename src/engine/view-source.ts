/**
 * ViewSource: the TableSource of a view. Its query is bound again at each scan (against the scanning
 * session's catalog, with the search_path in force when the view was created) and executed as a subplan.
 */
import type { Batch } from '../common/batch.ts';
import type { ColumnDef, ScanContext, TableSource } from '../catalog/table-source.ts';
import type { FunctionRegistry } from '../functions/index.ts';
import { bindQuery } from '../sql/index.ts';
import { executePlan } from '../exec/index.ts';

export class ViewSource implements TableSource {
  constructor(
    readonly columns: readonly ColumnDef[],
    private readonly query: unknown,
    private readonly searchPath: readonly string[],
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
      scan: ctx,
    });
  }
}
