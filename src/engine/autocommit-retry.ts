/**
 * Re-running an autocommit row change that lost a race (READ COMMITTED's answer to a concurrent update).
 * PostgreSQL's UPDATE / DELETE / MERGE / INSERT … ON CONFLICT outside a transaction block, on finding its
 * row updated by a transaction that committed meanwhile, waits and re-evaluates the row's new version
 * (EvalPlanQual): the statement succeeds, and `UPDATE t SET v = v + 1` from many sessions loses no update.
 * An Iceberg row delta finds the same race only at commit (iceberg/commit/row-delta-commit.ts: a concurrent
 * commit deleted or rewrote a row it changes → 40001). Outside a block nothing else of the transaction was
 * done and no row reached the client (the DML operators yield their count or RETURNING rows only after the
 * commit), so the whole statement is run again — bound anew on the table's new snapshot — which is what
 * EvalPlanQual amounts to for a statement of its own. Bounded (`maxReruns`, env
 * LAKEGATE_AUTOCOMMIT_RERUNS, default 5) with jittered backoff after the first re-run; past the bound the
 * 40001 stands. A 23505 found at commit on a table that moved since the statement read it (iceberg/commit:
 * keyRaced — a concurrent INSERT of the key an ON CONFLICT meant to insert) is re-run the same way: the re-run
 * sees the row and takes the conflict branch, as PostgreSQL's ON CONFLICT does (MERGE keeps its 23505, as
 * PostgreSQL's). Only conflicts thrown before the catalog swap re-run (commit-turns.ts isUncommitted); the failed
 * attempt's files are removed first (iceberg/commit/row-delta.ts discard). A cancel or statement_timeout while
 * queued for the table's turn ends the statement with 57014 at once, nothing committed.
 * Inside a transaction block (BEGIN, an implicit multi-statement Query, a pipeline after its first write)
 * earlier statements saw the old rows, so the conflict stays 40001 (PostgreSQL's REPEATABLE READ answer).
 */
import type { Batch } from '../common/batch.ts';
import type { BoundQuery } from '../sql/index.ts';
import { executePlan, type ExecContext } from '../exec/index.ts';
import { GatewayError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { asTurnHolder, conflictTableOf, isUncommitted, takeTurn } from '../iceberg/commit/commit-turns.ts';
import { keyRaced } from '../iceberg/commit/snapshot-commit.ts';
import { nodeKind } from './ast.ts';

/** the bound, and counters tests read to prove a race really happened */
export const autocommitReruns = {
  maxReruns: readBound(process.env['LAKEGATE_AUTOCOMMIT_RERUNS']),
  /** statements run again after a lost race */
  reruns: 0,
  /** statements that lost every attempt (their 40001 reached the client) */
  exhausted: 0,
};

function readBound(text: string | undefined): number {
  const n = text === undefined ? NaN : Number(text);
  return Number.isInteger(n) && n >= 0 ? n : 5;
}

/** what the re-run needs of the session (EngineSession satisfies it) */
export interface RerunSession {
  readonly tx: { readonly inBlock: boolean };
  readonly iceberg: { refresh(force?: boolean): Promise<void> } | undefined;
  bind(ast: unknown, paramTypes: readonly number[]): BoundQuery;
  execContext(params: readonly unknown[]): ExecContext;
}

/** the statement as the runner has it: its parse tree, parameter types and values */
export interface RerunStatement {
  readonly ast: unknown;
  readonly paramTypes: readonly number[];
  readonly params: readonly unknown[];
}

/**
 * The result stream of a row-changing statement `bound` (executed in `ctx`); outside a block, one that
 * re-runs the statement — bound again on the refreshed Iceberg mirror — after a lost race.
 */
export function rerunOnConflict(session: RerunSession, bound: BoundQuery, ctx: ExecContext, stmt: RerunStatement): AsyncIterable<Batch> {
  const first = executePlan(bound.plan, ctx);
  const iceberg = session.iceberg;
  if (session.tx.inBlock || iceberg === undefined) return first;
  return rerunning(iceberg, ctx.signal, first, nodeKind(stmt.ast) === 'MergeStmt', () => {
    const again = session.bind(stmt.ast, stmt.paramTypes);
    // RETURNING's RowDescription may be out already: a re-bound statement with other columns cannot answer it
    if (!sameColumns(bound.columns, again.columns)) return null;
    return executePlan(again.plan, session.execContext(stmt.params));
  });
}

function sameColumns(a: BoundQuery['columns'], b: BoundQuery['columns']): boolean {
  return a.length === b.length && a.every((c, i) => c.name === b[i]!.name && c.type.oid === b[i]!.type.oid && c.type.typmod === b[i]!.type.typmod);
}

/**
 * Only a conflict the row-delta commit threw before its catalog swap (isUncommitted): the same SQLSTATE after a
 * swap that succeeded (the catalog refresh after the commit, RETURNING's nextval()) would apply the change twice.
 * A raced 23505 re-runs INSERT … ON CONFLICT only: PostgreSQL's MERGE raises the unique violation rather than
 * re-evaluating its MATCHED arms (MVCC docs, Read Committed).
 */
function retryable(e: unknown, isMerge: boolean): boolean {
  if (!(e instanceof GatewayError) || !isUncommitted(e)) return false;
  return e.code === SqlState.serialization_failure || (e.code === SqlState.unique_violation && !isMerge && keyRaced(e));
}

async function* rerunning(iceberg: NonNullable<RerunSession['iceberg']>, signal: AbortSignal, first: AsyncIterable<Batch>, isMerge: boolean, rerun: () => AsyncIterable<Batch> | null): AsyncIterable<Batch> {
  let source = first;
  /** the table's turn, once a race was lost (commit-turns.ts); released when the statement's outcome is known */
  let turn: { readonly table: string; readonly release: () => void } | null = null;
  let it: AsyncIterator<Batch>;
  let head: IteratorResult<Batch>;
  try {
    for (let n = 0; ; n++) {
      const current = source[Symbol.asyncIterator]();
      it = current;
      try {
        // a DML operator's first batch comes after its commit: an error here left nothing behind and sent nothing
        const table = turn?.table;
        head = await (table === undefined ? current.next() : asTurnHolder(table, () => current.next()));
        break;
      } catch (e) {
        if (!retryable(e, isMerge) || signal.aborted) throw e;
        if (n >= autocommitReruns.maxReruns) {
          autocommitReruns.exhausted++;
          throw e;
        }
        // later re-runs (another process won again) back off with jitter
        if (n > 0) await sleep(Math.min(200, 5 * 2 ** n) * (0.5 + Math.random()));
        const table = conflictTableOf(e);
        // the first re-run waits only for the re-runs queued before it (PostgreSQL's waiter wakes at the winner's commit)
        if (turn === null && table !== undefined) turn = { table, release: await takeTurn(table, signal) };
        if (signal.aborted) throw e;
        // another process's (or a not yet refreshed) commit must be in the mirror before binding again
        await iceberg.refresh(true);
        const next = rerun();
        if (next === null) throw e;
        autocommitReruns.reruns++;
        source = next;
      }
    }
  } finally {
    turn?.release();
  }
  if (head.done === true) return;
  yield head.value;
  yield* { [Symbol.asyncIterator]: () => it };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
