/**
 * isCatalogFree: does a bound plan read nothing of the catalog — no relation, no catalog-reading function,
 * no reg* value (regclass & co. are names looked up in the catalog)? `SELECT 1`, `SELECT $1 + 2` are;
 * anything with a FROM relation, now(), to_regclass() or 'x'::regclass is not.
 *
 * Why: before each statement the session brings its mirror of the Iceberg catalog up to date (a SQLite
 * `PRAGMA data_version` costs two fcntl calls — most of a `SELECT 1`'s non-socket time). A plan that reads no
 * catalog cannot see the difference, so a cached one runs without that check. The test is a whitelist:
 * plan and expression kinds not listed here, stable or volatile functions, unknown shapes all answer false.
 * The answer is memoized per plan object (bound plans are immutable).
 */
import { Oid } from '../common/pgtypes/oids.ts';
import type { BoundQuery } from '../sql/index.ts';

const PLAN_KINDS: ReadonlySet<string> = new Set(['Values', 'Projection', 'Filter', 'Limit', 'Sort', 'Distinct']);
const EXPR_KINDS: ReadonlySet<string> = new Set([
  'Literal', 'Param', 'ColumnRef', 'Op', 'Cast', 'Case', 'Coalesce', 'MinMax', 'NullIf', 'BoolOp', 'NullTest',
  'BooleanTest', 'DistinctFrom', 'ScalarArrayOp', 'Array', 'Subscript', 'Row', 'FieldSelect',
]);
/** the reg* types and their arrays: their values are catalog names (text I/O reads the catalog) */
const REG_TYPES: ReadonlySet<number> = new Set(Object.entries(Oid).filter(([name]) => /^_?reg/.test(name)).map(([, oid]) => oid));
/** properties holding implementations (functions, registry entries), not plan structure */
const SKIPPED: ReadonlySet<string> = new Set(['def', 'fn', 'source']);

const memo = new WeakMap<BoundQuery, boolean>();

export function isCatalogFree(bound: BoundQuery): boolean {
  let free = memo.get(bound);
  if (free === undefined) {
    free = bound.columns.every((c) => !REG_TYPES.has(c.type.oid)) && walk(bound.plan, 0);
    memo.set(bound, free);
  }
  return free;
}

function walk(node: unknown, depth: number): boolean {
  if (depth > 200) return false; // deeper than any plan of a short statement: not worth proving
  if (Array.isArray(node)) return node.every((n) => walk(n, depth + 1));
  if (node === null || typeof node !== 'object') return true;
  const o = node as Record<string, unknown>;
  if (typeof o.oid === 'number' && typeof o.typmod === 'number' && REG_TYPES.has(o.oid)) return false;
  const kind = o.kind;
  if (typeof kind === 'string') {
    if (kind === 'Call') {
      const def = o.def as { readonly volatility?: string } | undefined;
      if (def?.volatility !== 'i') return false;
    } else if (!PLAN_KINDS.has(kind) && !EXPR_KINDS.has(kind)) return false;
  }
  for (const key in o) {
    if (SKIPPED.has(key)) continue;
    const v = o[key];
    if (v !== null && typeof v === 'object' && !walk(v, depth + 1)) return false;
  }
  return true;
}
