/**
 * CREATE TEMP TABLE ... ON COMMIT DROP | DELETE ROWS: what happens to a session's temp tables when its
 * transaction commits (PostgreSQL's PreCommit_on_commit_actions). Outside a transaction block the statement
 * is its own transaction, so an ON COMMIT DROP table is gone as soon as it is created.
 * @see https://www.postgresql.org/docs/15/sql-createtable.html (ON COMMIT)
 */
import { pgError } from '../../common/errors.ts';
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import type { EngineSession } from '../engine-session.ts';
import { MemoryTable } from '../memory-table.ts';

type OnCommitAction = 'drop' | 'delete';

const actions = new WeakMap<EngineSession, Map<number, OnCommitAction>>();

/** the CreateStmt's `oncommit` (libpg-query spelling) for the relation just created */
export async function noteOnCommit(session: EngineSession, rel: RelationInfo, oncommit: unknown): Promise<void> {
  const action: OnCommitAction | null = oncommit === 'ONCOMMIT_DROP' ? 'drop' : oncommit === 'ONCOMMIT_DELETE_ROWS' ? 'delete' : null;
  if (action === null) return;
  if (rel.persistence !== 't') throw pgError('42P16', 'ON COMMIT can only be used on temporary tables');
  let map = actions.get(session);
  if (map === undefined) actions.set(session, (map = new Map()));
  map.set(rel.oid, action);
  if (!session.tx.inBlock) await applyOnCommitActions(session);
}

/** at COMMIT: drops the ON COMMIT DROP tables and empties the ON COMMIT DELETE ROWS ones (still existing) */
export async function applyOnCommitActions(session: EngineSession): Promise<void> {
  const map = actions.get(session);
  if (map === undefined || map.size === 0) return;
  const live = new Map(session.catalog.tempRelationList().map((r) => [r.oid, r]));
  let dropped = false;
  for (const [oid, action] of map) {
    const rel = live.get(oid);
    if (rel === undefined) { map.delete(oid); continue; }
    if (action === 'drop') {
      session.catalog.removeTempRelation(rel.name);
      map.delete(oid);
      dropped = true;
    } else if (rel.source instanceof MemoryTable) {
      await rel.source.truncate();
    }
  }
  if (dropped) session.server.catalogChanged();
}
