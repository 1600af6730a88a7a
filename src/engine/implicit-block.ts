/**
 * PostgreSQL runs the statements of one simple Query message as one implicit transaction unless they
 * contain transaction control: `INSERT …; INSERT …; SELECT 1/0` leaves nothing behind (psql -c, and
 * drivers that send several statements in one execute, rely on it). lakegate gives such a message a
 * transaction block of its own — its Iceberg writes are staged (iceberg-transaction.ts) and commit
 * together after the last statement; an error anywhere rolls all of them back.
 * @see https://www.postgresql.org/docs/current/protocol-flow.html#PROTOCOL-FLOW-MULTI-STATEMENT
 */
import { nodeKind } from './ast.ts';
import type { ParsedStatement } from '../sql/index.ts';

/** statements whose effects an error in a later statement of the same message must undo */
const WRITES = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt', 'TruncateStmt', 'CopyStmt']);

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
