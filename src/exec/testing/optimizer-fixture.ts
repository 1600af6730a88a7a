/**
 * Test fixture of the optimizer tests: the e2e tables as StrictTables (pushdowns taken literally) plus an
 * `ev` table of dates, timestamps, int8, float and text, and a runner that optimizes with a chosen set of
 * rules switched off.
 */
import { Oid, sqlType, type SqlType } from '../../common/pgtypes/oids.ts';
import { explainPlan, initParser, type LogicalPlan } from '../../sql/index.ts';
import { MemoryCatalog, testSession } from '../../sql/testing/memory-catalog.ts';
import type { ExecContext } from '../context.ts';
import { executeOptimized } from '../planner.ts';
import { optimizePlan, type OptimizedPlan } from '../optimizer/optimizer.ts';
import { OPTIMIZER_RULE_NAMES } from '../optimizer/rule-names.ts';
import { bindSql } from './run-sql.ts';
import { StrictTable } from './strict-table.ts';

const col = (name: string, oid: number) => ({ name, type: sqlType(oid), nullable: true });
const DAY = 86_400_000_000n;

export function strictCatalog(): MemoryCatalog {
  const cat = new MemoryCatalog();
  const add = (name: string, t: StrictTable): unknown => cat.addRelation({ schema: 'public', name, source: t });
  add('t', new StrictTable([col('a', Oid.int4), col('b', Oid.text)], [[1, 'x'], [2, 'y'], [3, null], [null, 'z']]));
  add('u', new StrictTable([col('a', Oid.int4), col('c', Oid.text)], [[1, 'one'], [2, 'two'], [2, 'deux'], [5, 'five']]));
  add('emp', new StrictTable(
    [col('id', Oid.int4), col('name', Oid.text), col('dept', Oid.text), col('salary', Oid.int8), col('mgr', Oid.int4)],
    [[1, 'ann', 'eng', 100n, null], [2, 'bob', 'eng', 80n, 1], [3, 'cid', 'ops', 80n, 1], [4, 'dan', 'ops', 60n, 3], [5, 'eve', 'eng', 80n, 2], [6, 'fay', null, 50n, null]],
  ));
  // d = day k of 2024 (19723 = 2024-01-01), ts = that day at k hours
  add('ev', new StrictTable(
    [col('id', Oid.int8), col('d', Oid.date), col('ts', Oid.timestamp), col('s', Oid.varchar), col('f', Oid.float8), col('k', Oid.int2), { name: 'c', type: sqlType(Oid.bpchar, 7), nullable: true }],
    // c is char(3): stored blank-padded, as the engine's inserts store it
    Array.from({ length: 40 }, (_, k) => [BigInt(k), 19723 + k, (19723n + BigInt(k)) * DAY + BigInt(k) * 3_600_000_000n, k % 7 === 0 ? null : `s${k % 5}_${k}`, k / 4, k % 3, k % 11 === 0 ? null : k % 2 === 0 ? 'ab ' : 'x  ']),
  ));
  return cat;
}

export interface OptimizedRun {
  readonly rows: unknown[][];
  readonly optimized: OptimizedPlan;
}

export function testContext(cat: MemoryCatalog, params: readonly unknown[] = [], settings: Record<string, string> = {}): ExecContext {
  const session = testSession(settings);
  const ac = new AbortController();
  return {
    session, catalog: cat, transactionTimestamp: 1700000000000000n, statementTimestamp: 1700000000000000n, signal: ac.signal, params,
    scan: { signal: ac.signal, session, catalog: cat },
  };
}

export function bindPlan(cat: MemoryCatalog, sql: string, paramTypes: SqlType[] = []): LogicalPlan {
  return bindSql(cat, sql, paramTypes).plan;
}

/** runs `sql` with the named rules off ('all' = every rule off) */
export async function runWithRules(cat: MemoryCatalog, sql: string, disabled: readonly string[] | 'all', params: unknown[] = [], paramOids: number[] = []): Promise<OptimizedRun> {
  await initParser();
  const plan = bindPlan(cat, sql, paramOids.map((o) => sqlType(o)));
  const ctx = testContext(cat, params);
  const optimized = optimizePlan(plan, ctx, new Set(disabled === 'all' ? OPTIMIZER_RULE_NAMES : disabled));
  const rows: unknown[][] = [];
  for await (const b of executeOptimized(optimized.plan, ctx)) for (let i = 0; i < b.length; i++) rows.push(b.columns.map((c) => c[i] ?? null));
  return { rows, optimized };
}

/** rows as sortable text (order-insensitive comparison) */
export function sortedRows(rows: readonly unknown[][]): string[] {
  return rows.map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))).sort();
}

/** EXPLAIN lines of `sql` optimized with only `rules` on (all rules when omitted) */
export function optimizedExplain(cat: MemoryCatalog, sql: string, rules?: readonly string[], paramTypes: SqlType[] = []): string[] {
  const plan = bindPlan(cat, sql, paramTypes);
  const off = rules === undefined ? [] : OPTIMIZER_RULE_NAMES.filter((n) => !rules.includes(n));
  return explainPlan(optimizePlan(plan, testContext(cat), new Set(off)).plan);
}

/** `plan` optimized with only `rule` switched off (or, with `alone`, with only `rule` on) */
export function optimizeWith(cat: MemoryCatalog, plan: LogicalPlan, rule: string, alone: boolean): LogicalPlan {
  const off = alone ? OPTIMIZER_RULE_NAMES.filter((n) => n !== rule) : [rule];
  return optimizePlan(plan, testContext(cat), new Set(off)).plan;
}
