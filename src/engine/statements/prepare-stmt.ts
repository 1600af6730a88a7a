/**
 * SQL-level PREPARE / EXECUTE / DEALLOCATE. DEALLOCATE also reaches protocol-level prepared statements
 * (psycopg 3 and psqlODBC deallocate those with SQL), through the hook wire/ installs.
 * @see https://www.postgresql.org/docs/current/sql-prepare.html
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { rowsOfBatch } from '../../common/batch.ts';
import { typeInfo } from '../../common/pgtypes/index.ts';
import type { EngineSession } from '../engine-session.ts';
import { executePlan } from '../../exec/index.ts';
import type { ParsedStatement } from '../../sql/index.ts';
import type { UtilityHandler } from './route-utility.ts';
import { nodeBody } from '../ast.ts';
import { sqlTypeOf } from './type-name.ts';

export const runPrepare: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  const name = String(body.name ?? '');
  if (session.sqlPrepared.has(name)) throw pgError(SqlState.duplicate_prepared_statement, `prepared statement "${name}" already exists`);
  const argTypes = Array.isArray(body.argtypes) ? body.argtypes.map((t) => resolveTypeOid(t)) : [];
  const inner: ParsedStatement = { ast: body.query, text: stmt.text, location: stmt.location };
  const prepared = await session.prepareParsed(inner, argTypes);
  session.sqlPrepared.set(name, { name, statement: stmt.text, prepared, prepareTime: BigInt(Date.now()) * 1000n });
  return { kind: 'command', tag: 'PREPARE' };
};

export const runExecute: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  const name = String(body.name ?? '');
  const entry = session.sqlPrepared.get(name);
  if (entry === undefined) throw pgError(SqlState.invalid_sql_statement_name, `prepared statement "${name}" does not exist`);
  const args = Array.isArray(body.params) ? body.params : [];
  const expected = entry.prepared.paramTypes.length;
  if (args.length !== expected) {
    throw pgError(SqlState.syntax_error, `wrong number of parameters for prepared statement "${name}"`, {
      detail: `Expected ${expected} parameters but got ${args.length}.`,
    });
  }
  const params = await evaluateArgs(session, args, entry.prepared.paramTypes);
  const parsed = entry.prepared.parsed;
  if (parsed === null) return { kind: 'empty' };
  return session.runParsed(parsed, params, entry.prepared);
};

export const runDeallocate: UtilityHandler = async (session, stmt) => {
  const name = nodeBody(stmt.ast).name;
  if (typeof name !== 'string') {
    session.sqlPrepared.clear();
    session.onDeallocate?.(null);
    return { kind: 'command', tag: 'DEALLOCATE ALL' };
  }
  const had = session.sqlPrepared.delete(name);
  const closed = session.onDeallocate?.(name) ?? false;
  if (!had && !closed) throw pgError(SqlState.invalid_sql_statement_name, `prepared statement "${name}" does not exist`);
  return { kind: 'command', tag: 'DEALLOCATE' };
};

export function resolveTypeOid(typeName: unknown): number {
  return sqlTypeOf(typeName).oid;
}

/** EXECUTE's arguments are expressions: evaluate them as `SELECT $args::types` */
async function evaluateArgs(session: EngineSession, args: unknown[], types: readonly number[]): Promise<unknown[]> {
  if (args.length === 0) return [];
  const targetList = args.map((arg, i) => ({
    ResTarget: { val: { TypeCast: { arg, typeName: { names: [{ String: { sval: typeInfo(types[i] ?? 0)?.typname ?? 'text' } }], typemod: -1 } } } },
  }));
  const ast = { SelectStmt: { targetList, limitOption: 'LIMIT_OPTION_DEFAULT', op: 'SETOP_NONE' } };
  const bound = session.bind(ast, []);
  for await (const batch of executePlan(bound.plan, session.execContext([]))) {
    const rows = rowsOfBatch(batch);
    if (rows.length > 0) return rows[0]!;
  }
  return args.map(() => null);
}
