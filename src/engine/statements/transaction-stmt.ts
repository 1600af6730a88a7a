/**
 * BEGIN / START TRANSACTION / COMMIT / ROLLBACK / SAVEPOINT / RELEASE / ROLLBACK TO, with PostgreSQL's
 * command tags and warnings (psqlODBC wraps every statement in a savepoint, so these are hot).
 * @see https://www.postgresql.org/docs/current/sql-begin.html
 */
import { notSupported, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import type { UtilityHandler } from './route-utility.ts';
import type { EngineSession } from '../engine-session.ts';
import { constText, nodeBody } from '../ast.ts';
import { closeCursorsAtTransactionEnd } from './cursor-stmt.ts';
import { applyOnCommitActions } from './on-commit.ts';
import { IcebergTransaction } from '../iceberg-transaction.ts';

export const runTransaction: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  const kind = String(body.kind ?? '');
  const savepoint = typeof body.savepoint_name === 'string' ? body.savepoint_name : '';
  switch (kind) {
    case 'TRANS_STMT_BEGIN':
    case 'TRANS_STMT_START': {
      const tag = kind === 'TRANS_STMT_BEGIN' ? 'BEGIN' : 'START TRANSACTION';
      if (session.pipelineBlock) {
        // as PostgreSQL (TBLOCK_STARTED → TBLOCK_BEGIN): the pipeline's implicit transaction becomes the block
        session.pipelineBlock = false;
        applyOptions(session, body.options);
        return { kind: 'command', tag };
      }
      if (session.tx.inBlock) {
        session.warning('there is already a transaction in progress', SqlState.active_sql_transaction);
        return { kind: 'command', tag };
      }
      beginBlock(session);
      applyOptions(session, body.options);
      return { kind: 'command', tag };
    }
    case 'TRANS_STMT_COMMIT': {
      if (session.pipelineBlock) {
        // COMMIT in a pipeline's implicit transaction: PostgreSQL warns and commits what came before
        session.warning('there is no transaction in progress', SqlState.no_active_sql_transaction);
        session.pipelineBlock = false;
        await commitBlock(session);
        return { kind: 'command', tag: 'COMMIT' };
      }
      if (!session.tx.inBlock) {
        session.warning('there is no transaction in progress', SqlState.no_active_sql_transaction);
        return { kind: 'command', tag: 'COMMIT' };
      }
      if (session.tx.status === 'E') {
        await rollbackAll(session);
        return { kind: 'command', tag: 'ROLLBACK' };
      }
      await commitBlock(session);
      return { kind: 'command', tag: 'COMMIT' };
    }
    case 'TRANS_STMT_ROLLBACK': {
      if (session.pipelineBlock) {
        // ROLLBACK in a pipeline's implicit transaction: PostgreSQL warns and undoes what came before
        session.warning('there is no transaction in progress', SqlState.no_active_sql_transaction);
        session.pipelineBlock = false;
        await rollbackAll(session);
        return { kind: 'command', tag: 'ROLLBACK' };
      }
      if (!session.tx.inBlock) {
        session.warning('there is no transaction in progress', SqlState.no_active_sql_transaction);
        return { kind: 'command', tag: 'ROLLBACK' };
      }
      await rollbackAll(session);
      return { kind: 'command', tag: 'ROLLBACK' };
    }
    case 'TRANS_STMT_SAVEPOINT':
      requireBlock(session, 'SAVEPOINT');
      session.tx.savepoint(savepoint, session.catalog.tempRelationList());
      session.icebergMarks.push(session.icebergTx?.mark() ?? null);
      session.settings.pushFrame();
      return { kind: 'command', tag: 'SAVEPOINT' };
    case 'TRANS_STMT_RELEASE': {
      requireBlock(session, 'RELEASE SAVEPOINT');
      const depth = session.tx.findSavepoint(savepoint);
      const frames = framesAbove(session, depth);
      session.tx.release(depth);
      session.icebergMarks.length = depth - 1;
      for (let i = 0; i < frames; i++) session.settings.releaseFrame();
      return { kind: 'command', tag: 'RELEASE' };
    }
    case 'TRANS_STMT_ROLLBACK_TO': {
      requireBlock(session, 'ROLLBACK TO SAVEPOINT');
      const depth = session.tx.findSavepoint(savepoint);
      const frames = framesAbove(session, depth);
      const temps = session.tx.rollbackTo(depth);
      // frames[depth] is savepoint number depth, whose mark is icebergMarks[depth - 1]; it stays open
      const mark = session.icebergMarks[depth - 1];
      session.icebergMarks.length = depth;
      if (mark != null) session.icebergTx?.restore(mark);
      session.invalidatePlans();
      for (let i = 0; i < frames; i++) session.settings.rollbackFrame();
      session.settings.pushFrame();
      restoreTemps(session, temps);
      return { kind: 'command', tag: 'ROLLBACK' };
    }
    case 'TRANS_STMT_PREPARE':
    case 'TRANS_STMT_COMMIT_PREPARED':
    case 'TRANS_STMT_ROLLBACK_PREPARED':
      throw notSupported('two-phase commit (PREPARE TRANSACTION)');
    default:
      throw notSupported(`transaction statement ${kind}`);
  }
};

