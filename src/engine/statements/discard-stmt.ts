/**
 * DISCARD ALL | PLANS | SEQUENCES | TEMP: resets session state (connection poolers and psycopg send DISCARD ALL).
 * @see https://www.postgresql.org/docs/current/sql-discard.html
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { UtilityHandler } from './route-utility.ts';
import { nodeBody } from '../ast.ts';
import { sessionSequences } from '../../catalog/sequences/session-sequences.ts';

export const runDiscard: UtilityHandler = async (session, stmt) => {
  const target = String(nodeBody(stmt.ast).target ?? 'DISCARD_ALL');
  switch (target) {
    case 'DISCARD_ALL':
      if (session.tx.inBlock) throw pgError(SqlState.active_sql_transaction, 'DISCARD ALL cannot run inside a transaction block');
      for (const c of session.cursors.values()) await c.stream.close();
      session.cursors.clear();
      session.sqlPrepared.clear();
      session.onDeallocate?.(null);
      session.settings.resetAll();
      session.catalog.dropAllTemp();
      sessionSequences(session.catalog).discard();
      session.server.catalogChanged();
      return { kind: 'command', tag: 'DISCARD ALL' };
    case 'DISCARD_PLANS':
      return { kind: 'command', tag: 'DISCARD PLANS' };
    case 'DISCARD_SEQUENCES':
      // currval / lastval forget their values, cached blocks are dropped
      sessionSequences(session.catalog).discard();
      return { kind: 'command', tag: 'DISCARD SEQUENCES' };
    case 'DISCARD_TEMP':
      session.catalog.dropAllTemp();
      session.server.catalogChanged();
      return { kind: 'command', tag: 'DISCARD TEMP' };
    default:
      return { kind: 'command', tag: 'DISCARD' };
  }
};
