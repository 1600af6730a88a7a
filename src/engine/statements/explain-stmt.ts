/**
 * EXPLAIN [ANALYZE] [VERBOSE] [(FORMAT TEXT|JSON)] query: the optimized logical plan, one line per node
 * ("QUERY PLAN"). TableScan lines show what the optimizer pushed into the scan, and — for sources that can
 * plan from metadata (Iceberg: TableSource.explainScan) — how many files and row groups the scan would read.
 * ANALYZE runs the query with every operator instrumented: `(actual rows=N batches=B loops=L time=X ms)` per
 * node (time includes the children, as PostgreSQL's actual time), the scans' files / row groups / bytes, then
 * Planning Time and Execution Time. VERBOSE adds the optimizer rules and their times. FORMAT JSON gives the
 * same as one json value shaped like PostgreSQL's.
 */
import { batchOf } from '../../common/batch.ts';
import { notSupported } from '../../common/errors.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import type { ScanMetrics } from '../../catalog/table-source.ts';
import { explainJsonPlan, explainPlan, planChildren, subqueriesOf, type JsonObject, type LogicalPlan } from '../../sql/index.ts';
import { executeOptimized, Instrumentation, optimizePlan, resolveFilters, resolveLimit, type ExecContext, type OptimizedPlan } from '../../exec/index.ts';
import type { UtilityHandler } from './route-utility.ts';
import { textColumn } from '../engine-session.ts';
import { constText, nodeBody } from '../ast.ts';
import { memoryDetailLines } from '../../exec/memory/memory-explain.ts';

interface ExplainOptions { analyze: boolean; verbose: boolean; format: string }

function parseOptions(body: Record<string, unknown>): ExplainOptions {
  const o: ExplainOptions = { analyze: false, verbose: false, format: 'text' };
  for (const opt of Array.isArray(body.options) ? body.options : []) {
    const def = nodeBody(opt);
    const name = String(def.defname ?? '');
    const value = def.arg === undefined ? 'true' : (constText(def.arg) ?? 'true').toLowerCase();
    const on = value !== 'false' && value !== 'off' && value !== '0';
    if (name === 'analyze') o.analyze = on;
    else if (name === 'verbose') o.verbose = on;
    else if (name === 'format') o.format = value;
  }
  if (o.format !== 'text' && o.format !== 'json') throw notSupported(`EXPLAIN (FORMAT ${o.format.toUpperCase()})`);
  return o;
}

const ms = (x: number): string => x.toFixed(3);

/** `files=3/48 row_groups=3/48 pruned(partition=40 stats=5)` for a scan planned from metadata */
function plannedText(m: ScanMetrics): string {
  const pruned = m.filesPrunedByPartition + m.filesPrunedByStats > 0 ? ` pruned(partition=${m.filesPrunedByPartition} stats=${m.filesPrunedByStats})` : '';
  return ` files=${m.filesScanned}/${m.filesTotal} row_groups=${m.rowGroupsScanned}/${m.rowGroupsTotal}${pruned}${m.fromMetadata === true ? ' from_metadata' : ''}`;
}

function scannedText(m: ScanMetrics): string {
  return `files scanned ${m.filesScanned} / ${m.filesTotal}, row groups scanned ${m.rowGroupsScanned} / ${m.rowGroupsTotal}, bytes read ${m.bytesRead}`
    + (m.filesPrunedByPartition + m.filesPrunedByStats > 0 ? `, files pruned by partition ${m.filesPrunedByPartition}, by stats ${m.filesPrunedByStats}` : '')
    + (m.fromMetadata === true ? ', answered from metadata' : '')
    + (m.lateRowGroups !== undefined && m.lateRowGroups > 0
      ? `, late materialization: row groups with matches ${m.lateRowGroupsMatched ?? 0} / ${m.lateRowGroups}, rows materialized ${m.lateRowsMaterialized ?? 0} / ${m.lateRowsTotal ?? 0}`
      : '')
    + pageIndexText(m)
    + cacheText(m);
}

