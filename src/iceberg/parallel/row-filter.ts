/**
 * The pushed predicates (scan/bound-predicate.ts) applied to decoded rows: by late materialization on the
 * filter columns of each row group (read/late-materialization.ts, main thread and workers), or inside a scan
 * worker after decoding when that is off, so rows that cannot match never cross threads. Pushdown is inexact (catalog/table-source.ts): the executor evaluates the
 * full WHERE again, so a row is dropped only when the predicate is certainly not TRUE for it (NULL compares
 * are never true), and anything this filter cannot judge (a field not decoded, a NaN) is kept.
 */
import type { Batch } from '../../common/batch.ts';
import { compareOpTest, compareValues, trimBlanks, type BoundPredicate, type CompareOp } from '../scan/bound-predicate.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { likeStringTest } from '../read/like-string-test.ts';
import { pairValueTest } from '../read/arrow-column-pair.ts';

/** true = keep the row (it may match); only the columns of the predicate's fields are read */
export type RowTest = (columns: readonly (readonly unknown[])[], r: number) => boolean;

const KEEP: RowTest = () => true;
const DROP: RowTest = () => false;

const isNaNValue = (v: unknown): boolean => typeof v === 'number' && Number.isNaN(v);

/** a JS Set can decide equality for these types (same value ⇔ same SQL value) */
const SET_TYPES = new Set(['int', 'long', 'date', 'time', 'timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns', 'string', 'boolean']);

/** one Set per IN list (compile runs per file task; the list is shared by the tasks of a scan) */
const valueSets = new WeakMap<readonly unknown[], ReadonlySet<unknown>>();

function valueSet(values: readonly unknown[]): ReadonlySet<unknown> {
  let set = valueSets.get(values);
  if (set === undefined) valueSets.set(values, (set = new Set<unknown>(values)));
  return set;
}

function compile(p: BoundPredicate, columnOfField: ReadonlyMap<number, number>): RowTest {
  switch (p.kind) {
    case 'true': return KEEP;
    case 'false': return DROP;
    case 'and': {
      const tests = p.args.map((a) => compile(a, columnOfField)).filter((t) => t !== KEEP);
      if (tests.includes(DROP)) return DROP;
      return tests.length === 0 ? KEEP : (cols, r) => tests.every((t) => t(cols, r));
    }
    case 'or': {
      const tests = p.args.map((a) => compile(a, columnOfField)).filter((t) => t !== DROP);
      if (tests.includes(KEEP)) return KEEP;
      return tests.length === 0 ? DROP : (cols, r) => tests.some((t) => t(cols, r));
    }
    case 'compareFields': {
      // two columns of the row (read/arrow-column-pair.ts); one not decoded here: nothing judged
      const a = columnOfField.get(p.leftId), b = columnOfField.get(p.rightId);
      return a === undefined || b === undefined ? KEEP : pairValueTest(p, a, b);
    }
    default: break;
  }
  const c = columnOfField.get(p.fieldId);
  if (c === undefined) return KEEP;
  if ('padded' in p && p.padded === true) return paddedTest(p, c);
  switch (p.kind) {
    case 'isNull': return (cols, r) => cols[c]![r] === null;
    case 'isNotNull': return (cols, r) => cols[c]![r] !== null;
    case 'startsWith': {
      const prefix = p.prefix;
      // the whole LIKE / NOT LIKE pattern when it came along (the Arrow pass judges it on bytes; here on strings):
      // a NULL is never kept, as LIKE on NULL is not true
      const like = p.like === undefined ? null : likeStringTest(p.like.pattern);
      if (like !== null) {
        const negated = p.like!.negated;
        return (cols, r) => {
          const v = cols[c]![r];
          return typeof v === 'string' ? like(v) !== negated : v !== null;
        };
      }
      return (cols, r) => {
        const v = cols[c]![r];
        return typeof v === 'string' ? v.startsWith(prefix) : v !== null;
      };
    }
    case 'compare': {
      const test = compareOpTest(p.op);
      const { type, value } = p;
      return (cols, r) => {
        const v = cols[c]![r];
        if (v === null || v === undefined) return false;
        if (isNaNValue(v)) return true;
        return test(compareValues(type, v, value));
      };
    }
    case 'in': {
      const { type, values } = p;
      if (SET_TYPES.has(type.name)) {
        // built on first use, once per values array: a runtime key filter's list (up to 100,000 keys) is one
        // array per scan (filter-wire.ts), and the Arrow pass (arrow-row-filter.ts) usually judges it alone
        let set: ReadonlySet<unknown> | undefined;
        return (cols, r) => {
          const v = cols[c]![r];
          return v !== null && v !== undefined && (set ??= valueSet(values)).has(v);
        };
      }
      return (cols, r) => {
        const v = cols[c]![r];
        if (v === null || v === undefined) return false;
        if (isNaNValue(v)) return true;
        return values.some((x) => compareValues(type as PrimitiveType, v, x) === 0);
      };
    }
  }
}

/** a char(n) conjunct: the stored string without its trailing blanks against the bound constants */
function paddedTest(p: Extract<BoundPredicate, { padded?: true }>, c: number): RowTest {
  const trimmed = (cols: readonly (readonly unknown[])[], r: number): string | null => {
    const v = cols[c]![r];
    return typeof v === 'string' ? trimBlanks(v) : null;
  };
  switch (p.kind) {
    case 'compare': {
      const { value } = p;
      const eq = p.op === '=';
      return (cols, r) => {
        const v = trimmed(cols, r);
        return v !== null && (v === value) === eq;
      };
    }
    case 'in': {
      const { values } = p;
      let set: ReadonlySet<unknown> | undefined;
      return (cols, r) => {
        const v = trimmed(cols, r);
        return v !== null && (set ??= valueSet(values)).has(v);
      };
    }
    case 'startsWith': {
      const { prefix } = p;
      return (cols, r) => trimmed(cols, r)?.startsWith(prefix) === true;
    }
  }
}

/** The per-row test of `p` (columns by `columnOfField`), or null when `p` filters nothing here. */
export function compileRowTest(p: BoundPredicate, columnOfField: ReadonlyMap<number, number>): RowTest | null {
  const test = compile(p, columnOfField);
  return test === KEEP ? null : test;
}

/**
 * A function dropping the rows of a batch that cannot satisfy `p`, or null when `p` filters nothing here.
 * `columnOfField`: field id → index of that field's column in the batches.
 */
export function compileRowFilter(p: BoundPredicate, columnOfField: ReadonlyMap<number, number>): ((b: Batch) => Batch) | null {
  const test = compileRowTest(p, columnOfField);
  if (test === null) return null;
  return (b) => {
    const keep: number[] = [];
    for (let r = 0; r < b.length; r++) if (test(b.columns, r)) keep.push(r);
    if (keep.length === b.length) return b;
    return { length: keep.length, columns: b.columns.map((col) => keep.map((r) => col[r])) };
  };
}
