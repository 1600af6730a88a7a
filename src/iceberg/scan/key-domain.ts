/**
 * How many distinct values some integer columns can take together across a scan's files, from the manifests'
 * column bounds (§ Manifests: lower_bounds 125, upper_bounds 128): the product over the columns of
 * (max upper − min lower + 1), one more per nullable column (its NULL group). An upper bound on the groups of a
 * GROUP BY of those columns whatever the rows — TPC-H q15's l_suppkey spans 10,000 suppliers however many
 * lineitem rows a task reads (exec/partial/partial-aggregate-exec.ts). Null when it cannot be known: a column
 * that is not an integer, or a file without bounds for it.
 */
import type { NestedField } from '../spec/schema.ts';
import { decodeSingleValue } from '../spec/types.ts';
import type { FileScanTask } from './table-scan.ts';

/** a bound as a number, or null when absent or not an integer */
function boundOf(field: NestedField, b: Uint8Array | undefined): number | null {
  if (b === undefined) return null;
  try {
    const v = decodeSingleValue(field.type, b);
    return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null;
  } catch {
    return null;
  }
}

/** the distinct tuples of `fields` (int / long / date columns) the files of `tasks` can hold, or null when unknown */
export function keyDomainSize(tasks: readonly FileScanTask[], fields: readonly NestedField[]): number | null {
  if (tasks.length === 0) return null;
  let size = 1;
  for (const f of fields) {
    if (f.type.kind !== 'primitive' || (f.type.name !== 'int' && f.type.name !== 'long' && f.type.name !== 'date')) return null;
    let lo = Infinity;
    let hi = -Infinity;
    for (const t of tasks) {
      const lower = boundOf(f, t.file.lowerBounds.get(f.id));
      const upper = boundOf(f, t.file.upperBounds.get(f.id));
      // a file of only NULLs has no bounds: unknown here, so no bound at all (the caller keeps its judgement)
      if (lower === null || upper === null) return null;
      if (lower < lo) lo = lower;
      if (upper > hi) hi = upper;
    }
    size *= hi - lo + 1 + (f.required ? 0 : 1);
  }
  return size;
}

/** the rows of the files `tasks` read (manifest record counts), each file once (a split file appears several times) */
export function filesRows(tasks: readonly FileScanTask[]): number {
  const seen = new Set<string>();
  let rows = 0;
  for (const t of tasks) {
    if (seen.has(t.file.filePath)) continue;
    seen.add(t.file.filePath);
    rows += Number(t.file.recordCount);
  }
  return rows;
}
