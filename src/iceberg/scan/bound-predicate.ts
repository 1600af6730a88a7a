/**
 * ScanPredicates (catalog/table-source.ts, by column index, SQL JS values) bound to Iceberg field ids and
 * primitive types, the form every pruning stage evaluates: manifest partition summaries, data file partition
 * tuples, data file column metrics and Parquet row-group statistics.
 *
 * Binding is conservative: a predicate lakegate cannot evaluate exactly in Iceberg's value order becomes
 * TRUE ("might match"), which only costs pruning, never rows. Dropped: nested columns, uuid (writers
 * disagree on its bound order), bpchar/json/jsonb declared types (their SQL equality is not the stored
 * string's), NaN and non-finite numeric comparison values.
 */
import { Numeric } from '../../common/pgtypes/numeric.ts';
import type { LikePattern, ScanPredicate } from '../../catalog/table-source.ts';
import type { NestedField, PrimitiveType } from '../spec/schema.ts';
import { compareStrings } from '../write/column-metrics.ts';
import { compareBytes } from '../write/single-value-bytes.ts';
import { intKeyListDigest, intKeyListRepr } from './int-key-list.ts';

export type CompareOp = '=' | '<>' | '<' | '<=' | '>' | '>=';

/**
 * `padded` (char(n) columns, bound only for row filters: bindPredicates' `rows` option): trailing blanks are
 * insignificant, as in PostgreSQL's bpchar comparison — the constants come without them and a stored value
 * is compared without its own (lakegate stores the padding, other writers may not). Pruning never sees these.
 */
export type BoundPredicate =
  | { readonly kind: 'true' | 'false' }
  | { readonly kind: 'compare'; readonly op: CompareOp; readonly fieldId: number; readonly type: PrimitiveType; readonly value: unknown; readonly padded?: true }
  | { readonly kind: 'in'; readonly fieldId: number; readonly type: PrimitiveType; readonly values: readonly unknown[]; readonly padded?: true }
  | { readonly kind: 'isNull' | 'isNotNull'; readonly fieldId: number; readonly type: PrimitiveType }
  /** `like` (row filters only): the whole LIKE pattern `prefix` is necessary for (ScanPredicate's); pruning uses `prefix` */
  | { readonly kind: 'startsWith'; readonly fieldId: number; readonly type: PrimitiveType; readonly prefix: string; readonly padded?: true; readonly like?: LikePattern }
  /**
   * `left op right`, two fields of one row (ScanPredicate's compareColumns; row filters only: bindPredicates'
   * `rows`): integers (int / long mixed), dates, timestamps, or a date against a timestamp (the date at midnight).
   * No `fieldId`: a pruning stage has no statistics of the pair and takes it as "might match".
   */
  | { readonly kind: 'compareFields'; readonly op: CompareOp; readonly leftId: number; readonly leftType: PrimitiveType; readonly rightId: number; readonly rightType: PrimitiveType }
  | { readonly kind: 'and' | 'or'; readonly args: readonly BoundPredicate[] };

/** whether a comparison result (negative, zero, positive) satisfies `op` */
export function compareOpTest(op: CompareOp): (c: number) => boolean {
  switch (op) {
    case '=': return (c) => c === 0;
    case '<>': return (c) => c !== 0;
    case '<': return (c) => c < 0;
    case '<=': return (c) => c <= 0;
    case '>': return (c) => c > 0;
    case '>=': return (c) => c >= 0;
  }
}

export const TRUE: BoundPredicate = { kind: 'true' };
export const FALSE: BoundPredicate = { kind: 'false' };

export function and(args: readonly BoundPredicate[]): BoundPredicate {
  const kept = args.filter((a) => a.kind !== 'true');
  if (kept.some((a) => a.kind === 'false')) return FALSE;
  return kept.length === 0 ? TRUE : kept.length === 1 ? kept[0]! : { kind: 'and', args: kept };
}

export function or(args: readonly BoundPredicate[]): BoundPredicate {
  const kept = args.filter((a) => a.kind !== 'false');
  if (kept.some((a) => a.kind === 'true')) return TRUE;
  return kept.length === 0 ? FALSE : kept.length === 1 ? kept[0]! : { kind: 'or', args: kept };
}

/** types whose JS values compare in Iceberg's order (§ Manifests: bounds) */
const ORDERED = new Set(['boolean', 'int', 'long', 'float', 'double', 'decimal', 'date', 'time', 'timestamp', 'timestamptz',
  'timestamp_ns', 'timestamptz_ns', 'string', 'binary', 'fixed']);

/** Iceberg order of two non-null, non-NaN JS values of type t */
export function compareValues(t: PrimitiveType, a: unknown, b: unknown): number {
  switch (t.name) {
    case 'string': return compareStrings(a as string, b as string);
    case 'binary': case 'fixed': return compareBytes(a as Uint8Array, b as Uint8Array);
    case 'decimal': return (a as Numeric).compare(b as Numeric);
    case 'boolean': return (a === true ? 1 : 0) - (b === true ? 1 : 0);
    default: {
      const x = a as number | bigint;
      const y = b as number | bigint;
      return x < y ? -1 : x > y ? 1 : 0;
    }
  }
}

