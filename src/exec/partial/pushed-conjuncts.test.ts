/**
 * The worker fragment skips a Filter conjunct only for batches the scan marked exact (exact-rows.ts) and only
 * when the conjunct is provably the pushed predicate the scan judged (pushed-conjuncts.ts). The batches here
 * carry rows that FAIL the predicate under a mark — a lying signal — so a skipped conjunct shows in the count:
 * whatever must not be skipped (floats, LIKE other than 'prefix%', char(n) order, an OR arm or AND argument not
 * pushed, a NULL parameter, a judged filter that is not the same predicate) still filters them out.
 */
import { describe, expect, it } from 'vitest';
import type { Batch } from '../../common/batch.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import type { ScanPredicate } from '../../catalog/table-source.ts';
import { conjunctsOf, initParser, type Aggregate, type Expr, type Filter, type LogicalPlan } from '../../sql/index.ts';
import { MemoryCatalog, MemoryTable, testSession } from '../../sql/testing/memory-catalog.ts';
import { bindPredicates, type BoundPredicate } from '../../iceberg/scan/bound-predicate.ts';
import { parseSchema } from '../../iceberg/spec/schema.ts';
import { markExact } from '../../iceberg/parallel/exact-rows.ts';
import { markIntKeyList } from '../../iceberg/scan/int-key-list.ts';
import { pgArray } from '../../common/pgtypes/values.ts';
import type { Env, ExecContext } from '../context.ts';
import { compileExpr } from '../expr/compile-expr.ts';
import { bindSql } from '../testing/run-sql.ts';
import { runFragment, type PartialGroups } from './run-fragment.ts';
import { PushedConjuncts } from './pushed-conjuncts.ts';
import { wireEvalContext } from './worker-eval-context.ts';
import { workerFragmentOf } from './worker-fragment.ts';

const NUM = sqlType(Oid.numeric, ((12 << 16) | 2) + 4);
const columns = [
  { name: 'i', type: sqlType(Oid.int4), nullable: true },
  { name: 'n', type: NUM, nullable: true },
  { name: 's', type: sqlType(Oid.text), nullable: true },
  { name: 'c', type: sqlType(Oid.bpchar, 9), nullable: true },
  { name: 'f', type: sqlType(Oid.float8), nullable: true },
  { name: 'd', type: sqlType(Oid.date), nullable: true },
  { name: 'l', type: sqlType(Oid.int8), nullable: true },
  { name: 'e', type: sqlType(Oid.date), nullable: true },
  { name: 't', type: sqlType(Oid.timestamp), nullable: true },
];
/** the table's Iceberg schema (what a scan worker's fields are) */
const fields = parseSchema({
  type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'i', required: false, type: 'int' },
    { id: 2, name: 'n', required: false, type: 'decimal(12, 2)' },
    { id: 3, name: 's', required: false, type: 'string' },
    { id: 4, name: 'c', required: false, type: 'string' },
    { id: 5, name: 'f', required: false, type: 'double' },
    { id: 6, name: 'd', required: false, type: 'date' },
    { id: 7, name: 'l', required: false, type: 'long' },
    { id: 8, name: 'e', required: false, type: 'date' },
    { id: 9, name: 't', required: false, type: 'timestamp' },
  ],
}).fields;
/** as IcebergTableSource.bindFilters describes its columns for row filters */
const bindColumns = fields.map((field, k) => ({ field, comparable: columns[k]!.type.oid !== Oid.bpchar, padded: columns[k]!.type.oid === Oid.bpchar }));
/** the filter the main thread would send: the pushed predicates bound for rows */
const judgedOf = (filters: readonly ScanPredicate[]): BoundPredicate => bindPredicates(filters, bindColumns, { rows: true });

const ROWS = 200;
const rows: unknown[][] = Array.from({ length: ROWS }, (_v, k) => [
  k % 10 === 0 ? null : k, Numeric.of(BigInt(k * 5), 2), `ab${k % 3}c`, ['ab', 'x', 'ab  '][k % 3], k % 7 === 0 ? NaN : k / 2, 19000 + k, BigInt(k) * 3n,
  k % 9 === 0 ? null : 19100 - k, BigInt(19000 + k) * 86_400_000_000n,
]);

function catalog(): MemoryCatalog {
  const cat = new MemoryCatalog();
  cat.addRelation({ schema: 'public', name: 't', source: new MemoryTable(columns, rows) });
  return cat;
}

