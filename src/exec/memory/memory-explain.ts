/**
 * EXPLAIN ANALYZE lines about memory, per plan node, as PostgreSQL prints them: `Sort Method: quicksort
 * Memory: 25kB`, `Sort Method: external merge  Disk: 1424kB`, `Memory Usage: 40kB`. Operators note them while
 * they run under an Instrumentation; explain-stmt.ts prints them under the node.
 */
import type { LogicalPlan } from '../../sql/index.ts';
import type { Env } from '../context.ts';
import type { Instrumentation } from '../instrumentation.ts';

const DETAILS = new WeakMap<Instrumentation, Map<LogicalPlan, string>>();

/** kB as EXPLAIN prints them (rounded up, as PostgreSQL's (bytes + 1023) / 1024) */
export function explainKb(bytes: number): string {
  return `${Math.ceil(bytes / 1024)}kB`;
}

/** records the node's memory line (a node run several times keeps the line of the run that spilled, else the last) */
export function noteMemoryDetail(env: Env, plan: LogicalPlan, line: string): void {
  const instrument = env.instrument;
  if (instrument === undefined) return;
  let byPlan = DETAILS.get(instrument);
  if (byPlan === undefined) DETAILS.set(instrument, (byPlan = new Map()));
  const before = byPlan.get(plan);
  if (before !== undefined && before.includes('Disk:') && !line.includes('Disk:')) return;
  byPlan.set(plan, line);
}

/** lines other than memory a node notes (exchange/: where a final aggregate ran), printed before the memory line */
const OTHER = new WeakMap<Instrumentation, Map<LogicalPlan, string>>();

export function noteExplainDetail(env: Env, plan: LogicalPlan, line: string): void {
  const instrument = env.instrument;
  if (instrument === undefined) return;
  let byPlan = OTHER.get(instrument);
  if (byPlan === undefined) OTHER.set(instrument, (byPlan = new Map()));
  byPlan.set(plan, line);
}

export function memoryDetailLines(instrument: Instrumentation | undefined, plan: LogicalPlan): string[] {
  const other = instrument === undefined ? undefined : OTHER.get(instrument)?.get(plan);
  const line = instrument === undefined ? undefined : DETAILS.get(instrument)?.get(plan);
  return [...(other === undefined ? [] : [other]), ...(line === undefined ? [] : [line])];
}