/** a SQL JS value as the JS value of Iceberg type t, or undefined when it is not comparable */
export function normalizeValue(t: PrimitiveType, v: unknown): unknown {
  if (v === null || v === undefined) return undefined;
  switch (t.name) {
    case 'int': case 'date': case 'time':
      if (typeof v === 'bigint') return Number(v);
      return typeof v === 'number' && !Number.isNaN(v) ? v : undefined;
    case 'long': case 'timestamp': case 'timestamptz': case 'timestamp_ns': case 'timestamptz_ns':
      if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
      return typeof v === 'bigint' ? v : undefined;
    case 'float': case 'double':
      if (typeof v === 'bigint') return Number(v);
      return typeof v === 'number' && !Number.isNaN(v) ? v : undefined;
    case 'decimal':
      if (Numeric.isNumeric(v)) return v.isFinite() ? v : undefined;
      if (typeof v === 'bigint') return Numeric.fromBigInt(v);
      return typeof v === 'number' && Number.isInteger(v) ? Numeric.fromBigInt(BigInt(v)) : undefined;
    case 'string': return typeof v === 'string' ? v : undefined;
    case 'binary': case 'fixed': return v instanceof Uint8Array ? v : undefined;
    case 'boolean': return typeof v === 'boolean' ? v : undefined;
    default: return undefined;
  }
}

export interface BindColumn {
  readonly field: NestedField;
  /** false when the column's SQL comparison differs from the stored value's (bpchar, json, jsonb) */
  readonly comparable: boolean;
  /** char(n) stored as a string: equality ignores trailing blanks (bound only with the `rows` option) */
  readonly padded?: boolean;
}

export interface BindOptions {
  /**
   * for row filters (late materialization, worker filters), not pruning: char(n) `=`, `<>`, IN and LIKE
   * prefixes bind as `padded` predicates (statistics of padded strings cannot prune them)
   */
  readonly rows?: boolean;
}

/** Binds a conjunction of ScanPredicates over `columns` (by index). */
export function bindPredicates(filters: readonly ScanPredicate[] | undefined, columns: readonly BindColumn[], options: BindOptions = {}): BoundPredicate {
  if (filters === undefined || filters.length === 0) return TRUE;
  return and(filters.map((f) => bindOne(f, columns, options.rows === true)));
}

type LeafPredicate = Exclude<ScanPredicate, { readonly kind: 'and' | 'or' | 'compareColumns' }>;

/** Iceberg type pairs whose comparison lakegate's row filters make exactly as PostgreSQL does */
function comparablePair(a: PrimitiveType, b: PrimitiveType): boolean {
  const ints = (t: PrimitiveType): boolean => t.name === 'int' || t.name === 'long';
  if (ints(a) || ints(b)) return ints(a) && ints(b);
  if (a.name === b.name) return a.name === 'date' || a.name === 'timestamp' || a.name === 'timestamptz';
  // a date against a timestamp without zone: the date at midnight (timestamptz would need the session's zone)
  return (a.name === 'date' && b.name === 'timestamp') || (a.name === 'timestamp' && b.name === 'date');
}

/** a column pair for row filters; TRUE ("might match") when not one judged exactly, or for pruning */
function bindPair(q: Extract<ScanPredicate, { kind: 'compareColumns' }>, columns: readonly BindColumn[], rows: boolean): BoundPredicate {
  const l = columns[q.column], r = columns[q.other];
  if (!rows || l === undefined || r === undefined || !l.comparable || !r.comparable) return TRUE;
  const lt = l.field.type, rt = r.field.type;
  if (lt.kind !== 'primitive' || rt.kind !== 'primitive' || !comparablePair(lt, rt)) return TRUE;
  return { kind: 'compareFields', op: q.op, leftId: l.field.id, leftType: lt, rightId: r.field.id, rightType: rt };
}

/** PostgreSQL's bpchar comparison ignores trailing blanks (spaces only) */
export const trimBlanks = (s: string): string => s.replace(/ +$/, '');

/**
 * a char(n) `=` / IN for pruning (session 22): the stored strings equal to 'R' ignoring trailing blanks are 'R',
 * 'R ', 'R  ', …, all within ['R', 'R!') — space is the character before '!' — so a file or row group whose
 * bounds miss that range holds none (TPC-H q10's `l_returnflag = 'R'`: the months shipped after mid-1995 hold
 * only 'N'; q21's `o_orderstatus = 'F'`). Anything else: TRUE. Only with `padded` columns (IcebergTableSource's
 * pruning binding); never exact, so no metadata aggregate takes it (its columns are not `padded`).
 */
const MAX_PADDED_RANGES = 64;