function aggregateOf(p: LogicalPlan): Aggregate {
  if (p.kind === 'Aggregate') return p;
  return aggregateOf((p as { input: LogicalPlan }).input);
}

function filterOf(p: LogicalPlan): Expr {
  if (p.kind === 'Filter') return (p as Filter).predicate;
  return filterOf((p as { input: LogicalPlan }).input);
}

function ctxOf(cat: MemoryCatalog, params: unknown[]): ExecContext {
  const session = testSession();
  const ac = new AbortController();
  return { session, catalog: cat, transactionTimestamp: 1n, statementTimestamp: 1n, signal: ac.signal, params, scan: { signal: ac.signal, session, catalog: cat } };
}

/** count(*) of `SELECT count(*) FROM t WHERE <where>` run as a worker fragment over the whole table, marked exact or not */
async function countInWorker(where: string, filters: readonly ScanPredicate[], exact: boolean, params: unknown[] = [], paramOids: number[] = []): Promise<number> {
  await initParser();
  const cat = catalog();
  const agg = aggregateOf(bindSql(cat, `SELECT count(*) FROM t WHERE ${where}`, paramOids.map((o) => sqlType(o))).plan);
  const fragment = workerFragmentOf(agg)!;
  async function* batches(): AsyncIterable<Batch> {
    for (let s = 0; s < ROWS; s += 64) {
      const part = rows.slice(s, s + 64);
      const b: Batch = { length: part.length, columns: fragment.projection.map((c) => part.map((r) => r[c])) };
      yield exact ? markExact(b) : b;
    }
  }
  const judged = { filter: judgedOf(filters), fields: fragment.projection.map((c) => fields[c]!) };
  const out = await runFragment({ fragment, eval: wireEvalContext(ctxOf(cat, params)) }, batches(), () => false, [], judged) as PartialGroups;
  return Number(out.typed?.[0]?.counts?.[0] ?? (out.states[0] as unknown as { values?: unknown[] } | undefined)?.values?.[0] ?? NaN);
}

/** which conjuncts of `where` PushedConjuncts would skip for exact batches */
async function covered(where: string, filters: readonly ScanPredicate[], params: unknown[] = [], paramOids: number[] = []): Promise<boolean[]> {
  await initParser();
  const plan = bindSql(catalog(), `SELECT count(*) FROM t WHERE ${where}`, paramOids.map((o) => sqlType(o))).plan;
  // casts of constants (an unoptimized plan's `'2052-01-08'::date`) evaluated as run-fragment.ts does
  const env: Env = { ctx: ctxOf(catalog(), params), outer: [], workTables: new Map(), run: () => { throw new Error('no subqueries'); } };
  const constant = (e: Expr): unknown => compileExpr(e, env).fn([], 0);
  const pushed = new PushedConjuncts({ filter: judgedOf(filters), fields, projection: fields.map((_f, k) => k), width: columns.length, params, constant });
  return conjunctsOf(filterOf(plan)).map((c) => pushed.covers(c));
}

const lt = (column: number, value: unknown): ScanPredicate => ({ kind: 'compare', op: '<', column, value });

