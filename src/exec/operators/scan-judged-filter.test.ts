/**
 * The main thread's Filter over an Iceberg scan skips the conjuncts the scan judged exactly, and only for
 * batches marked exact (iceberg/parallel/exact-rows.ts). A real Iceberg table (two files) gives the source the
 * proof binds against; the batches fed to the Filter are either the table's own scan (late materialization
 * marks them) or hand-made rows that FAIL the predicate under a mark — a lying signal — so a skipped conjunct
 * shows in the count, while an absent mark, a conjunct the scan did not judge, a judged filter that is another
 * predicate, and a long key list (not offered as judged) all still filter — unless it is a runtime key filter's
 * marked integer key list (no pass per key to prove it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlCatalog, type IcebergCatalog } from '../../catalog/iceberg/index.ts';
import { FileIO } from '../../storage/index.ts';
import { icebergIOFromFileIO } from '../../iceberg/io.ts';
import { writableIcebergIO, type IcebergWriteIO } from '../../iceberg/write/write-io.ts';
import { createIcebergTable } from '../../iceberg/commit/create-table.ts';
import { insertIntoIcebergTable } from '../../iceberg/commit/table-writer.ts';
import { loadTableMetadata } from '../../iceberg/spec/metadata-file.ts';
import { currentSchema } from '../../iceberg/spec/table-metadata.ts';
import { IcebergTableSource } from '../../iceberg/iceberg-table-source.ts';
import { isExact, markExact } from '../../iceberg/parallel/exact-rows.ts';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import { batchFromRows, type Batch } from '../../common/batch.ts';
import { initParser, type Filter, type LogicalPlan, type OpExpr, type PushedPredicate, type TableScan } from '../../sql/index.ts';
import { MemoryCatalog, testSession } from '../../sql/testing/memory-catalog.ts';
import { bindSql } from '../testing/run-sql.ts';
import type { Env, ExecContext } from '../context.ts';
import type { ExecOperator } from '../operator.ts';
import { FilterExec } from './filter-exec.ts';
import { resolveFilters } from '../optimizer/resolve-pushed.ts';
import { withKeyFilter } from '../runtime-key-filter.ts';

const INT4 = sqlType(Oid.int4), DATE = sqlType(Oid.date), CHAR4 = sqlType(Oid.bpchar, 8), FLOAT8 = sqlType(Oid.float8);
/**
 * rows k = 0 … 199: i = k (NULL every 10th), d = day 19000 + k, c = 'ab' / 'x' / 'ab  ', f = k / 2 (NaN every 7th),
 * e = day 19100 - k (NULL every 9th)
 */
const row = (k: number): unknown[] => [k % 10 === 0 ? null : k, 19000 + k, ['ab', 'x', 'ab  '][k % 3], k % 7 === 0 ? NaN : k / 2, k % 9 === 0 ? null : 19100 - k];
const WIDTH = 5;
const ROWS = Array.from({ length: 200 }, (_v, k) => row(k));

async function* one(rows: unknown[][]): AsyncIterable<Batch> {
  yield batchFromRows(rows, WIDTH);
}

const lit = (value: unknown, type = INT4) => ({ kind: 'Literal' as const, value, type });
const cmp = (op: '<' | '=' | '>=', column: number, value: unknown, type = INT4): PushedPredicate => ({ kind: 'compare', op, column, value: lit(value, type) });

