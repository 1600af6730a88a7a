/**
 * The RowDescription columns of what a session runs: a bound plan's (kept per plan), a utility statement's
 * (Describe of SHOW, EXPLAIN, FETCH) and the single text columns of utility results.
 */
import type { ResultColumn } from '../wire/handler.ts';
import type { BoundColumn, BoundQuery } from '../sql/index.ts';
import { typeInfo } from '../common/pgtypes/index.ts';
import { nodeBody, nodeKind } from './ast.ts';
import type { Cursor } from './statements/cursor-stmt.ts';

/** RowDescription columns of a bound plan, computed once per plan (bound plans are immutable and cached) */
const RESULT_COLUMNS = new WeakMap<BoundQuery, readonly ResultColumn[]>();
export function resultColumnsOf(bound: BoundQuery): readonly ResultColumn[] {
  let columns = RESULT_COLUMNS.get(bound);
  if (columns === undefined) RESULT_COLUMNS.set(bound, (columns = toResultColumns(bound.columns)));
  return columns;
}

export function toResultColumns(columns: readonly BoundColumn[]): ResultColumn[] {
  return columns.map((c) => ({
    name: c.name,
    tableOid: c.tableOid,
    columnAttr: c.attnum,
    typeOid: c.type.oid,
    typeSize: typeInfo(c.type.oid)?.typlen ?? -1,
    typeMod: c.type.typmod,
  }));
}

export function textColumn(name: string): ResultColumn {
  return { name, tableOid: 0, columnAttr: 0, typeOid: 25, typeSize: -1, typeMod: -1 };
}

export function showColumnName(name: string): string {
  const lower = name.toLowerCase();
  if (lower === 'transaction_isolation' || lower === 'transaction isolation level') return 'transaction_isolation';
  if (lower === 'timezone') return 'TimeZone';
  if (lower === 'datestyle') return 'DateStyle';
  if (lower === 'intervalstyle') return 'IntervalStyle';
  if (lower === 'session_authorization' || lower === 'session authorization') return 'session_authorization';
  return lower;
}

/** whether a query statement returns rows: a SELECT, or DML with RETURNING */
export function returnsRows(ast: unknown): boolean {
  const kind = nodeKind(ast);
  if (kind === 'SelectStmt') return true;
  const r = nodeBody(ast).returningList;
  return Array.isArray(r) && r.length > 0;
}

/** RowDescription of the utility statements that return rows (for Describe) */
export function utilityColumns(ast: unknown, cursors: ReadonlyMap<string, Cursor>): readonly ResultColumn[] | null {
  const kind = nodeKind(ast);
  // FETCH describes as its cursor's rows (PostgreSQL's UtilityTupleDescriptor); MOVE and unknown cursors: NoData
  if (kind === 'FetchStmt') {
    const body = nodeBody(ast);
    return body.ismove === true ? null : cursors.get(String(body.portalname ?? ''))?.columns ?? null;
  }
  if (kind === 'VariableShowStmt') {
    const name = String(nodeBody(ast).name ?? '');
    if (name.toLowerCase() === 'all') return [textColumn('name'), textColumn('setting'), textColumn('description')];
    return [textColumn(showColumnName(name))];
  }
  if (kind === 'ExplainStmt') return [textColumn('QUERY PLAN')];
  return null;
}
