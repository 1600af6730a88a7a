/**
 * EXPLAIN ANALYZE instrumentation: every operator the planner creates is wrapped so that its rows, batches,
 * loops and elapsed time are counted per plan node. Time is spent inside the operator's next() calls, so it
 * includes the time of its children (PostgreSQL's "actual time"). Scans also hand in their ScanMetrics.
 */
import type { Batch } from '../common/batch.ts';
import { emptyScanMetrics, type ScanMetrics } from '../catalog/table-source.ts';
import type { Filter, LogicalPlan } from '../sql/index.ts';
import type { ExecOperator } from './operator.ts';

export interface NodeStats {
  rows: number;
  batches: number;
  loops: number;
  ms: number;
  readonly scans: ScanMetrics[];
}

export class Instrumentation {
  private readonly stats = new Map<LogicalPlan, NodeStats>();

  of(plan: LogicalPlan): NodeStats | undefined {
    return this.stats.get(plan);
  }

  private entry(plan: LogicalPlan): NodeStats {
    let s = this.stats.get(plan);
    if (s === undefined) this.stats.set(plan, (s = { rows: 0, batches: 0, loops: 0, ms: 0, scans: [] }));
    return s;
  }

  wrap(plan: LogicalPlan, op: ExecOperator): ExecOperator {
    return new InstrumentedExec(op, this.entry(plan));
  }

  addScanMetrics(plan: LogicalPlan, m: ScanMetrics): void {
    this.entry(plan).scans.push(m);
  }

  /** the sum of a node's scan metrics over its loops, or undefined for non-scans */
  scanMetrics(plan: LogicalPlan): ScanMetrics | undefined {
    const all = this.stats.get(plan)?.scans ?? [];
    if (all.length === 0) return undefined;
    const sum = emptyScanMetrics();
    for (const m of all) {
      for (const k of Object.keys(sum) as (keyof ScanMetrics)[]) {
        if (k !== 'fromMetadata') (sum[k] as number) += (m[k] as number | undefined) ?? 0; // late* are optional
      }
      if (m.fromMetadata === true) sum.fromMetadata = true;
    }
    return sum;
  }
}

class InstrumentedExec implements ExecOperator {
  constructor(private readonly inner: ExecOperator, private readonly s: NodeStats) {}
  get name(): string { return this.inner.name; }
  get children(): readonly ExecOperator[] { return this.inner.children; }
  /** EXPLAIN ANALYZE runs what the query runs: a Filter's offer reaches the wrapped operator */
  offerFilter(filter: Filter): void { this.inner.offerFilter?.(filter); }

  async *execute(): AsyncIterable<Batch> {
    const s = this.s;
    s.loops++;
    const it = this.inner.execute()[Symbol.asyncIterator]();
    let done = false;
    try {
      for (;;) {
        const t = performance.now();
        const r = await it.next();
        s.ms += performance.now() - t;
        if (r.done === true) { done = true; break; }
        s.rows += r.value.length;
        s.batches++;
        yield r.value;
      }
    } finally {
      if (!done) await it.return?.();
    }
  }
}
