/**
 * ALTER TABLE on a MemoryTable (public tables without a warehouse, temp tables): each change builds a new
 * MemoryTable (columns + rewritten batches) that replaces the old one under the same OID, so a ROLLBACK that
 * restores the temp relation list gets the untouched old table back. Values of an added column's DEFAULT
 * and of ALTER COLUMN … TYPE … [USING …] are computed by a query over the table itself, so they go through
 * the ordinary cast and expression machinery (one value per row, in scan order).
 */
import { batchOf, type Batch } from '../../common/batch.ts';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { SqlType } from '../../common/pgtypes/oids.ts';
import { formatType } from '../../common/pgtypes/format-type.ts';
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import type { ColumnDef } from '../../catalog/table-source.ts';
import { executePlan } from '../../exec/index.ts';
import { parseSql } from '../../sql/index.ts';
import type { EngineSession } from '../engine-session.ts';
import { quoteIdent } from '../ast.ts';
import { MemoryTable } from '../memory-table.ts';

export interface MemoryAlterState {
  rel: RelationInfo;
  columns: ColumnDef[];
  /** per existing batch, its column arrays */
  batches: unknown[][][];
  lengths: number[];
}

export function memoryAlterState(rel: RelationInfo, table: MemoryTable): MemoryAlterState {
  const data = table.snapshot();
  return { rel, columns: [...table.columns], batches: data.map((b) => b.columns.map((c) => [...c])), lengths: data.map((b) => b.length) };
}

/** the new table and relation (same OID) for the changed state */
export function finishMemoryAlter(state: MemoryAlterState, name: string): { table: MemoryTable; rel: RelationInfo } {
  const table = new MemoryTable(state.columns, name);
  table.relOid = state.rel.oid;
  const batches: Batch[] = state.batches.map((cols, i) => batchOf(cols, state.lengths[i]));
  table.replace(batches);
  return { table, rel: { ...state.rel, name, source: table } };
}

/**
 * `SELECT (expr)::type FROM <the table>` over the table as it currently is in the catalog: one value per
 * row, split back into the state's batch lengths
 */
export async function valuesPerRow(session: EngineSession, state: MemoryAlterState, exprSql: string, type: SqlType): Promise<unknown[][]> {
  const total = state.lengths.reduce((a, b) => a + b, 0);
  if (total === 0) return state.lengths.map(() => []);
  const from = `${quoteIdent(state.rel.schema)}.${quoteIdent(state.rel.name)}`;
  const [stmt] = parseSql(`SELECT CAST((${exprSql}) AS ${formatType(type.oid, type.typmod)}) FROM ${from}`);
  const bound = session.bind(stmt!.ast, []);
  const all: unknown[] = [];
  for await (const b of executePlan(bound.plan, session.execContext([]))) for (const v of b.columns[0] ?? []) all.push(v);
  const out: unknown[][] = [];
  let at = 0;
  for (const n of state.lengths) {
    out.push(all.slice(at, at + n));
    at += n;
  }
  return out;
}

export function checkNoNulls(state: MemoryAlterState, column: number, table: string): void {
  const name = state.columns[column]!.name;
  for (const cols of state.batches) {
    if ((cols[column] ?? []).some((v) => v === null || v === undefined)) {
      throw pgError(SqlState.not_null_violation, `column "${name}" of relation "${table}" contains null values`, { table, column: name });
    }
  }
}

/** removes column `i` and fixes the column positions of the relation's keys and indexes (PostgreSQL drops the ones using it) */
export function dropMemoryColumn(state: MemoryAlterState, i: number): void {
  state.columns.splice(i, 1);
  for (const cols of state.batches) cols.splice(i, 1);
  const shift = (xs: readonly number[]): number[] | null => (xs.includes(i) ? null : xs.map((x) => (x > i ? x - 1 : x)));
  const { primaryKey, foreignKeys, indexes, ...rest } = state.rel;
  const pk = primaryKey === undefined ? null : shift(primaryKey);
  const fks = (foreignKeys ?? []).flatMap((fk) => {
    const cols = shift(fk.columns);
    return cols === null ? [] : [{ ...fk, columns: cols }];
  });
  const ixs = (indexes ?? []).flatMap((ix) => {
    const cols = shift(ix.columns);
    return cols === null ? [] : [{ ...ix, columns: cols }];
  });
  state.rel = { ...rest, ...(pk === null ? {} : { primaryKey: pk }), ...(fks.length > 0 ? { foreignKeys: fks } : {}), ...(ixs.length > 0 ? { indexes: ixs } : {}) };
}
