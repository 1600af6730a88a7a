/**
 * Differential answers for the vector kernels' tests: one SQL statement run over the e2e catalog with the column
 * kernels on and then off (per-row evaluation), each answer as PostgreSQL's text of every value or as the
 * SQLSTATE and message it failed with, so a test asserts the two paths agree value for value and error for error.
 */
import { GatewayError } from '../../common/errors.ts';
import { setVectorKernels } from '../expr/vector-expr.ts';
import { e2eCatalog } from './e2e-fixture.ts';
import { runSql } from './run-sql.ts';
import { showValue } from './show-value.ts';

/** the rows as text (null for NULL), or `{ error, message }` for a statement that fails */
export async function answerOf(sql: string): Promise<unknown> {
  try {
    const r = await runSql(e2eCatalog(), sql);
    return r.rows.map((x) => x.map((v, c) => (v === null ? null : showValue(r.columns[c]!.type.oid, v))));
  } catch (e) {
    if (e instanceof GatewayError) return { error: e.code, message: e.message };
    throw e;
  }
}

/** the answer with the column kernels, then without them (kernels left on) */
export async function vectorAndRows(sql: string): Promise<{ vector: unknown; rows: unknown }> {
  setVectorKernels(true);
  const vector = await answerOf(sql);
  setVectorKernels(false);
  const rows = await answerOf(sql);
  setVectorKernels(true);
  return { vector, rows };
}