describe('Filter conjuncts skipped for exact batches', () => {
  it('skips a judged conjunct only for marked batches (a lying mark shows: its failing rows are counted)', async () => {
    const matching = rows.filter((r) => r[0] !== null && (r[0] as number) < 50).length;
    expect(await countInWorker('i < 50', [lt(0, 50)], false)).toBe(matching);
    // marked exact: the Filter trusts the scan, so every row of the lying batches comes through
    expect(await countInWorker('i < 50', [lt(0, 50)], true)).toBe(ROWS);
    // the judged filter is another predicate: nothing is skipped, marked or not
    expect(await countInWorker('i < 50', [lt(0, 51)], true)).toBe(matching);
  });

  it('a conjunct the scan did not judge still runs on marked batches (partly judged WHERE)', async () => {
    const nOk = rows.filter((r) => (r[1] as Numeric).compare(Numeric.of(300n, 2)) < 0).length;
    expect(await countInWorker('i < 50 AND n < 3.00', [lt(0, 50)], true)).toBe(nOk);
    expect(await covered('i < 50 AND n < 3.00 AND f < 10', [lt(0, 50), lt(4, 10)])).toEqual([true, false, false]);
  });

  it('covers the exactly judged forms: integers, numeric of another scale, dates, text and char(n) equality, IN, IS NULL, OR, LIKE prefix%', async () => {
    const n = (u: bigint, s: number): Numeric => Numeric.of(u, s);
    expect(await covered('n >= 0.05 AND n <= 0.075', [{ kind: 'compare', op: '>=', column: 1, value: n(5n, 2) }, { kind: 'compare', op: '<=', column: 1, value: n(75n, 3) }])).toEqual([true, true]);
    expect(await covered("d >= '2022-01-08' AND l = 12", [{ kind: 'compare', op: '>=', column: 5, value: 19000 }, { kind: 'compare', op: '=', column: 6, value: 12n }])).toEqual([true, true]);
    expect(await covered("s = 'ab1c' AND c = 'ab' AND c IN ('x', 'ab')", [
      { kind: 'compare', op: '=', column: 2, value: 'ab1c' }, { kind: 'compare', op: '=', column: 3, value: 'ab       ' }, { kind: 'in', column: 3, values: ['x        ', 'ab       '] },
    ])).toEqual([true, true, true]);
    expect(await covered('i IS NULL OR i IN (3, 4)', [{ kind: 'or', args: [{ kind: 'isNull', column: 0 }, { kind: 'in', column: 0, values: [3, 4] }] }])).toEqual([true]);
    expect(await covered("s LIKE 'ab%'", [{ kind: 'startsWith', column: 2, prefix: 'ab' }])).toEqual([true]);
    // a parameter, resolved in the worker
    expect(await covered('i < $1', [lt(0, 50)], [50], [Oid.int4])).toEqual([true]);
  });

  it('skips a comparison of two columns the scan judged as that pair (TPC-H q4: l_commitdate < l_receiptdate)', async () => {
    const pair = (op: '<' | '<=' | '=', column: number, other: number): ScanPredicate => ({ kind: 'compareColumns', op, column, other });
    expect(await covered('d < e', [pair('<', 5, 7)])).toEqual([true]);
    expect(await covered('e >= d AND i < 50', [pair('<', 5, 7), { kind: 'compareColumns', op: '>=', column: 7, other: 5 }, lt(0, 50)])).toEqual([true, true]);
    // int4 against int8: the int4 side is widened, which changes no comparison
    expect(await covered('i = l', [pair('=', 0, 6)])).toEqual([true]);
    // the judged pair is another predicate: another operator, the sides swapped, or another column
    expect(await covered('d < e', [pair('<=', 5, 7)])).toEqual([false]);
    expect(await covered('d < e', [{ kind: 'compareColumns', op: '>', column: 7, other: 5 }])).toEqual([false]);
    expect(await covered('d < e', [pair('<', 5, 5)])).toEqual([false]);
    // not a pair the Arrow pass judges: a date against a timestamp, floats, text; nor an expression of a column
    expect(await covered('d < t', [{ kind: 'compareColumns', op: '<', column: 5, other: 8 }])).toEqual([false]);
    expect(await covered('f < f', [{ kind: 'compareColumns', op: '<', column: 4, other: 4 }])).toEqual([false]);
    expect(await covered('i + 1 < l', [pair('<', 0, 6)])).toEqual([false]);
    // a lying mark shows the skip: every row is counted; unmarked, the pair filters (NULLs on either side drop)
    const matching = rows.filter((r) => r[5] !== null && r[7] !== null && (r[5] as number) < (r[7] as number)).length;
    expect(matching).toBeGreaterThan(0);
    expect(await countInWorker('d < e', [pair('<', 5, 7)], false)).toBe(matching);
    expect(await countInWorker('d < e', [pair('<', 5, 7)], true)).toBe(ROWS);
  });

  it('never skips what is not provably the judged predicate', async () => {
    // floats: NaN is above every number in PostgreSQL
    expect(await covered('f < 10', [lt(4, 10)])).toEqual([false]);
    // LIKE with more after the prefix pushes only the prefix
    expect(await covered("s LIKE 'ab%c'", [{ kind: 'startsWith', column: 2, prefix: 'ab' }])).toEqual([false]);
    // char(n) order is not pushed (binds to "might match")
    expect(await covered("c < 'b'", [lt(3, 'b        ')])).toEqual([false]);
    // an OR arm that is not pushed: only the pushed arms reach the scan, so the OR may be weaker
    expect(await covered('i < 5 OR f < 1', [lt(0, 5)])).toEqual([false]);
    // an AND inside an OR with an unpushable argument
    expect(await covered('(i < 5 AND f < 1) OR i = 7', [{ kind: 'or', args: [lt(0, 5), { kind: 'compare', op: '=', column: 0, value: 7 }] }])).toEqual([false]);
    // a NULL parameter: the Filter is never TRUE, the pushed AND would drop it
    expect(await covered('(i < $1 AND i > 2)', [{ kind: 'compare', op: '>', column: 0, value: 2 }], [null], [Oid.int4])).toEqual([false, true]);
    // numeric against a value of another scale is a different predicate
    expect(await covered('n < 3.001', [lt(1, Numeric.of(300n, 2))])).toEqual([false]);
    // NaN, an infinite float and a NaN numeric do not bind
    expect(await covered("n < 'NaN'::numeric", [lt(1, Numeric.of(0n, 0))])).toEqual([false]);
    // two columns, or an expression of the column
    expect(await covered('i < l', [])).toEqual([false]);
    expect(await covered('i + 1 < 50', [lt(0, 49)])).toEqual([false]);
  });

  it('answers remembered by content do not carry over to a scan that differs in params, judged filter or fields', async () => {
    // the same conjunct text, asked again of new judged-filter objects: each answer is its own scan's
    for (let round = 0; round < 2; round++) {
      expect(await covered('i < $1', [lt(0, 50)], [50], [Oid.int4])).toEqual([true]);
      expect(await covered('i < $1', [lt(0, 50)], [49], [Oid.int4])).toEqual([false]);
      expect(await covered('i < $1', [lt(0, 49)], [50], [Oid.int4])).toEqual([false]);
      expect(await covered("s = 'ab1c'", [{ kind: 'compare', op: '=', column: 2, value: 'ab1c' }])).toEqual([true]);
    }
    // the fields read: the same judged keys over a row-lineage field (never exact) must not reuse the answer
    await initParser();
    const plan = bindSql(catalog(), 'SELECT count(*) FROM t WHERE i < 50', []).plan;
    const conjunct = conjunctsOf(filterOf(plan))[0]!;
    const judge = (f: typeof fields): boolean => new PushedConjuncts({ filter: judgedOf([lt(0, 50)]), fields: f, projection: f.map((_x, k) => k), width: columns.length, params: [] }).covers(conjunct);
    expect(judge(fields)).toBe(true);
    const lineage = [{ ...fields[0]!, id: 2147483540, name: '_row_id' }, ...fields.slice(1)];
    expect(judge(lineage)).toBe(false);
    expect(judge(fields)).toBe(true);
  });

  it('a runtime key filter\'s marked key list is the judged filter when its keys are (the scan\'s digest form)', async () => {
    await initParser();
    const plan = bindSql(catalog(), 'SELECT count(*) FROM t WHERE l = ANY($1)', [sqlType(Oid._int8)]).plan;
    const any = conjunctsOf(filterOf(plan))[0]!;
    if (any.kind !== 'ScalarArrayOp') throw new Error(`not a ScalarArrayOp: ${any.kind}`);
    /** the conjunct with its key list as runtime-key-filter.ts makes it: one array literal, marked */
    const keyed = (keys: bigint[]): Expr => {
      expect(markIntKeyList(keys)).toBe(true);
      return { ...any, op: { ...any.op, right: { kind: 'Literal', value: pgArray(Oid.int8, keys), type: any.op.right.type } } };
    };
    const keys = Array.from({ length: 500 }, (_v, k) => BigInt(k) * 3n);
    // the scan's pushed filter: the same marked array, resolved and bound whole (resolve-pushed.ts, bound-predicate.ts)
    const judge = (conjunct: Expr, scanKeys: bigint[]): boolean => new PushedConjuncts({
      filter: judgedOf([{ kind: 'in', column: 6, values: scanKeys }]), fields, projection: fields.map((_f, k) => k), width: columns.length, params: [],
    }).covers(conjunct);
    expect(judge(keyed(keys), keys)).toBe(true);
    // another list of the same keys, marked too: the digest is of the keys
    expect(judge(keyed([...keys]), keys)).toBe(true);
    // one key differs: not the judged predicate
    const other = [...keys];
    other[250] = 1n;
    expect(judge(keyed(other), keys)).toBe(false);
    // a marked list over a column of another type (the int4 i): not this form
    const onI = { ...any, op: { ...any.op, left: { kind: 'ColumnRef', index: 0, levelsUp: 0, type: sqlType(Oid.int4), name: 'i' } } } as Expr;
    expect(judge({ ...onI, op: { ...(onI as typeof any).op, right: (keyed(keys) as typeof any).op.right } } as Expr, keys)).toBe(false);
  });
});
