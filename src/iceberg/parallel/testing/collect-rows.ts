/**
 * Test helpers for comparing scans: every row of a batch stream, and a row key that tells bigint and numeric
 * values apart from numbers and strings (JSON alone would not), so parallel and main-thread reads compare exactly.
 */
import { rowsOfBatch, type Batch } from '../../../common/batch.ts';
import { Numeric } from '../../../common/pgtypes/numeric.ts';

export async function collectRows(batches: AsyncIterable<Batch>): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  for await (const b of batches) rows.push(...rowsOfBatch(b));
  return rows;
}

export const rowKey = (r: readonly unknown[]): string =>
  JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : Numeric.isNumeric(v) ? `N${v.toString()}` : v));
