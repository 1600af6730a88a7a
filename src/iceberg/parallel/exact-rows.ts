/**
 * The scan's exactness signal. Pushdown is inexact by contract (catalog/table-source.ts): a scan may return
 * rows its pushed filter does not hold for, so the executor evaluates WHERE again. When late
 * materialization's Arrow pass judged every conjunct of the bound filter itself (arrow-row-filter.ts
 * `complete`), the rows it returns are exactly those the filter is TRUE for; such a chunk, and the batch made
 * from it, is marked here. A scan worker's fragment may then skip the Filter conjuncts that are the pushed
 * ones (exec/partial/pushed-conjuncts.ts) for marked batches only.
 *
 * A mark on the object, not a field: anything that copies, widens or re-cuts a batch drops it (and the
 * Filter runs in full again), so only code that knows its rows are a subset of a marked batch's passes it on.
 */

const exact = new WeakSet<object>();

/** marks `rows` (a chunk or batch) as holding only rows for which the whole pushed filter is TRUE */
export function markExact<T extends object>(rows: T): T {
  exact.add(rows);
  return rows;
}

/** whether `rows` was marked by markExact */
export function isExact(rows: object): boolean {
  return exact.has(rows);
}
