/**
 * PostgreSQL runs the statements of one simple Query message as one implicit transaction unless they
 * contain transaction control: `INSERT …; INSERT …; SELECT 1/0` leaves nothing behind (psql -c, and
 * drivers that send several statements in one execute, rely on it). lakegate gives such a message a
 * transaction block of its own — its Iceberg writes are staged (iceberg-transaction.ts) and commit
 * together after the last statement; an error anywhere rolls all of them back.
 * The extended protocol's rule is the same from the first Execute after a Sync up to the next Sync (pgJDBC's
 * executeBatch sends Parse/Bind/Execute × N, then one Sync): EngineSession opens that block at the pipeline's
 * first writing Execute (`pipelineBlock`) and commits it at Sync, so read-only pipelines pay nothing. A SET LOCAL
 * opens it too: in PostgreSQL it lasts until Sync (with a 25P01 warning, the pipeline being no block).
 * @see https://www.postgresql.org/docs/current/protocol-flow.html#PROTOCOL-FLOW-EXT-QUERY
 * @see https://www.postgresql.org/docs/current/protocol-flow.html#PROTOCOL-FLOW-MULTI-STATEMENT
 */
import { nodeKind } from './ast.ts';
import type { ParsedStatement } from '../sql/index.ts';

/** statements whose effects an error in a later statement of the same message must undo */
const WRITES = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt', 'TruncateStmt', 'CopyStmt']);

/** whether an extended-protocol Execute of the statement opens the pipeline's implicit transaction */
export function opensPipelineBlock(ast: unknown): boolean {
  const kind = nodeKind(ast);
  if (WRITES.has(kind)) return true;
  return kind === 'VariableSetStmt' && (ast as { VariableSetStmt?: { is_local?: boolean } }).VariableSetStmt?.is_local === true;
}

/**
 * whether a simple Query's statements need an implicit block: several of them, at least one a write, and
 * none a transaction statement (with BEGIN / COMMIT in the message the client manages the transaction).
 */
export function needsImplicitBlock(statements: readonly ParsedStatement[], inBlock: boolean): boolean {
  if (inBlock || statements.length < 2) return false;
  let writes = false;
  for (const stmt of statements) {
    const kind = nodeKind(stmt.ast);
    if (kind === 'TransactionStmt') return false;
    if (WRITES.has(kind)) writes = true;
  }
  return writes;
}
