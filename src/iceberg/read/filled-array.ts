/**
 * A fresh array of `n` copies of one value, made by copying a kept template (`slice`) instead of
 * `new Array(n).fill(v)`: V8's fill on a new holey array cost ~40 µs per 8,192 entries, the copy of a packed
 * template ~4 µs (Node 20, SCAN session 20) — a scan worker makes one per unread column (NULLs) of every batch
 * and per lazy decimal column with NULLs (LAZY_NUMERIC placeholders; without NULLs those are sparse since
 * session 22: numeric-column.ts `sparseLazyNumerics`). Each call returns a new array the caller may
 * change; the templates never leave this module.
 */

/** templates longer than this are not kept (such arrays are filled as usual) */
const MAX_TEMPLATE = 1 << 16;

const templates = new Map<unknown, unknown[]>();

export function filledArray(value: unknown, n: number): unknown[] {
  if (n > MAX_TEMPLATE) return new Array<unknown>(n).fill(value);
  let t = templates.get(value);
  if (t === undefined || t.length < n) {
    t = new Array<unknown>(Math.max(n, 8192)).fill(value);
    templates.set(value, t);
  }
  return t.slice(0, n);
}