function paddedRange(p: LeafPredicate, fieldId: number, type: PrimitiveType): BoundPredicate {
  const range = (v: unknown): BoundPredicate | null => {
    if (typeof v !== 'string') return null;
    const t = trimBlanks(v);
    return and([{ kind: 'compare', op: '>=', fieldId, type, value: t }, { kind: 'compare', op: '<', fieldId, type, value: `${t}!` }]);
  };
  if (p.kind === 'compare' && p.op === '=') {
    if (p.value === null || p.value === undefined) return FALSE;
    return range(p.value) ?? TRUE;
  }
  // a long list (a join's keys) would cost more per row group than it could prune
  if (p.kind !== 'in' || p.values.length > MAX_PADDED_RANGES) return TRUE;
  const arms: BoundPredicate[] = [];
  for (const v of p.values) {
    if (v === null || v === undefined) continue;
    const r = range(v);
    if (r === null) return TRUE;
    arms.push(r);
  }
  return or(arms);
}

/** a char(n) conjunct for row filters: its constants without trailing blanks; TRUE when not one handled */
function bindPadded(p: LeafPredicate, fieldId: number, type: PrimitiveType): BoundPredicate {
  switch (p.kind) {
    case 'compare':
      if (p.value === null || p.value === undefined) return FALSE;
      return (p.op === '=' || p.op === '<>') && typeof p.value === 'string' ? { kind: 'compare', op: p.op, fieldId, type, value: trimBlanks(p.value), padded: true } : TRUE;
    case 'in': {
      const values: string[] = [];
      for (const v of p.values) {
        if (v === null || v === undefined) continue;
        if (typeof v !== 'string') return TRUE;
        values.push(trimBlanks(v));
      }
      return values.length === 0 ? FALSE : { kind: 'in', fieldId, type, values, padded: true };
    }
    case 'startsWith': {
      // a whole pattern on char(n) (its LIKE sees the padding): not judged here
      if (p.like !== undefined) return TRUE;
      // the prefix's own trailing blanks may be the padding of a shorter stored value: a looser prefix
      const prefix = trimBlanks(p.prefix);
      return prefix === '' ? TRUE : { kind: 'startsWith', fieldId, type, prefix, padded: true };
    }
    default: return TRUE;
  }
}

function bindOne(q: ScanPredicate, columns: readonly BindColumn[], rows: boolean): BoundPredicate {
  if (q.kind === 'and' || q.kind === 'or') return (q.kind === 'and' ? and : or)(q.args.map((a) => bindOne(a, columns, rows)));
  if (q.kind === 'compareColumns') return bindPair(q, columns, rows);
  const p = q as LeafPredicate;
  const col = columns[p.column];
  if (col === undefined || col.field.type.kind !== 'primitive') return TRUE;
  const type = col.field.type;
  const fieldId = col.field.id;
  if (p.kind === 'isNull' || p.kind === 'isNotNull') return { kind: p.kind, fieldId, type };
  if (rows && col.padded === true && type.name === 'string') return bindPadded(p, fieldId, type);
  if (!rows && col.padded === true && type.name === 'string') return paddedRange(p, fieldId, type);
  if (!col.comparable || !ORDERED.has(type.name)) return TRUE;
  switch (p.kind) {
    case 'compare': {
      // a comparison with NULL is never true
      if (p.value === null || p.value === undefined) return FALSE;
      const value = normalizeValue(type, p.value);
      return value === undefined ? TRUE : { kind: 'compare', op: p.op, fieldId, type, value };
    }
    case 'in': {
      // a runtime key filter's integer keys are already int's / long's JS values (int-key-list.ts): the same array
      const repr = intKeyListRepr(p.values);
      if (repr !== undefined && (repr === 'number' ? type.name === 'int' : type.name === 'long')) return { kind: 'in', fieldId, type, values: p.values };
      const values: unknown[] = [];
      for (const v of p.values) {
        if (v === null || v === undefined) continue; // x IN (NULL, …) matches no row through the NULL
        const n = normalizeValue(type, v);
        if (n === undefined) return TRUE;
        values.push(n);
      }
      return values.length === 0 ? FALSE : { kind: 'in', fieldId, type, values };
    }
    case 'startsWith':
      if (type.name !== 'string') return TRUE;
      // the whole pattern only for row filters: a pruning stage keeps reading `prefix` alone
      return rows && p.like !== undefined ? { kind: 'startsWith', fieldId, type, prefix: p.prefix, like: p.like } : { kind: 'startsWith', fieldId, type, prefix: p.prefix };
  }
}

/** ids of the fields a predicate references */
export function referencedFieldIds(b: BoundPredicate, out = new Set<number>()): Set<number> {
  if (b.kind === 'and' || b.kind === 'or') for (const a of b.args) referencedFieldIds(a, out);
  else if ('fieldId' in b) out.add(b.fieldId);
  else if (b.kind === 'compareFields') out.add(b.leftId).add(b.rightId);
  return out;
}

/** stable text of a predicate (plan cache key); a runtime key filter's key list by its digest (int-key-list.ts) */
export function predicateKey(b: BoundPredicate): string {
  return JSON.stringify(b, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n`
    : Array.isArray(v) && intKeyListRepr(v) !== undefined ? intKeyListDigest(v)
    : v instanceof Uint8Array ? `x${Buffer.from(v).toString('hex')}`
    : Numeric.isNumeric(v) ? `num:${v.toString()}` : v));
}
