/**
 * The k smallest rows of a stream by sort keys, stable (a later equal row never displaces an earlier one): SortExec's
 * top-N under a constant LIMIT. Once k rows are kept, most rows lose to the k-th on the first key alone, so that key is
 * computed and compared first and the row's key array is made only for rows that may enter (TPC-H Q10 keeps 20 of
 * ~39k rows). The row loop lives here, out of SortExec's async generator: V8 would compile it there at the loop (OSR),
 * and the code after it would then deoptimize on every call (docs/TEAM-NOTES.md).
 */
import { compareValues } from '../../functions/index.ts';
import type { Cols, RowFn } from '../expr/compile-expr.ts';
import { compareKeys, type KeySpec } from '../expr/sort-compare.ts';

export interface KeptRow {
  readonly key: unknown[];
  readonly row: unknown[];
}

export class TopNRows {
  readonly rows: KeptRow[] = [];
  readonly #cmp = (x: KeptRow, y: KeptRow): number => compareKeys(this.specs, x.key, y.key);

  constructor(private readonly specs: readonly KeySpec[], private readonly fns: readonly RowFn[], private readonly k: number) {}

  /** offers the batch's rows; returns how many more rows are kept than before */
  add(columns: Cols, length: number): number {
    const { rows, k, fns, specs } = this;
    const before = rows.length;
    const first = fns[0]!;
    const spec0 = specs[0]!;
    for (let i = 0; i < length; i++) {
      if (rows.length >= k) {
        if (k === 0 || firstKeyCompare(spec0, first(columns, i), rows[k - 1]!.key[0]) > 0) continue;
        const key = keyOf(fns, columns, i);
        if (compareKeys(specs, key, rows[k - 1]!.key) >= 0) continue;
        let lo = 0;
        let hi = k - 1;
        while (lo < hi) { const mid = (lo + hi) >> 1; if (compareKeys(specs, key, rows[mid]!.key) < 0) hi = mid; else lo = mid + 1; }
        rows.splice(lo, 0, { key, row: rowOf(columns, i) });
        rows.pop();
        continue;
      }
      rows.push({ key: keyOf(fns, columns, i), row: rowOf(columns, i) });
      if (rows.length === k) rows.sort(this.#cmp);
    }
    return rows.length - before;
  }

  /** the kept rows in order */
  sorted(): KeptRow[] {
    return this.rows.sort(this.#cmp);
  }
}

function keyOf(fns: readonly RowFn[], columns: Cols, i: number): unknown[] {
  const key = new Array<unknown>(fns.length);
  for (let f = 0; f < fns.length; f++) key[f] = fns[f]!(columns, i);
  return key;
}

function rowOf(columns: Cols, i: number): unknown[] {
  const row = new Array<unknown>(columns.length);
  for (let c = 0; c < columns.length; c++) row[c] = columns[c]![i] ?? null;
  return row;
}

/** compareKeys over one key (x, y possibly undefined: NULL) */
function firstKeyCompare(s: KeySpec, x: unknown, y: unknown): number {
  const a = x ?? null;
  const b = y ?? null;
  if (a === null || b === null) {
    if (a === b) return 0;
    return (a === null) === s.nullsFirst ? -1 : 1;
  }
  const c = compareValues(s.oid, a, b);
  return s.descending ? -c : c;
}