/** opens a transaction block: BEGIN's work, also a multi-statement Query's implicit block (implicit-block.ts) */
export function beginBlock(session: EngineSession): void {
  session.tx.begin(session.catalog.tempRelationList(), BigInt(Date.now()) * 1000n);
  beginIcebergTransaction(session);
  session.settings.pushFrame();
}

/** COMMIT of a block that has not failed: ON COMMIT actions, the staged Iceberg pointers, settings, cursors */
export async function commitBlock(session: EngineSession): Promise<void> {
  await applyOnCommitActions(session);
  try {
    await commitIcebergTransaction(session);
  } catch (e) {
    // as PostgreSQL when a serializable transaction cannot commit: the error, and the transaction is gone
    await rollbackAll(session);
    throw e;
  }
  session.tx.commit();
  session.settings.commitAll();
  await closeCursorsAtTransactionEnd(session, true);
}

/** the transaction and savepoint frames are kept aligned with the settings frames */
function framesAbove(session: EngineSession, depth: number): number {
  return session.tx.depth - depth;
}

function requireBlock(session: EngineSession, what: string): void {
  // a pipeline's implicit transaction is no block (PostgreSQL's IsTransactionBlock is false in TBLOCK_STARTED)
  if (!session.tx.inBlock || session.pipelineBlock) throw pgError(SqlState.no_active_sql_transaction, `${what} can only be used in transaction blocks`);
}

/** Iceberg writes inside the block are staged (iceberg-transaction.ts) when the database has a writable warehouse */
function beginIcebergTransaction(session: EngineSession): void {
  const iceberg = session.iceberg;
  if (iceberg === undefined || !iceberg.writable) return;
  const tx = new IcebergTransaction(iceberg.catalog, iceberg.io, () => session.invalidatePlans());
  session.icebergTx = tx;
  session.icebergMarks.length = 0;
  session.catalog.overlay = (info) => tx.overlay(info);
  session.invalidatePlans();
}

function endIcebergTransaction(session: EngineSession): void {
  if (session.icebergTx === null) return;
  session.icebergTx = null;
  session.icebergMarks.length = 0;
  session.catalog.overlay = null;
  session.invalidatePlans();
}

async function commitIcebergTransaction(session: EngineSession): Promise<void> {
  const tx = session.icebergTx;
  if (tx === null) return;
  const wrote = tx.hasWrites;
  await tx.commit();
  endIcebergTransaction(session);
  if (wrote) await session.iceberg?.refresh(true);
}

/** ROLLBACK: staged writes forgotten, temp relations, settings and cursors as they were at BEGIN */
export async function rollbackAll(session: EngineSession): Promise<void> {
  session.icebergTx?.rollback();
  endIcebergTransaction(session);
  const temps = session.tx.rollback();
  session.settings.rollbackAll();
  restoreTemps(session, temps);
  await closeCursorsAtTransactionEnd(session, false);
}

function restoreTemps(session: EngineSession, temps: readonly RelationInfo[] | null): void {
  if (temps === null) return;
  const keep = new Set(temps.map((r) => r.name));
  for (const r of session.catalog.tempRelationList()) if (!keep.has(r.name)) session.catalog.removeTempRelation(r.name);
  for (const r of temps) session.catalog.addTempRelation(r);
  session.server.catalogChanged();
}

function applyOptions(session: EngineSession, options: unknown): void {
  if (!Array.isArray(options)) return;
  for (const opt of options) {
    const def = nodeBody(opt);
    const name = String(def.defname ?? '');
    const value = constText(def.arg) ?? '';
    if (name === 'transaction_isolation' || name === 'transaction_read_only' || name === 'transaction_deferrable') {
      session.settings.set(name, value === 'true' ? 'on' : value === 'false' ? 'off' : value, true);
    }
  }
}