/** whether the Parquet page index ruled out any page (iceberg/read/page-index-pruner.ts): only then shown */
const pageIndexPruned = (m: ScanMetrics): boolean => (m.pagesTotal ?? 0) > (m.pagesScanned ?? 0);

/** `, page index: row groups pruned 1 / 4, pages scanned 3 / 16` */
function pageIndexText(m: ScanMetrics): string {
  if (!pageIndexPruned(m)) return '';
  return `, page index: row groups pruned ${m.pageIndexRowGroupsPruned ?? 0} / ${m.pageIndexRowGroups ?? 0}, pages scanned ${m.pagesScanned ?? 0} / ${m.pagesTotal ?? 0}`;
}

/** `, cache hits: column chunks 9 / 9, manifests 2 / 2` (iceberg/read/file-cache.ts, scan/manifest-cache.ts) */
function cacheText(m: ScanMetrics): string {
  const parts: string[] = [];
  if ((m.fileCacheLookups ?? 0) > 0) parts.push(`column chunks ${m.fileCacheHits ?? 0} / ${m.fileCacheLookups}`);
  if ((m.manifestCacheLookups ?? 0) > 0) parts.push(`manifests ${m.manifestCacheHits ?? 0} / ${m.manifestCacheLookups}`);
  return parts.length === 0 ? '' : `, cache hits: ${parts.join(', ')}`;
}

function scanJson(m: ScanMetrics): JsonObject {
  return {
    'Files Total': m.filesTotal, 'Files Scanned': m.filesScanned, 'Files Pruned By Partition': m.filesPrunedByPartition,
    'Files Pruned By Stats': m.filesPrunedByStats, 'Row Groups Total': m.rowGroupsTotal, 'Row Groups Scanned': m.rowGroupsScanned,
    'Manifests Total': m.manifestsTotal, 'Manifests Scanned': m.manifestsScanned, 'Bytes Read': m.bytesRead, 'Rows Decoded': m.rowsDecoded,
    ...(m.fromMetadata === true ? { 'From Metadata': true } : {}),
    ...(m.lateRowGroups !== undefined && m.lateRowGroups > 0 ? {
      'Late Row Groups': m.lateRowGroups, 'Late Row Groups Matched': m.lateRowGroupsMatched ?? 0,
      'Late Rows Total': m.lateRowsTotal ?? 0, 'Late Rows Materialized': m.lateRowsMaterialized ?? 0,
    } : {}),
    ...(pageIndexPruned(m) ? {
      'Page Index Row Groups': m.pageIndexRowGroups ?? 0, 'Page Index Row Groups Pruned': m.pageIndexRowGroupsPruned ?? 0,
      'Pages Total': m.pagesTotal ?? 0, 'Pages Scanned': m.pagesScanned ?? 0,
    } : {}),
    ...((m.fileCacheLookups ?? 0) > 0 ? { 'Column Cache Lookups': m.fileCacheLookups ?? 0, 'Column Cache Hits': m.fileCacheHits ?? 0 } : {}),
    ...((m.manifestCacheLookups ?? 0) > 0 ? { 'Manifest Cache Lookups': m.manifestCacheLookups ?? 0, 'Manifest Cache Hits': m.manifestCacheHits ?? 0 } : {}),
  };
}

function scans(plan: LogicalPlan): Extract<LogicalPlan, { kind: 'TableScan' }>[] {
  return plan.kind === 'TableScan' ? [plan] : [...planChildren(plan), ...subqueriesOf(plan).map((s) => s.plan)].flatMap(scans);
}

/** metadata-only planning of every scan that supports it (EXPLAIN without ANALYZE) */
async function plannedScans(plan: LogicalPlan, ctx: ExecContext): Promise<Map<LogicalPlan, ScanMetrics>> {
  const out = new Map<LogicalPlan, ScanMetrics>();
  for (const s of scans(plan)) {
    if (s.source.explainScan === undefined) continue;
    const filters = resolveFilters(s, ctx.params);
    const limit = resolveLimit(s, ctx.params);
    try {
      out.set(s, await s.source.explainScan({
        ...ctx.scan,
        ...(s.projection === undefined ? {} : { projection: s.projection }),
        ...(filters === undefined ? {} : { filters }),
        ...(limit === undefined ? {} : { limit }),
      }));
    } catch {
      // EXPLAIN still shows the plan when the metadata cannot be read
    }
  }
  return out;
}

