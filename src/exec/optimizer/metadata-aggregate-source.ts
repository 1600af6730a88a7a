/**
 * MetadataAggregateSource: what aggregate_from_metadata puts in place of `Aggregate(count/min/max) ← [Filter ←]
 * TableScan`. Its one row comes from the scanned table's metadata (TableSource.aggregateFromMetadata) when
 * that is exact for the statement's snapshot; otherwise — deletes, missing statistics, NaN, a filter that
 * splits a file — it runs the aggregate it replaced, so the answer never depends on the rule. The decision
 * is taken per execution (the metadata is read then), which is why the rule cannot decide alone: optimizer
 * rules are synchronous and their plans are cached across executions.
 */
import { batchFromRows, type Batch } from '../../common/batch.ts';
import { emptyScanMetrics, type ColumnDef, type MetadataAggregate, type MetadataAggregateAnswer, type ScanContext, type ScanMetrics, type ScanPredicate, type TableSource } from '../../catalog/table-source.ts';
import type { LogicalPlan, ParamExpr, PushedPredicate, PushedValue, TableScan } from '../../sql/index.ts';
import { isPgArray } from '../../common/pgtypes/values.ts';
import type { ExecContext } from '../context.ts';
import { resolveFilters, resolveLimit } from './resolve-pushed.ts';

export interface MetadataAggregateSpec {
  /** the scan of the table whose metadata answers */
  readonly scan: TableScan;
  readonly aggregates: readonly MetadataAggregate[];
  /** GROUP BY columns of `scan` (the output starts with them) */
  readonly groupBy: readonly number[];
  /** the WHERE clause, exactly (not a pushdown hint), over `scan`'s columns; may hold `$n` */
  readonly filters: readonly PushedPredicate[];
  /** the Aggregate subtree this replaces, already optimized: run when the metadata cannot answer */
  readonly fallback: LogicalPlan;
  /** EXPLAIN text after the relation name */
  readonly detail: string;
}

/**
 * The optimized plan serves every execution, and a source sees no `$n` values — only its scan's pushed filters,
 * resolved. So the new scan carries one pushed filter per parameter, `$k` compared with "column" -1 - k,
 * which no source column is; resolution drops the NULL ones. EXPLAIN hides them (TableSource.explainNode).
 */
export function paramCarrier(param: ParamExpr): PushedPredicate {
  return { kind: 'compare', op: '=', column: -1 - param.index, value: param };
}

/** the parameter values the carriers brought (missing ones were NULL) */
function carriedParams(filters: readonly ScanPredicate[] | undefined): unknown[] {
  const params: unknown[] = [];
  for (const f of filters ?? []) if (f.kind === 'compare' && f.column < 0) params[-1 - f.column] = f.value;
  return Array.from(params, (v) => v ?? null);
}

/** a pushed predicate with its `$n` replaced: exactly the same rows (null: not expressible) */
function exactScanPredicate(p: PushedPredicate, params: readonly unknown[]): ScanPredicate | null {
  const valueOf = (v: PushedValue): unknown => (v.kind === 'Literal' ? v.value : params[v.index]) ?? null;
  // `col op NULL` holds for no row, and NULL in an IN list never matches: under AND / OR (no NOT) that is false
  const never = (column: number): ScanPredicate => ({ kind: 'in', column, values: [] });
  switch (p.kind) {
    case 'isNull': case 'isNotNull': return p;
    case 'startsWith': return null;
    case 'compareColumns': return null; // judged per row only (iceberg/scan/bound-predicate.ts)
    case 'compare': {
      const value = valueOf(p.value);
      return value === null ? never(p.column) : { kind: 'compare', op: p.op, column: p.column, value };
    }
    case 'in': {
      if (Array.isArray(p.values)) return { kind: 'in', column: p.column, values: (p.values as readonly PushedValue[]).map(valueOf).filter((v) => v !== null) };
      const arr = valueOf(p.values as PushedValue);
      if (arr === null) return never(p.column);
      return isPgArray(arr) && arr.dims.length <= 1 ? { kind: 'in', column: p.column, values: arr.values.filter((v) => v !== null) } : null;
    }
    case 'and': case 'or': {
      const args = p.args.map((a) => exactScanPredicate(a, params));
      return args.some((a) => a === null) ? null : { kind: p.kind, args: args as ScanPredicate[] };
    }
  }
}

