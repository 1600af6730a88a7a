/**
 * Test helper: parse → bind → execute one SQL statement over a MemoryCatalog, returning columns and rows.
 */
import { sqlType, type SqlType } from '../../common/pgtypes/oids.ts';
import { getDefaultRegistry, type FunctionRegistry } from '../../functions/index.ts';
import { setReturningFunctions } from '../../functions/set-returning-functions.ts';
import { bindQuery, initParser, parseSql, type BoundQuery } from '../../sql/index.ts';
import { MemoryCatalog, testSession } from '../../sql/testing/memory-catalog.ts';
import { executePlan } from '../index.ts';
import type { ExecContext } from '../context.ts';

export interface SqlResult {
  readonly columns: BoundQuery['columns'];
  readonly rows: unknown[][];
  readonly paramTypes: readonly SqlType[];
}

let registry: FunctionRegistry | undefined;

/** the default registry, plus the set-returning functions while index.ts does not register them yet */
export function testRegistry(): FunctionRegistry {
  if (registry === undefined) {
    registry = getDefaultRegistry();
    if (registry.routines('generate_series').length === 0) registry.registerRoutines(setReturningFunctions);
  }
  return registry;
}

export function bindSql(catalog: MemoryCatalog, sql: string, paramTypes: SqlType[] = []): BoundQuery {
  const stmts = parseSql(sql);
  return bindQuery(stmts[0]!.ast, { catalog, searchPath: ['pg_catalog', 'public'], functions: testRegistry(), paramTypes });
}

export async function runSql(catalog: MemoryCatalog, sql: string, params: unknown[] = [], paramOids: number[] = []): Promise<SqlResult> {
  await initParser();
  const q = bindSql(catalog, sql, paramOids.map((o) => sqlType(o)));
  const session = testSession();
  const ac = new AbortController();
  const ctx: ExecContext = {
    session, catalog, transactionTimestamp: 1700000000000000n, statementTimestamp: 1700000000000000n, signal: ac.signal, params,
    scan: { signal: ac.signal, session, catalog },
  };
  const rows: unknown[][] = [];
  for await (const b of executePlan(q.plan, ctx)) for (let i = 0; i < b.length; i++) rows.push(b.columns.map((c) => c[i] ?? null));
  return { columns: q.columns, rows, paramTypes: q.paramTypes };
}
