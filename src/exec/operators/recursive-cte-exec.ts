/**
 * RecursiveCteExec: WITH RECURSIVE's loop. Runs the anchor, then the recursive term over the previous
 * iteration's rows (the working table, read by WorkTableScanExec) until it yields nothing.
 * UNION (not ALL) discards rows already produced.
 */
import type { Batch } from '../../common/batch.ts';
import type { LogicalPlan, RecursiveCte, WorkTableScan } from '../../sql/index.ts';
import { BATCH_SIZE, checkAbort, type Env, type Row } from '../context.ts';
import { rowAt, rowKey, rowsToBatch } from '../batch-util.ts';
import type { ExecOperator } from '../operator.ts';
import { hoistInvariantJoinInputs } from '../recursive-invariants.ts';

export class RecursiveCteExec implements ExecOperator {
  readonly name = 'RecursiveCteExec';
  readonly children: readonly ExecOperator[] = [];
  constructor(private readonly plan: RecursiveCte, private readonly env: Env) {}

  async *execute(): AsyncIterable<Batch> {
    const p = this.plan;
    const width = p.columns.length;
    const oids = p.columns.map((c) => c.type.oid);
    const seen = p.all ? null : new Set<string>();
    const env: Env = { ...this.env, workTables: new Map(this.env.workTables) };
    const take = async (plan: RecursiveCte['anchor']): Promise<Row[]> => {
      const rows: Row[] = [];
      for await (const b of env.run(plan, env)) {
        checkAbort(env);
        for (let i = 0; i < b.length; i++) {
          const r = rowAt(b, i);
          if (seen) { const k = rowKey(r, oids); if (seen.has(k)) continue; seen.add(k); }
          rows.push(r);
        }
      }
      return rows;
    };
    let working = await take(p.anchor);
    let recursive: LogicalPlan | null = null;
    while (working.length > 0) {
      for (let s = 0; s < working.length; s += BATCH_SIZE) yield rowsToBatch(working.slice(s, s + BATCH_SIZE), width);
      env.workTables.set(p.id, working);
      recursive ??= await materializeInvariants(p, env);
      working = await take(recursive);
    }
  }
}

const hoistedByPlan = new WeakMap<RecursiveCte, ReturnType<typeof hoistInvariantJoinInputs>>();

/** computes once the join inputs of the recursive term that are the same in every iteration; returns the term reading them */
async function materializeInvariants(p: RecursiveCte, env: Env): Promise<LogicalPlan> {
  let h = hoistedByPlan.get(p);
  if (h === undefined) hoistedByPlan.set(p, (h = hoistInvariantJoinInputs(p.recursive)));
  for (const input of h.inputs) {
    const rows: Row[] = [];
    for await (const b of env.run(input.plan, env)) {
      checkAbort(env);
      for (let i = 0; i < b.length; i++) rows.push(rowAt(b, i));
    }
    env.workTables.set(input.id, rows);
  }
  return h.plan;
}

export class WorkTableScanExec implements ExecOperator {
  readonly name = 'WorkTableScanExec';
  readonly children: readonly ExecOperator[] = [];
  constructor(private readonly plan: WorkTableScan, private readonly env: Env) {}

  async *execute(): AsyncIterable<Batch> {
    const rows = this.env.workTables.get(this.plan.id) ?? [];
    const width = this.plan.columns.length;
    for (let s = 0; s < rows.length; s += BATCH_SIZE) yield rowsToBatch(rows.slice(s, s + BATCH_SIZE), width);
  }
}
