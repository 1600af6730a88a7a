/**
 * SQL cursors: DECLARE name [BINARY] [NO SCROLL] CURSOR [WITH HOLD] FOR query, FETCH, MOVE, CLOSE.
 * Cursors read forward; SCROLL cursors materialise their rows (ScrollRows) so FETCH can also move backwards
 * (PRIOR, BACKWARD, ABSOLUTE, RELATIVE, FIRST, LAST). Holdable cursors survive COMMIT, the others close with the
 * transaction. psycopg named cursors and psqlODBC's UseDeclareFetch=1 drive these.
 * @see https://www.postgresql.org/docs/current/sql-declare.html
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { Batch } from '../../common/batch.ts';
import type { ResultColumn } from '../../wire/handler.ts';
import { executePlan } from '../../exec/index.ts';
import type { UtilityHandler } from './route-utility.ts';
import type { EngineSession } from '../engine-session.ts';
import { toResultColumns } from '../engine-session.ts';
import { nodeBody } from '../ast.ts';
import { RowStream } from '../row-stream.ts';
import { FETCH_ALL_COUNT, ScrollRows, type FetchDirection } from '../scroll-rows.ts';

const CURSOR_OPT_BINARY = 0x1;
const CURSOR_OPT_SCROLL = 0x2;
const CURSOR_OPT_HOLD = 0x20;

export interface Cursor {
  readonly name: string;
  readonly columns: readonly ResultColumn[];
  readonly stream: RowStream;
  readonly holdable: boolean;
  readonly binary: boolean;
  /** set for SCROLL cursors: the materialised rows and the position among them */
  readonly scroll: ScrollRows | null;
  /** the DECLARE statement's text and time (pg_cursors) */
  readonly statement: string;
  readonly creationTime: bigint;
  position: number;
}

export const runDeclareCursor: UtilityHandler = async (session, stmt, params) => {
  const body = nodeBody(stmt.ast);
  const name = String(body.portalname ?? '');
  const options = Number(body.options ?? 0);
  const holdable = (options & CURSOR_OPT_HOLD) !== 0;
  // a pipeline's implicit transaction is no block (PostgreSQL's IsTransactionBlock is false in TBLOCK_STARTED)
  if (!holdable && (!session.tx.inBlock || session.pipelineBlock)) {
    throw pgError(SqlState.no_active_sql_transaction, 'DECLARE CURSOR can only be used in transaction blocks');
  }
  if (session.cursors.has(name)) throw pgError(SqlState.duplicate_cursor, `cursor "${name}" already exists`);
  const bound = session.bind(body.query, params.map(() => 0));
  const stream = new RowStream(executePlan(bound.plan, session.execContext(params)));
  const scroll = (options & CURSOR_OPT_SCROLL) !== 0 ? new ScrollRows(stream, bound.columns.length) : null;
  session.cursors.set(name, {
    name,
    columns: toResultColumns(bound.columns),
    stream,
    holdable,
    binary: (options & CURSOR_OPT_BINARY) !== 0,
    scroll,
    statement: stmt.text,
    creationTime: BigInt(Date.now()) * 1000n,
    position: 0,
  });
  return { kind: 'command', tag: 'DECLARE CURSOR' };
};

export const runFetch: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  const name = String(body.portalname ?? '');
  const isMove = body.ismove === true;
  const direction = String(body.direction ?? 'FETCH_FORWARD');
  // libpg-query omits a zero count (FETCH 0, ABSOLUTE 0)
  const howMany = Number(body.howMany ?? 0);
  const cursor = session.cursors.get(name);
  if (cursor === undefined) throw pgError(SqlState.invalid_cursor_name, `cursor "${name}" does not exist`);
  const verb = isMove ? 'MOVE' : 'FETCH';
  if (cursor.scroll !== null) {
    const count = (direction === 'FETCH_FORWARD' || direction === 'FETCH_BACKWARD') && howMany >= FETCH_ALL_COUNT ? Infinity : howMany;
    const batch = await cursor.scroll.fetch(direction as FetchDirection, count);
    cursor.position = cursor.scroll.position;
    if (isMove) return { kind: 'command', tag: `MOVE ${batch.length}` };
    return { kind: 'rows', columns: cursor.columns, batches: fromArray([batch]), tag: (n) => `${verb} ${n}`, binary: cursor.binary };
  }
  let count: number;
  if (direction === 'FETCH_FORWARD') count = howMany >= FETCH_ALL_COUNT ? Infinity : howMany;
  else if (direction === 'FETCH_RELATIVE' && howMany >= 0) count = howMany;
  else if (direction === 'FETCH_ABSOLUTE' && howMany > cursor.position) count = howMany - cursor.position;
  else throw pgError(SqlState.object_not_in_prerequisite_state, 'cursor can only scan forward', { hint: 'Declare it with SCROLL option to enable backward scan.' });
  if (isMove) {
    const moved = await cursor.stream.skip(count);
    cursor.position += moved;
    return { kind: 'command', tag: `MOVE ${moved}` };
  }
  const batches = await cursor.stream.take(count);
  const rows = batches.reduce((n, b) => n + b.length, 0);
  cursor.position += rows;
  return {
    kind: 'rows',
    columns: cursor.columns,
    batches: fromArray(batches),
    tag: (n) => `${verb} ${n}`,
    binary: cursor.binary,
  };
};

export const runClosePortal: UtilityHandler = async (session, stmt) => {
  const name = nodeBody(stmt.ast).portalname;
  if (typeof name !== 'string') {
    for (const c of session.cursors.values()) await c.stream.close();
    session.cursors.clear();
    return { kind: 'command', tag: 'CLOSE CURSOR ALL' };
  }
  const cursor = session.cursors.get(name);
  if (cursor === undefined) throw pgError(SqlState.invalid_cursor_name, `cursor "${name}" does not exist`);
  await cursor.stream.close();
  session.cursors.delete(name);
  return { kind: 'command', tag: 'CLOSE CURSOR' };
};

/** at COMMIT holdable cursors stay open; at ROLLBACK every cursor declared in the transaction closes */
export async function closeCursorsAtTransactionEnd(session: EngineSession, committed: boolean): Promise<void> {
  for (const [name, cursor] of session.cursors) {
    if (committed && cursor.holdable) continue;
    await cursor.stream.close();
    session.cursors.delete(name);
  }
}

async function* fromArray(batches: readonly Batch[]): AsyncIterable<Batch> {
  for (const b of batches) yield b;
}
