/** Test helpers: the rows of statement results, as JS values (one shared copy for the engine's in-process tests). */
import { collectRows } from '../../exec/batch-util.ts';
import type { StatementResult } from '../../wire/handler.ts';
import type { EngineSession } from '../engine-session.ts';

/** the rows of one result (none for a command tag) */
export async function resultRows(r: StatementResult): Promise<unknown[][]> {
  return r.kind === 'rows' ? collectRows(r.batches) : [];
}

/** every row of every statement of a simple-protocol query string */
export async function simpleQueryRows(session: EngineSession, sql: string): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const r of session.simpleQuery(sql)) out.push(...(await resultRows(r)));
  return out;
}