/** adds the counters of `m` to `into` */
function addMetrics(into: ScanMetrics, m: ScanMetrics): void {
  for (const k of Object.keys(m) as (keyof ScanMetrics)[]) {
    if (k === 'fromMetadata') into.fromMetadata = into.fromMetadata === true || m.fromMetadata === true;
    else (into[k] as number) += m[k] as number;
  }
}

export class MetadataAggregateSource implements TableSource {
  readonly columns: readonly ColumnDef[];
  readonly explainNode: { readonly type: string; readonly detail: string };

  constructor(readonly spec: MetadataAggregateSpec, columns: readonly { readonly name: string; readonly type: ColumnDef['type'] }[]) {
    this.columns = columns.map((c) => ({ name: c.name, type: c.type, nullable: true }));
    this.explainNode = { type: 'MetadataAggregate', detail: spec.detail };
  }

  private answer(signal: AbortSignal, params: readonly unknown[]): Promise<MetadataAggregateAnswer | null> {
    const source = this.spec.scan.source;
    const filters = this.spec.filters.map((f) => exactScanPredicate(f, params));
    if (source.aggregateFromMetadata === undefined || filters.some((f) => f === null)) return Promise.resolve(null);
    return source.aggregateFromMetadata(this.spec.aggregates, {
      signal,
      ...(filters.length === 0 ? {} : { filters: filters as ScanPredicate[] }),
      ...(this.spec.groupBy.length === 0 ? {} : { groupBy: this.spec.groupBy }),
    });
  }

  async *scan(ctx: ScanContext): AsyncIterable<Batch> {
    const params = carriedParams(ctx.filters);
    const answer = await this.answer(ctx.signal, params);
    if (answer !== null) {
      if (ctx.metrics) addMetrics(ctx.metrics, answer.metrics);
      if (answer.rows.length > 0) yield batchFromRows(answer.rows, this.columns.length);
      return;
    }
    // imported here: the planner imports the optimizer, which imports this file
    const [{ executeOptimized }, { Instrumentation }] = await Promise.all([import('../planner.ts'), import('../instrumentation.ts')]);
    const instrument = ctx.metrics === undefined ? undefined : new Instrumentation();
    // the replaced subtree reads no subquery and no time-dependent call (the rule checks); its `$n` were carried
    const now = BigInt(Date.now()) * 1000n;
    const exec: ExecContext = {
      session: ctx.session, catalog: ctx.catalog, transactionTimestamp: now, statementTimestamp: now, signal: ctx.signal, params,
      scan: { signal: ctx.signal, session: ctx.session, catalog: ctx.catalog },
    };
    try {
      yield* executeOptimized(this.spec.fallback, exec, instrument);
    } finally {
      const m = instrument?.scanMetrics(this.spec.scan);
      if (m !== undefined && ctx.metrics) addMetrics(ctx.metrics, m);
    }
  }

  /** EXPLAIN: the metadata answer's counters, or what the fallback scan would read */
  async explainScan(ctx: ScanContext): Promise<ScanMetrics> {
    const params = carriedParams(ctx.filters);
    const answer = await this.answer(ctx.signal, params);
    if (answer !== null) return { ...answer.metrics };
    const s = this.spec.scan;
    if (s.source.explainScan === undefined) return emptyScanMetrics();
    const filters = resolveFilters(s, params);
    const limit = resolveLimit(s, params);
    return s.source.explainScan({
      signal: ctx.signal, session: ctx.session, catalog: ctx.catalog,
      ...(s.projection === undefined ? {} : { projection: s.projection }),
      ...(filters === undefined ? {} : { filters }),
      ...(limit === undefined ? {} : { limit }),
    });
  }
}
