/**
 * Routes every statement that is not a plain query to its handler. One handler file per statement family;
 * anything unknown is 0A000 naming the statement.
 */
import { notSupported } from '../../common/errors.ts';
import type { StatementResult } from '../../wire/handler.ts';
import type { ParsedStatement } from '../../sql/index.ts';
import type { EngineSession } from '../engine-session.ts';
import { nodeBody, nodeKind } from '../ast.ts';
import { runCreateIndex, runDropIndex } from './index-stmt.ts';
import { runSet, runShow } from './set-show.ts';
import { runTransaction } from './transaction-stmt.ts';
import { runClosePortal, runDeclareCursor, runFetch } from './cursor-stmt.ts';
import { runDeallocate, runExecute, runPrepare } from './prepare-stmt.ts';
import { runCreateSchema, runCreateTable, runCreateTableAs, runCreateView, runDrop, runTruncate, runComment, runSelectInto } from './ddl.ts';
import { runCopy } from './copy-stmt.ts';
import { runExplain } from './explain-stmt.ts';
import { runDiscard } from './discard-stmt.ts';
import { runCall } from './call-stmt.ts';
import { runAlterObjectSchema, runAlterTable, runRename } from './alter-table-stmt.ts';
import { runAlterIdentity, runAlterSequence, runCreateSequence, runDropSequence, runRenameSequence, runRenameFollowingSequences } from './sequence-stmt.ts';

export type UtilityHandler = (session: EngineSession, stmt: ParsedStatement, params: readonly unknown[]) => Promise<StatementResult>;

const command = (tag: string): UtilityHandler => async () => ({ kind: 'command', tag });

const HANDLERS: Readonly<Record<string, UtilityHandler>> = {
  VariableSetStmt: runSet,
  VariableShowStmt: runShow,
  TransactionStmt: runTransaction,
  DeclareCursorStmt: runDeclareCursor,
  FetchStmt: runFetch,
  ClosePortalStmt: runClosePortal,
  PrepareStmt: runPrepare,
  ExecuteStmt: runExecute,
  DeallocateStmt: runDeallocate,
  CreateSchemaStmt: runCreateSchema,
  CreateStmt: runCreateTable,
  CreateTableAsStmt: runCreateTableAs,
  SelectStmt: runSelectInto,
  ViewStmt: runCreateView,
  DropStmt: (session, stmt, params) => {
    const removeType = nodeBody(stmt.ast).removeType;
    return (removeType === 'OBJECT_INDEX' ? runDropIndex : removeType === 'OBJECT_SEQUENCE' ? runDropSequence : runDrop)(session, stmt, params);
  },
  IndexStmt: runCreateIndex,
  TruncateStmt: runTruncate,
  CommentStmt: runComment,
  CallStmt: runCall,
  // ALTER COLUMN … RESTART / SET GENERATED / SET <sequence option> of identity columns: sequence-stmt.ts (SEQ)
  AlterTableStmt: (session, stmt, params) => (isIdentityAlter(stmt) ? runAlterIdentity : runAlterTable)(session, stmt, params),
  RenameStmt: (session, stmt, params) => (nodeBody(stmt.ast).renameType === 'OBJECT_SEQUENCE' ? runRenameSequence(session, stmt, params) : runRenameFollowingSequences(runRename)(session, stmt, params)),
  CreateSeqStmt: runCreateSequence,
  AlterSeqStmt: runAlterSequence,
  AlterObjectSchemaStmt: runAlterObjectSchema,
  CopyStmt: runCopy,
  ExplainStmt: runExplain,
  DiscardStmt: runDiscard,
  // statistics come from table metadata, and tables need no maintenance: accepted as PostgreSQL would
  VacuumStmt: async (_s, stmt) => ({ kind: 'command', tag: /^\s*analy[sz]e/i.test(stmt.text) ? 'ANALYZE' : 'VACUUM' }),
  CheckPointStmt: command('CHECKPOINT'),
  ConstraintsSetStmt: command('SET CONSTRAINTS'),
  // every statement reads one snapshot per table, so table locks have nothing to protect
  LockStmt: command('LOCK TABLE'),
};

const FEATURE_NAMES: Readonly<Record<string, string>> = {
  DoStmt: 'DO',
  ListenStmt: 'LISTEN',
  UnlistenStmt: 'UNLISTEN',
  NotifyStmt: 'NOTIFY',
  CreateFunctionStmt: 'CREATE FUNCTION',
  CreateRoleStmt: 'CREATE ROLE',
  CreatedbStmt: 'CREATE DATABASE',
  IndexStmt: 'CREATE INDEX',
  CreateSeqStmt: 'CREATE SEQUENCE',
  AlterTableStmt: 'ALTER TABLE',
  GrantStmt: 'GRANT',
  MergeStmt: 'MERGE',
};

function isIdentityAlter(stmt: ParsedStatement): boolean {
  const cmds = nodeBody(stmt.ast).cmds;
  return Array.isArray(cmds) && cmds.length > 0 && cmds.every((c) => nodeBody(c).subtype === 'AT_SetIdentity');
}

export async function routeUtility(session: EngineSession, stmt: ParsedStatement, params: readonly unknown[]): Promise<StatementResult> {
  const kind = nodeKind(stmt.ast);
  const handler = HANDLERS[kind];
  if (handler !== undefined) return handler(session, stmt, params);
  const name = FEATURE_NAMES[kind] ?? kind.replace(/Stmt$/, '').replace(/([a-z])([A-Z])/g, '$1 $2').toUpperCase();
  throw notSupported(name);
}
