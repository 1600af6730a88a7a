/**
 * Which conjuncts of a scan worker's Filter the scan has already decided exactly. The worker's fragment
 * evaluates WHERE again over the rows the scan returns, because pushdown is inexact (catalog/table-source.ts);
 * but a batch marked exact (iceberg/parallel/exact-rows.ts) holds only rows for which every conjunct of the
 * bound pushed filter is TRUE — TPC-H q6's four conjuncts were judged twice, ~20 % of its worker CPU.
 *
 * A Filter conjunct may be skipped for such a batch only when it is TRUE for every row its pushed form is
 * TRUE for. It is proved by re-deriving that form the way the plan did — pushed-predicate-of.ts, the `$n`
 * values (resolve-pushed.ts), bound for row filters (bound-predicate.ts `rows`) — and finding each of its
 * bound parts among the conjuncts of the filter the scan judged (same field, type, operator and value, by
 * predicateKey), with nothing lost on the way:
 * - every part of the conjunct is pushed (an AND with an unpushable argument pushes only the others), a LIKE
 *   only as `'prefix%'` (other patterns push a necessary prefix), no parameter resolves to NULL (dropped from
 *   an AND), no leaf binds to TRUE ("might match": uuid, non-finite values, char(n) order);
 * - only column types whose Arrow judgement is PostgreSQL's: integers, dates, timestamps, numeric (scale
 *   compared exactly: arrow-decimal-filter.ts), text / varchar and char(n) (blank-trimmed equality) — not
 *   floats (NaN sorts above every number in PostgreSQL) nor booleans.
 * A conjunct reads one column, or is a comparison of two (`l_commitdate < l_receiptdate`: isColumnPair).
 * Only TRUE matters: a WHERE conjunct keeps the rows it is TRUE for, and AND / OR are TRUE exactly when their
 * arms' TRUE-ness says so (NOT is never pushed). A NULL compare is never TRUE on either side.
 */
import { Oid } from '../../common/pgtypes/oids.ts';
import type { ScanPredicate } from '../../catalog/table-source.ts';
import { conjunctsOf, andOf, someExpr, transformExpr, type Expr, type PushedPredicate } from '../../sql/index.ts';
import { bindPredicates, predicateKey, type BindColumn, type BoundPredicate } from '../../iceberg/scan/bound-predicate.ts';
import type { NestedField } from '../../iceberg/spec/schema.ts';
import { isRowLineageField } from '../../iceberg/lineage/row-lineage-columns.ts';
import { likePrefix, pushedPredicateOf } from '../optimizer/pushed-predicate-of.ts';
import { resolvePredicate } from '../optimizer/resolve-pushed.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { intKeyListDigest, intKeyListRepr } from '../../iceberg/scan/int-key-list.ts';
import { isPgArray } from '../../common/pgtypes/values.ts';
import { defKey } from './expr-wire.ts';

/** column types whose pushed conjuncts the Arrow pass judges as PostgreSQL does */
const EXACT_TYPES: ReadonlySet<number> = new Set([
  Oid.int2, Oid.int4, Oid.int8, Oid.date, Oid.timestamp, Oid.timestamptz, Oid.numeric, Oid.text, Oid.varchar, Oid.bpchar,
]);

/** the scan's side: the filter it judged and the table column each field read stands for */
export interface JudgedScan {
  /** the bound pushed filter the worker's reader applied (iceberg/parallel/filter-wire.ts) */
  readonly filter: BoundPredicate;
  /** the fields read, in `projection` order */
  readonly fields: readonly NestedField[];
  /** table column of each field */
  readonly projection: readonly number[];
  /** the scan's width (table columns) */
  readonly width: number;
  readonly params: readonly unknown[];
  /**
   * the value of a cast of a constant (`$1::numeric`: a literal-normalised plan's `l_quantity < 24`), as the
   * Filter itself computes it, or undefined when it cannot (an error: the Filter then runs and raises it)
   */
  readonly constant?: (e: Expr) => unknown;
}