function ruleLines(opt: OptimizedPlan): string[] {
  return ['Optimizer Rules:', ...opt.rules.map((r) => `  ${r.name}: ${r.applied ? `${ms(r.ms)} ms` : 'disabled'}`)];
}

/**
 * Rows a node hands up, as PostgreSQL counts them: INSERT / UPDATE / DELETE without RETURNING return none (our
 * DML operators pass the command's row count up as one row, which is not a result row).
 */
function actualRows(p: LogicalPlan, rows: number): number {
  return (p.kind === 'Insert' || p.kind === 'Overwrite' || p.kind === 'ModifyRows') && p.returning === null ? 0 : rows;
}

export const runExplain: UtilityHandler = async (session, stmt, params) => {
  const body = nodeBody(stmt.ast);
  const o = parseOptions(body);
  const planStart = performance.now();
  const bound = session.bind(body.query, params.map(() => 0));
  const ctx = session.execContext(params);
  const opt = optimizePlan(bound.plan, ctx);
  const planningMs = performance.now() - planStart;
  const plan = opt.plan;

  let instrument: Instrumentation | undefined;
  let executionMs = 0;
  if (o.analyze) {
    instrument = new Instrumentation();
    const start = performance.now();
    for await (const _batch of executeOptimized(plan, ctx, instrument)) { /* drain */ }
    executionMs = performance.now() - start;
  }
  const planned = o.analyze ? new Map<LogicalPlan, ScanMetrics>() : await plannedScans(plan, ctx);

  let out: string[];
  if (o.format === 'json') {
    const extra = (p: LogicalPlan): JsonObject => {
      const s = instrument?.of(p);
      const scan = instrument?.scanMetrics(p) ?? planned.get(p);
      return {
        ...(s === undefined ? {} : { 'Actual Rows': actualRows(p, s.rows), 'Actual Batches': s.batches, 'Actual Loops': s.loops, 'Actual Total Time': Number(ms(s.ms)) }),
        ...(scan === undefined ? {} : scanJson(scan)),
      };
    };
    const doc: JsonObject = {
      Plan: explainJsonPlan(plan, extra),
      ...(o.verbose ? { 'Optimizer Rules': opt.rules.map((r) => ({ Rule: r.name, Applied: r.applied, Time: Number(ms(r.ms)) })) } : {}),
      ...(o.analyze ? { 'Planning Time': Number(ms(planningMs)), Triggers: [], 'Execution Time': Number(ms(executionMs)) } : {}),
    };
    out = [JSON.stringify([doc], null, 2)];
  } else {
    out = explainPlan(plan, (p) => {
      if (instrument === undefined) {
        const m = planned.get(p);
        return m === undefined ? undefined : { suffix: plannedText(m) };
      }
      const s = instrument.of(p);
      const scan = instrument.scanMetrics(p);
      return {
        suffix: s === undefined ? ' (never executed)' : `  (actual rows=${actualRows(p, s.rows)} batches=${s.batches}${s.loops === 1 ? '' : ` loops=${s.loops}`} time=${ms(s.ms)} ms)`,
        lines: [...(scan === undefined || scan.filesTotal === 0 ? [] : [scannedText(scan)]), ...memoryDetailLines(instrument, p)],
      };
    });
    if (o.verbose) out.push(...ruleLines(opt));
    if (o.analyze) out.push(`Planning Time: ${ms(planningMs)} ms`, `Execution Time: ${ms(executionMs)} ms`);
  }
  async function* one() {
    yield batchOf([out], out.length);
  }
  const column = o.format === 'json' ? { ...textColumn('QUERY PLAN'), typeOid: Oid.json } : textColumn('QUERY PLAN');
  return { kind: 'rows', columns: [column], batches: one(), tag: () => 'EXPLAIN' };
};
