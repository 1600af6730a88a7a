/**
 * SharedSubplanExec: one occurrence of a subtree share_repeated_subplans found several times in the plan
 * (optimizer/share-repeated-subplans.ts). The first occurrence to be pulled runs the subtree; its batches are
 * kept, and every occurrence — before, during or after that run — reads them in order, pulling the run further
 * when it is ahead of what is kept. One run per execution (per Env's working-table map, shared by the
 * subqueries of one execution), so a subquery re-run per outer row reads the kept rows again. Pipeline breaker
 * for all but the leading reader: the rows stay until the statement ends (the rule bounds them by estimate).
 */
import type { Batch } from '../../common/batch.ts';
import { checkAbort, type Env } from '../context.ts';
import type { ExecOperator } from '../operator.ts';

/** the run of one shared subtree in one execution */
interface SharedRun {
  readonly batches: Batch[];
  source: AsyncIterator<Batch> | null;
  /** the pull in progress, if any: readers wait for it instead of pulling twice */
  pending: Promise<void> | null;
  done: boolean;
  error: { readonly cause: unknown } | null;
}

/** per execution (Env.workTables identifies it) → share key → run */
const RUNS = new WeakMap<object, Map<string, SharedRun>>();

function runOf(env: Env, key: string): SharedRun {
  let byKey = RUNS.get(env.workTables);
  if (byKey === undefined) RUNS.set(env.workTables, (byKey = new Map()));
  let run = byKey.get(key);
  if (run === undefined) byKey.set(key, (run = { batches: [], source: null, pending: null, done: false, error: null }));
  return run;
}

export class SharedSubplanExec implements ExecOperator {
  readonly name = 'SharedSubplanExec';
  private input: ExecOperator | null = null;

  /** `makeInput` builds this occurrence's operator tree, used only when this occurrence starts the run */
  constructor(private readonly key: string, private readonly makeInput: () => ExecOperator, private readonly env: Env) {}

  get children(): readonly ExecOperator[] {
    return this.input === null ? [] : [this.input];
  }

  async *execute(): AsyncIterable<Batch> {
    const run = runOf(this.env, this.key);
    for (let i = 0; ; i++) {
      while (i >= run.batches.length && !run.done && run.error === null) {
        checkAbort(this.env);
        await (run.pending ??= this.pull(run).finally(() => { run.pending = null; }));
      }
      if (run.error !== null) throw run.error.cause;
      if (i >= run.batches.length) return;
      yield run.batches[i]!;
    }
  }

  private async pull(run: SharedRun): Promise<void> {
    try {
      if (run.source === null) {
        this.input = this.makeInput();
        run.source = this.input.execute()[Symbol.asyncIterator]();
      }
      const r = await run.source.next();
      if (r.done === true) run.done = true;
      else run.batches.push(r.value);
    } catch (e) {
      run.error = { cause: e };
    }
  }
}