/** the conjuncts of `b` with nested ANDs flattened (each is TRUE when `b` is) */
function flatAnd(b: BoundPredicate, out: BoundPredicate[] = []): BoundPredicate[] {
  if (b.kind === 'and') for (const a of b.args) flatAnd(a, out);
  else out.push(b);
  return out;
}

const INT_KEY_OIDS: ReadonlySet<number> = new Set([Oid.int2, Oid.int4, Oid.int8]);

/**
 * a runtime key filter's `col = ANY(keys)` pushed as the scan got it (exec/runtime-key-filter.ts scanKeyPredicate):
 * keys of the column's own integer type in one array literal marked as a key list (no NULLs: iceberg/scan/
 * int-key-list.ts), which resolving and binding pass on whole — so its bound form's predicateKey is the judged
 * filter's digest. pushedPredicateOf would make a literal per key and binding a new, unmarked array that never
 * matches it: TPC-H q21's 15,000-key conjunct was never proved, and its IN set probed on every row in the workers.
 */
function keyListPredicate(e: Expr, width: number): PushedPredicate | null {
  if (e.kind !== 'ScalarArrayOp' || !e.useOr || e.op.name !== '=' || e.op.left === null) return null;
  const col = e.op.left, arr = e.op.right;
  if (col.kind !== 'ColumnRef' || col.levelsUp !== 0 || col.index >= width || !INT_KEY_OIDS.has(col.type.oid)) return null;
  if (arr.kind !== 'Literal' || !isPgArray(arr.value) || arr.value.dims.length > 1 || arr.value.elementOid !== col.type.oid) return null;
  return intKeyListRepr(arr.value.values) === undefined ? null : { kind: 'in', column: col.index, values: arr };
}

/** integer widening casts: every value of the narrower type compares as itself in the wider one */
const INT_WIDENING: ReadonlySet<string> = new Set([`${Oid.int2}>${Oid.int4}`, `${Oid.int2}>${Oid.int8}`, `${Oid.int4}>${Oid.int8}`]);

/** a scan column as is, or widened between integer types */
function plainColumn(e: Expr): boolean {
  return e.kind === 'ColumnRef' || (e.kind === 'Cast' && e.arg.kind === 'ColumnRef' && INT_WIDENING.has(`${e.arg.type.oid}>${e.type.oid}`));
}

/** the stored column's type under a plainColumn */
function columnType(e: Expr): number {
  return e.kind === 'Cast' ? e.arg.type.oid : e.type.oid;
}

/**
 * `a op b` of two scan columns that pushes as a column pair (pushed-predicate-of.ts exactPair: integers, a date,
 * timestamp or timestamptz against its own type), which the Arrow pass judges as PostgreSQL does — a NULL on
 * either side drops the row, and a NULL compare is never TRUE (read/arrow-column-pair.ts): TPC-H q4's and q12's
 * `l_commitdate < l_receiptdate`. Not a date cast to timestamp against a timestamp: the Arrow pass leaves that
 * pair to the JS test, whose batches are never exact, so proving it would only cost the proof.
 */
function isColumnPair(e: Expr, width: number): boolean {
  if (e.kind !== 'Op' || e.left === null || !plainColumn(e.left) || !plainColumn(e.right)) return false;
  const a = columnType(e.left), b = columnType(e.right);
  if (a !== b && !(INT_KEY_OIDS.has(a) && INT_KEY_OIDS.has(b))) return false;
  return pushedPredicateOf(e, width)?.kind === 'compareColumns';
}

