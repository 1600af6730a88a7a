/**
 * `substring(col FROM 1 FOR n) = 'v'` and `substring(col FROM 1 FOR n) IN ('v1', …)` (also `substr`) as pushed
 * LIKE prefixes: when every constant has exactly n characters, the substring equals it exactly when the column's
 * text starts with it, so the scan judges the conjunct on the column's bytes (arrow-string-filter.ts `startsWith`)
 * and converts only the rows that pass — TPC-H Q22's `substring(c_phone from 1 for 2) in ('13', '31', …)` keeps
 * 28 % of customer, read twice (the query and its subquery), whose phones became JS strings and substrings first.
 *
 * Exact (pushed-conjuncts.ts may skip the conjunct on batches the scan judged whole), because:
 * - NULL: substring(NULL) is NULL, never TRUE; a NULL constant never equals (dropped; only NULLs: not pushed);
 * - substring counts characters (code points) and so does the constant's length test here: a prefix of n code
 *   points is a prefix of the bytes and of the UTF-16 units alike;
 * - char(n): `CAST(c AS text)` drops the trailing blanks, as the `padded` row filters do before their prefix test
 *   (bound-predicate.ts); a constant ending in a blank would be trimmed there (a looser prefix): not pushed.
 */
import { Oid } from '../../common/pgtypes/oids.ts';
import { isPgArray } from '../../common/pgtypes/values.ts';
import type { Expr, PushedPredicate } from '../../sql/index.ts';

/** text-like column types whose text is the stored string (bpchar: without its trailing blanks) */
const TEXT_TYPES: ReadonlySet<number> = new Set([Oid.text, Oid.varchar, Oid.bpchar]);
/** casts to text a substring argument may carry (varchar keeps its text, bpchar drops trailing blanks) */
const TO_TEXT: ReadonlySet<number> = new Set([Oid.varchar, Oid.bpchar]);

interface PrefixSide { readonly column: number; readonly count: number; readonly padded: boolean }

/** `substring(col, 1, n)` / `substr(col, 1, n)` with constant n ≥ 1 over a text-like column of the scan */
function substringOf(e: Expr, width: number): PrefixSide | null {
  if (e.kind !== 'Call' || (e.def.name !== 'substring' && e.def.name !== 'substr') || e.args.length !== 3) return null;
  if (e.argTypes[0]?.oid !== Oid.text || e.argTypes[1]?.oid !== Oid.int4 || e.argTypes[2]?.oid !== Oid.int4) return null;
  const [arg, start, count] = e.args as [Expr, Expr, Expr];
  if (start.kind !== 'Literal' || start.value !== 1 || count.kind !== 'Literal' || typeof count.value !== 'number') return null;
  if (!Number.isInteger(count.value) || count.value < 1) return null;
  const col = arg.kind === 'Cast' && arg.type.oid === Oid.text && arg.arg.kind === 'ColumnRef' && TO_TEXT.has(arg.arg.type.oid) ? arg.arg : arg;
  if (col.kind !== 'ColumnRef' || col.levelsUp !== 0 || col.index >= width || !TEXT_TYPES.has(col.type.oid)) return null;
  return { column: col.index, count: count.value, padded: col.type.oid === Oid.bpchar };
}

/** the prefix test of one constant, or null when it is not a string of exactly `count` characters */
function prefixOf(side: PrefixSide, v: unknown): PushedPredicate | null {
  if (typeof v !== 'string' || [...v].length !== side.count) return null;
  if (side.padded && v.endsWith(' ')) return null;
  return { kind: 'startsWith', column: side.column, prefix: v };
}

/**
 * the pushed form of a substring-prefix comparison (one startsWith, or an OR of them), null when `e` is such a
 * comparison that cannot be pushed exactly, undefined when it is none (pushed-predicate-of.ts goes on)
 */
export function pushedPrefixOf(e: Expr, width: number): PushedPredicate | null | undefined {
  if (e.kind === 'Op' && e.name === '=' && e.left !== null) {
    const l = substringOf(e.left, width);
    const side = l ?? substringOf(e.right, width);
    if (side === null) return undefined;
    const other = l !== null ? e.right : e.left;
    return other.kind === 'Literal' ? prefixOf(side, other.value) : null;
  }
  if (e.kind === 'ScalarArrayOp' && e.useOr && e.op.name === '=' && e.op.left !== null) {
    const side = substringOf(e.op.left, width);
    if (side === null) return undefined;
    const arr = e.op.right;
    if (arr.kind !== 'Literal' || !isPgArray(arr.value) || arr.value.dims.length > 1) return null;
    const arms: PushedPredicate[] = [];
    for (const v of arr.value.values) {
      if (v === null) continue; // NULL never equals
      const p = prefixOf(side, v);
      if (p === null) return null;
      arms.push(p);
    }
    return arms.length === 0 ? null : arms.length === 1 ? arms[0]! : { kind: 'or', args: arms };
  }
  return undefined;
}