describe('FilterExec over an Iceberg scan: judged conjuncts skipped for exact batches only', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-judged-'));
  const fileIO = new FileIO();
  const io: IcebergWriteIO = writableIcebergIO(icebergIOFromFileIO(fileIO), fileIO);
  const id = { namespace: ['ns'], name: 't' };
  let catalog: IcebergCatalog;
  let source: IcebergTableSource;
  const cat = new MemoryCatalog();

  beforeAll(async () => {
    await initParser();
    catalog = await openSqlCatalog({ warehouse });
    await catalog.createNamespace(['ns']);
    await createIcebergTable(catalog, io, id, [
      { name: 'i', type: INT4, nullable: true },
      { name: 'd', type: DATE, nullable: true },
      { name: 'c', type: CHAR4, nullable: true },
      { name: 'f', type: FLOAT8, nullable: true },
      { name: 'e', type: DATE, nullable: true },
    ]);
    const load = async () => loadTableMetadata(io, (await catalog.loadTableLocation(id)).metadataLocation);
    for (const part of [ROWS.slice(0, 100), ROWS.slice(100)]) {
      const md = await load();
      await insertIntoIcebergTable({ catalog, io, id }, md, currentSchema(md), one(part));
    }
    source = new IcebergTableSource(io, await load());
    cat.addRelation({ schema: 'public', name: 't', source });
  });
  afterAll(async () => {
    await catalog.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  function ctxOf(params: unknown[]): ExecContext {
    const session = testSession();
    const ac = new AbortController();
    return { session, catalog: cat, transactionTimestamp: 1n, statementTimestamp: 1n, signal: ac.signal, params, scan: { signal: ac.signal, session, catalog: cat } };
  }

  function filterOf(p: LogicalPlan): Filter {
    if (p.kind === 'Filter') return p;
    return filterOf((p as { input: LogicalPlan }).input);
  }

  /** the bound WHERE of `SELECT * FROM t WHERE <where>` over a scan that pushed `filters` */
  function planOf(where: string, filters: readonly PushedPredicate[], paramOids: number[] = []): Filter {
    const f = filterOf(bindSql(cat, `SELECT * FROM t WHERE ${where}`, paramOids.map((o) => sqlType(o))).plan);
    const scan = f.input as TableScan;
    return { ...f, input: { ...scan, filters } };
  }

  async function run(plan: Filter, batches: readonly Batch[], params: unknown[] = []): Promise<number> {
    const input: ExecOperator = { name: 'Batches', children: [], execute: async function* () { yield* batches; } };
    const env: Env = { ctx: ctxOf(params), outer: [], workTables: new Map(), run: () => { throw new Error('no subqueries'); } };
    let n = 0;
    for await (const b of new FilterExec(plan, input, env).execute()) n += b.length;
    return n;
  }

  /** all 200 rows in batches of 64, marked exact or not (rows failing the predicate: a lying mark when marked) */
  const batches = (exact: boolean): Batch[] => {
    const out: Batch[] = [];
    for (let s = 0; s < ROWS.length; s += 64) {
      const b = batchFromRows(ROWS.slice(s, s + 64), WIDTH);
      out.push(exact ? markExact(b) : b);
    }
    return out;
  };
  const count = (keep: (r: unknown[]) => boolean): number => ROWS.filter(keep).length;
  const iBelow = (r: unknown[], n: number): boolean => r[0] !== null && (r[0] as number) < n;

  it('the scan marks its batches and the Filter keeps exactly the matching rows', async () => {
    const plan = planOf("i < 50 AND c = 'ab' AND f < 20", [cmp('<', 0, 50), cmp('=', 2, 'ab  ', CHAR4)]);
    const scanned: Batch[] = [];
    const scan = plan.input as TableScan;
    for await (const b of source.scan({ signal: new AbortController().signal, filters: resolveFilters(scan, [])!, projection: [0, 1, 2, 3, 4] })) scanned.push(b);
    // late materialization judged both pushed conjuncts: every batch arrives marked, through the widening too
    expect(scanned.length).toBeGreaterThan(0);
    expect(scanned.every(isExact)).toBe(true);
    const want = count((r) => iBelow(r, 50) && (r[2] as string).trimEnd() === 'ab' && (r[3] as number) < 20);
    expect(await run(plan, scanned)).toBe(want);
  });

  it('a comparison of two date columns (TPC-H q4: l_commitdate < l_receiptdate): the scan marks its batches, the Filter skips the pair', async () => {
    const plan = planOf('d < e AND i < 80', [{ kind: 'compareColumns', op: '<', column: 1, other: 4 }, cmp('<', 0, 80)]);
    const scanned: Batch[] = [];
    const scan = plan.input as TableScan;
    for await (const b of source.scan({ signal: new AbortController().signal, filters: resolveFilters(scan, [])!, projection: [0, 1, 4] })) scanned.push(b);
    expect(scanned.length).toBeGreaterThan(0);
    expect(scanned.every(isExact)).toBe(true);
    const pairHolds = (r: unknown[]): boolean => r[1] !== null && r[4] !== null && (r[1] as number) < (r[4] as number);
    const want = count((r) => pairHolds(r) && iBelow(r, 80));
    expect(want).toBeGreaterThan(0);
    expect(await run(plan, scanned)).toBe(want);
    // a lying mark shows the skip: both conjuncts are the judged ones, so every row comes through
    expect(await run(plan, batches(true))).toBe(ROWS.length);
    expect(await run(plan, batches(false))).toBe(want);
    // the scan judged the pair the other way round (or not at all): the Filter still evaluates it on marked batches
    expect(await run(planOf('d < e AND i < 80', [{ kind: 'compareColumns', op: '>', column: 4, other: 1 }, cmp('<', 0, 80)]), batches(true))).toBe(count(pairHolds));
    expect(await run(planOf('d < e AND i < 80', [cmp('<', 0, 80)]), batches(true))).toBe(count(pairHolds));
  });

  it('skips the judged conjuncts only for marked batches (a lying mark shows: its failing rows come through)', async () => {
    const plan = planOf('i < 50', [cmp('<', 0, 50)]);
    expect(await run(plan, batches(false))).toBe(count((r) => iBelow(r, 50)));
    expect(await run(plan, batches(true))).toBe(ROWS.length);
  });

  it('still evaluates on marked batches what the scan did not judge', async () => {
    // f < 20: floats are never skipped (NaN); d >= …: not among the scan's filters
    const plan = planOf("i < 50 AND f < 20 AND d >= '2022-01-08'::date", [cmp('<', 0, 50)]);
    expect(await run(plan, batches(true))).toBe(count((r) => (r[3] as number) < 20 && (r[1] as number) >= 19000));
    expect(await run(plan, batches(false))).toBe(count((r) => iBelow(r, 50) && (r[3] as number) < 20));
    // the scan judged another predicate (i < 51): nothing is skipped
    expect(await run(planOf('i < 50', [cmp('<', 0, 51)]), batches(true))).toBe(count((r) => iBelow(r, 50)));
  });

  it("offers a runtime key filter's marked key list as judged: its Filter above the scan (an aggregate brought to the main thread) skips it", async () => {
    // TPC-H q21's per-order min/max with 70,000 orders keys: the aggregate runs here, the scan keeps the key list
    const agg = bindSql(cat, 'SELECT i, count(*) FROM t GROUP BY i').plan;
    const eq = filterOf(bindSql(cat, 'SELECT * FROM t WHERE i = 1').plan).predicate as OpExpr;
    const keys = Array.from({ length: 65 }, (_v, k) => k);
    const plan = filterOf(withKeyFilter(agg, 0, eq, keys)!.plan);
    const scan = plan.input as TableScan;
    expect(scan.filters?.map((f) => f.kind)).toEqual(['in']);
    const inKeys = (r: unknown[]): boolean => iBelow(r, 65);
    // over the scan's own batches (a small table's key lookup may not mark them) the Filter keeps exactly the rows with a key
    const scanned: Batch[] = [];
    for await (const b of source.scan({ signal: new AbortController().signal, filters: resolveFilters(scan, [])!, projection: [0, 1, 2, 3, 4] })) scanned.push(b);
    expect(await run(plan, scanned)).toBe(count(inKeys));
    // a lying mark shows the skip; unmarked batches still probe the keys
    expect(await run(plan, batches(true))).toBe(ROWS.length);
    expect(await run(plan, batches(false))).toBe(count(inKeys));
  });

  it('does not offer a long key list as judged (a runtime key filter), and keeps NULL parameters out', async () => {
    const keys = Array.from({ length: 65 }, (_v, k) => k);
    const plan = planOf(`i IN (${keys.join(', ')})`, [{ kind: 'in', column: 0, values: keys.map((k) => lit(k)) }]);
    expect(await run(plan, batches(true))).toBe(count((r) => iBelow(r, 65)));
    // i < $1 with $1 NULL is never TRUE; the pushed form would be dropped from the scan
    const p = planOf('i < $1', [{ kind: 'compare', op: '<', column: 0, value: { kind: 'Param', index: 0, type: INT4 } as never }], [Oid.int4]);
    expect(await run(p, batches(true), [null])).toBe(0);
    expect(await run(p, batches(true), [30])).toBe(ROWS.length);
  });
});