/** every node of `e` is one pushed-predicate-of.ts carries over without weakening, on a column of EXACT_TYPES (one column, or a pair) */
function wholly(e: Expr, width: number): boolean {
  if (e.kind === 'BoolOp') return e.op !== 'not' && e.args.every((a) => wholly(a, width));
  if (keyListPredicate(e, width) !== null) return true;
  let columns = 0;
  const foreign = someExpr(e, (x) => {
    if (x.kind !== 'ColumnRef') return false;
    columns++;
    return x.levelsUp !== 0 || !EXACT_TYPES.has(x.type.oid);
  });
  if (foreign || (columns !== 1 && !(columns === 2 && isColumnPair(e, width)))) return false;
  // LIKE pushes its literal prefix, a necessary condition: the same condition only for 'prefix%', unless the
  // whole pattern goes with it (NOT LIKE goes only so; the Arrow pass judges it whole: read/utf8-like-matcher.ts)
  if (e.kind === 'Op' && (e.name === '~~' || e.name === '!~~')) {
    if (e.right.kind !== 'Literal' || typeof e.right.value !== 'string') return false;
    const pushed = pushedPredicateOf(e, width);
    if (pushed === null || pushed.kind !== 'startsWith') return false;
    return pushed.like !== undefined || (e.name === '~~' && e.right.value === `${likePrefix(e.right.value)}%`);
  }
  return pushedPredicateOf(e, width) !== null;
}

/** the leaves of a pushed or scan predicate below its ANDs and ORs (an IN list is one leaf) */
function leavesOf<P extends PushedPredicate | ScanPredicate>(p: P, out: P[] = []): P[] {
  if (p.kind === 'and' || p.kind === 'or') for (const a of p.args as readonly P[]) leavesOf(a, out);
  else out.push(p);
  return out;
}

/**
 * covers() answers by content — the judged filter's conjunct keys, the fields read, the params and the conjunct
 * after foldCasts — so that the next scan with the same filter (every run of a query: its judged filter is a new
 * object per scan) asks nothing again. Bounded: cleared when full.
 */
const proved = new Map<string, boolean>();
const MAX_PROVED = 1_024;

/**
 * an expression (or params) as text for that memo: bigints and Numerics by value, an integer key list by its digest
 * (scan/int-key-list.ts; no pass over its keys), a function's def by signature; closures (a Cast's fn) are left out —
 * the cast's types are in the text
 */
function conjunctText(v: unknown): string | null {
  try {
    return JSON.stringify(v, (k, x: unknown) => {
      if (typeof x === 'bigint') return `${x}n`;
      if (Numeric.isNumeric(x)) return `numeric:${x.toString()}`;
      if (k === 'def' && typeof x === 'object' && x !== null) return defKey(x as Parameters<typeof defKey>[0]);
      if (Array.isArray(x)) return intKeyListDigest(x) ?? x;
      return x;
    }) ?? '';
  } catch {
    return null; // not text (a cycle): proved without the memo
  }
}

/**
 * Splits Filter predicates over a scan's row for batches the scan marked exact: `rest` is what must still
 * run (null: nothing), `skipped` how many conjuncts were left out. Made once per task and fragment.
 */
export class PushedConjuncts {
  private readonly judged: ReadonlySet<string>;
  private readonly columns: (BindColumn | undefined)[];
  /** the scan's part of the memo key (null: not text), made on the first covers() */
  private scanText: string | null | undefined;

  constructor(private readonly scan: JudgedScan) {
    this.judged = new Set(flatAnd(scan.filter).map(predicateKey));
    this.columns = new Array<BindColumn | undefined>(scan.width);
  }

  /** `predicate` without the conjuncts the judged filter decides exactly */
  split(predicate: Expr): { readonly rest: Expr | null; readonly skipped: number } {
    const rest: Expr[] = [];
    let skipped = 0;
    for (const c of conjunctsOf(predicate)) {
      if (this.covers(c)) skipped++;
      else rest.push(c);
    }
    return { rest: rest.length === 0 ? null : skipped === 0 ? predicate : andOf(rest), skipped };
  }

