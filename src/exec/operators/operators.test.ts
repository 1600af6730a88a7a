/**
 * Operator-level tests: behaviour not pinned by the SQL end-to-end suite (early stop, cancellation,
 * semi/anti/full hash joins, nested-loop joins, set operations with duplicates and NULLs, window frames,
 * recursive UNION termination, empty aggregates).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Batch } from '../../common/batch.ts';
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import type { TableSource } from '../../catalog/table-source.ts';
import { initParser, type Expr, type LogicalPlan } from '../../sql/index.ts';
import { MemoryCatalog, testSession } from '../../sql/testing/memory-catalog.ts';
import { executePlan, type ExecContext } from '../index.ts';
import { runSql, testRegistry } from '../testing/run-sql.ts';
import { e2eCatalog } from '../testing/e2e-fixture.ts';

beforeAll(async () => { await initParser(); });

const I4 = sqlType(Oid.int4);
const col = (index: number, name = `c${index}`): Expr => ({ kind: 'ColumnRef', index, levelsUp: 0, type: I4, name });
const values = (rows: (number | null)[][]): LogicalPlan => ({
  kind: 'Values', rows: rows.map((r) => r.map((v) => ({ kind: 'Literal', value: v, type: I4 }))), columns: rows[0]!.map((_, i) => ({ name: `c${i}`, type: I4 })),
});

function ctx(signal = new AbortController().signal): ExecContext {
  const session = testSession();
  const catalog = new MemoryCatalog();
  return { session, catalog, transactionTimestamp: 0n, statementTimestamp: 0n, signal, params: [], scan: { signal, session, catalog } };
}

async function rows(plan: LogicalPlan, c = ctx()): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const b of executePlan(plan, c)) for (let i = 0; i < b.length; i++) out.push(b.columns.map((x) => x[i] ?? null));
  return out;
}

function eq(l: Expr, r: Expr): Expr {
  const op = testRegistry().resolveOperator('=', I4, I4);
  return { kind: 'Op', name: '=', def: op.def, left: l, right: r, leftType: I4, rightType: I4, type: sqlType(Oid.bool) };
}

/** a source of `batches` one-row batches that counts how many were pulled */
function countingSource(batches: number): { source: TableSource; pulled: () => number } {
  let pulled = 0;
  return {
    pulled: () => pulled,
    source: {
      columns: [{ name: 'x', type: I4, nullable: true }],
      async *scan(): AsyncIterable<Batch> { for (let i = 0; i < batches; i++) { pulled++; yield { columns: [[i]], length: 1 }; } },
    },
  };
}

describe('operators', () => {
  it('LimitExec stops pulling its input once satisfied', async () => {
    const { source, pulled } = countingSource(1000);
    const scan: LogicalPlan = { kind: 'TableScan', source, name: 'public.s', tableOid: 1, columns: [{ name: 'x', type: I4 }] };
    const plan: LogicalPlan = { kind: 'Limit', input: scan, limit: { kind: 'Literal', value: 3n, type: sqlType(Oid.int8) }, offset: null, columns: scan.columns };
    expect(await rows(plan)).toEqual([[0], [1], [2]]);
    expect(pulled()).toBeLessThanOrEqual(4);
  });

  it('an aborted signal raises 57014', async () => {
    const ac = new AbortController();
    const { source } = countingSource(10);
    const scan: LogicalPlan = { kind: 'TableScan', source, name: 'public.s', tableOid: 1, columns: [{ name: 'x', type: I4 }] };
    ac.abort();
    await expect(rows(scan, ctx(ac.signal))).rejects.toMatchObject({ code: '57014' });
  });

  it('HashJoinExec: semi, anti and full joins; NULL keys never match', async () => {
    const left = values([[1], [2], [null], [3]]);
    const right = values([[2], [2], [null], [4]]);
    const join = (joinType: 'semi' | 'anti' | 'full'): LogicalPlan => ({
      kind: 'Join', joinType, left, right, condition: eq(col(0), col(1)), lateral: false,
      columns: joinType === 'full' ? [...left.columns, ...right.columns] : left.columns,
    });
    expect(await rows(join('semi'))).toEqual([[2]]);
    expect(await rows(join('anti'))).toEqual([[1], [null], [3]]);
    expect(await rows(join('full'))).toEqual([[2, 2], [2, 2], [1, null], [null, null], [3, null], [null, null], [null, 4]]);
  });

  it('NestedLoopJoinExec: non-equi conditions, left join padding', async () => {
    const r = await runSql(e2eCatalog(), 'select t.a, u.a from t left join u on u.a > t.a order by 1, 2');
    expect(r.rows).toEqual([[1, 2], [1, 2], [1, 5], [2, 5], [3, 5], [null, null]]);
  });

  it('SetOpExec: INTERSECT ALL / EXCEPT keep SQL duplicate semantics, NULLs equal', async () => {
    const l = values([[1], [1], [1], [null], [2]]);
    const r = values([[1], [1], [null], [3]]);
    const setop = (op: 'intersect' | 'except', all: boolean): LogicalPlan => ({ kind: 'SetOp', op, all, left: l, right: r, columns: l.columns });
    expect(await rows(setop('intersect', true))).toEqual([[1], [1], [null]]);
    expect(await rows(setop('intersect', false))).toEqual([[1], [null]]);
    expect(await rows(setop('except', true))).toEqual([[1], [2]]);
    expect(await rows(setop('except', false))).toEqual([[2]]);
  });

  it('WindowExec: GROUPS frames and peers (checked on PostgreSQL 15)', async () => {
    const r = await runSql(e2eCatalog(), 'select salary, sum(salary) over (order by salary groups between 1 preceding and current row) from emp order by salary');
    expect(r.rows.map((x) => x.map(String).join('|'))).toEqual(['50|50', '60|110', '80|300', '80|300', '80|300', '100|340']);
  });

  it('RecursiveCteExec: UNION (distinct) stops on a cycle', async () => {
    const r = await runSql(e2eCatalog(), 'with recursive c(n) as (select 1 union select (n % 3) + 1 from c) select n from c order by n');
    expect(r.rows).toEqual([[1], [2], [3]]);
  });

  it('HashAggregateExec: no input gives one row without GROUP BY and none with it', async () => {
    expect((await runSql(e2eCatalog(), 'select count(*), max(a) from t where a > 99')).rows).toEqual([[0n, null]]);
    expect((await runSql(e2eCatalog(), 'select a, count(*) from t where a > 99 group by a')).rows).toEqual([]);
    expect((await runSql(e2eCatalog(), 'select count(*) from t where a > 99 group by rollup(a)')).rows).toEqual([[0n]]);
  });

  it('CASE evaluates lazily (no division by zero in an untaken branch)', async () => {
    const r = await runSql(e2eCatalog(), 'select case when a is null or a = 2 then 0 else 1 / (a - 2) end from t order by a');
    expect(r.rows).toEqual([[-1], [0], [1], [0]]);
  });

  it('ProjectSetExec: SRFs of different lengths run in lock step, padded with NULL', async () => {
    const r = await runSql(e2eCatalog(), 'select generate_series(1, 2), generate_series(1, 3)');
    expect(r.rows).toEqual([[1, 1], [2, 2], [null, 3]]);
  });
});
