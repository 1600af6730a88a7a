/**
 * Worker side of a row-partitioned aggregate: the merge task of partition p receives that partition's rows
 * from every scan task (repartition-rows.ts) and aggregates them with the executor's own HashAggregateExec —
 * typed group table, vector kernels, the same answers as on the main thread — over the fragment's group keys
 * and aggregates decoded here. No other partition holds these keys, so its output rows are final.
 */
import type { Batch } from '../../common/batch.ts';
import type { Aggregate, AggregateExpr, LogicalPlan } from '../../sql/index.ts';
import type { Env } from '../context.ts';
import type { ExecOperator } from '../operator.ts';
import { HashAggregateExec } from '../operators/hash-aggregate-exec.ts';
import { aggregateOfKey, decodeExpr } from '../partial/expr-wire.ts';
import { workerExecContext, type WireEvalContext } from '../partial/worker-eval-context.ts';
import type { WireFragment } from '../partial/worker-fragment.ts';
import type { MergedPartition } from './merge-partition.ts';
import type { RowSet } from './repartition-rows.ts';
import { packColumn, unpackColumn, type WireColumn } from './wire-column.ts';
import { mergeTaskPool, type MergeTaskMemory } from './merge-task-memory.ts';

/** what the main thread sends the merge task of one partition */
export interface AggregateRowsRequest {
  readonly rows: true;
  readonly fragment: WireFragment;
  readonly eval: WireEvalContext;
  /** the partition's row sets, in task order */
  readonly sets: readonly RowSet[];
  /** this merge's share of the query's memory budget (merge-task-memory.ts) */
  readonly memory?: MergeTaskMemory;
}

const noRun = (): never => { throw new Error('subqueries do not run in scan workers'); };

/** the Aggregate node HashAggregateExec reads: the fragment's keys and aggregates over its input's columns */
function aggregatePlan(f: WireFragment): Aggregate {
  const groupKeys = f.groupKeys.map(decodeExpr);
  const aggregates = f.aggregates.map((a): AggregateExpr => {
    const def = aggregateOfKey(a.def);
    return {
      kind: 'Aggregate', name: def.name, def, args: a.args.map(decodeExpr), argTypes: a.argTypes, distinct: false,
      star: a.args.length === 0, filter: a.filter === null ? null : decodeExpr(a.filter), orderBy: [], type: a.type,
    };
  });
  const columns = [...groupKeys.map((k, i) => ({ name: `k${i}`, type: k.type })), ...aggregates.map((a) => ({ name: a.name, type: a.type }))];
  const input = { kind: 'Values' } as unknown as LogicalPlan; // never read: the operator gets its input directly
  return { kind: 'Aggregate', input, groupKeys, groupingSets: null, aggregates, columns };
}

/** Aggregates one partition's rows; null once `canceled()`. Buffers to move go to `transfer`. */
export async function aggregatePartition(req: AggregateRowsRequest, canceled: () => boolean, transfer: ArrayBufferLike[]): Promise<MergedPartition | null> {
  const stop = new AbortController();
  const memory = mergeTaskPool(req.memory);
  // the aggregate's groups count against this merge's share of the query's budget (53200 past it)
  const ctx = { ...workerExecContext(req.eval, stop.signal), ...(memory === undefined ? {} : { memory }) };
  const env: Env = { ctx, outer: [], workTables: new Map(), run: noRun };
  const sets = req.sets;
  const input: ExecOperator = {
    name: 'ExchangeSource',
    children: [],
    async *execute(): AsyncIterable<Batch> {
      for (const s of sets) {
        if (canceled()) { stop.abort(); return; }
        if (s.length > 0) yield { length: s.length, columns: s.columns.map(unpackColumn) };
      }
    },
  };
  const plan = aggregatePlan(req.fragment);
  const out: Batch[] = [];
  for await (const b of new HashAggregateExec(plan, input, env).execute()) out.push(b);
  if (canceled()) return null;
  const width = plan.columns.length;
  const count = out.reduce((n, b) => n + b.length, 0);
  const columns: WireColumn[] = [];
  for (let c = 0; c < width; c++) {
    const col = out.length === 1 ? out[0]!.columns[c]! : out.flatMap((b) => b.columns[c] as unknown[]);
    columns.push(packColumn(col, transfer));
  }
  return { count, columns };
}