  /**
   * whether `conjunct` is TRUE for every row the judged filter is TRUE for — proved once per content (see
   * `proved`): every task of a scan brings the same fragment, and every run of a query the same filter and
   * conjunct. Re-proving a runtime key filter's 15,000-key conjunct per task was ~650 ms per TPC-H q21 run across
   * two workers; once per scan, ~1.1 s over 6 runs with q21's aggregate in the workers (session 21).
   */
  covers(conjunct: Expr): boolean {
    if (this.judged.size === 0) return false;
    // folded first: a cast's value may depend on the session's settings (TimeZone), the text of the cast does not
    const folded = this.foldCasts(conjunct);
    if (folded === null) return false;
    const scanText = this.scanText === undefined ? (this.scanText = this.scanKey()) : this.scanText;
    const text = conjunctText(folded);
    if (scanText === null || text === null) return this.prove(folded);
    const key = `${scanText}|${text}`;
    let answer = proved.get(key);
    if (answer === undefined) {
      answer = this.prove(folded);
      if (proved.size >= MAX_PROVED) proved.clear();
      proved.set(key, answer);
    }
    return answer;
  }

  /** what prove() reads of the scan besides the conjunct: judged conjuncts, fields read, width, params */
  private scanKey(): string | null {
    const params = conjunctText(this.scan.params);
    if (params === null) return null;
    const fields = this.scan.fields.map((f) => `${f.id}:${f.name}:${f.required ? 1 : 0}:${JSON.stringify(f.type)}`).join(',');
    return `${this.scan.width}|${this.scan.projection.join(',')}|${fields}|${[...this.judged].sort().join('\u0001')}|${params}`;
  }

  /** covers() of a conjunct with its casts folded */
  private prove(folded: Expr): boolean {
    if (!wholly(folded, this.scan.width)) return false;
    const pushed = keyListPredicate(folded, this.scan.width) ?? pushedPredicateOf(folded, this.scan.width);
    if (pushed === null) return false;
    const resolved = resolvePredicate(pushed, this.scan.params);
    // a NULL parameter dropped from an AND would leave a weaker predicate
    if (resolved === null || leavesOf(resolved).length !== leavesOf(pushed).length) return false;
    if (!this.bindable(folded, resolved)) return false;
    const bound = bindPredicates([resolved], this.sparse(), { rows: true });
    if (bound.kind === 'true') return false;
    return flatAnd(bound).every((b) => this.judged.has(predicateKey(b)));
  }

  /** `e` with casts of a parameter or literal replaced by their value, or null when one has none */
  private foldCasts(e: Expr): Expr | null {
    let failed = false;
    const out = transformExpr(e, (x) => {
      if (x.kind !== 'Cast' || (x.arg.kind !== 'Param' && x.arg.kind !== 'Literal')) return undefined;
      const value = this.scan.constant?.(x);
      if (value === undefined) failed = true;
      return { kind: 'Literal', value, type: x.type } as Expr;
    });
    return failed ? null : out;
  }

  /** the described columns; bindPredicates binds a leaf on an undescribed (undefined) column to TRUE */
  private sparse(): readonly BindColumn[] {
    return this.columns as readonly BindColumn[];
  }

  /** the conjunct's columns described for binding, and no leaf of `resolved` bound to "might match" */
  private bindable(conjunct: Expr, resolved: ScanPredicate): boolean {
    let ok = true;
    someExpr(conjunct, (x) => {
      if (x.kind !== 'ColumnRef' || !ok) return false;
      const k = this.scan.projection.indexOf(x.index);
      const field = k < 0 ? undefined : this.scan.fields[k];
      if (field === undefined || isRowLineageField(field)) ok = false;
      else this.columns[x.index] ??= { field, comparable: x.type.oid !== Oid.bpchar, padded: x.type.oid === Oid.bpchar };
      return false;
    });
    return ok && leavesOf(resolved).every((l) => bindPredicates([l], this.sparse(), { rows: true }).kind !== 'true');
  }
}
