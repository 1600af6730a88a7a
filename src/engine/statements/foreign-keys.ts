/**
 * FOREIGN KEY / REFERENCES in CREATE TABLE: validated as PostgreSQL validates them (referenced table and
 * columns exist, column counts agree, a referenced table without columns named needs a primary key) and kept
 * as metadata (RelationInfo.foreignKeys → pg_constraint contype 'f', information_schema, pg_get_constraintdef)
 * so that psql \d, pgJDBC getImportedKeys, psqlODBC SQLForeignKeys and SQLAlchemy reflection see them.
 * lakegate does not enforce them.
 * @see https://www.postgresql.org/docs/15/sql-createtable.html
 */
import { pgError, undefinedTable } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { ForeignKeyInfo } from '../../catalog/catalog-view.ts';
import type { ColumnDef } from '../../catalog/table-source.ts';
import type { EngineSession } from '../engine-session.ts';
import { rangeVarName, stringList } from '../ast.ts';
import { lookupRelation } from './ddl.ts';

/** A CONSTR_FOREIGN node body, with the referencing column when it was written on a column */
export interface PendingForeignKey {
  readonly constraint: Record<string, unknown>;
  readonly column?: string;
}

/** Resolves the pending constraints of table `tableName` (its columns given); self-references are skipped. */
export function resolveForeignKeys(session: EngineSession, schema: string, tableName: string, columns: readonly ColumnDef[], pending: readonly PendingForeignKey[]): ForeignKeyInfo[] {
  const out: ForeignKeyInfo[] = [];
  const taken = new Set<string>();
  for (const { constraint: con, column } of pending) {
    const fkNames = column !== undefined ? [column] : stringList(con.fk_attrs);
    const local = fkNames.map((n) => {
      const i = columns.findIndex((c) => c.name === n);
      if (i < 0) throw pgError(SqlState.undefined_column, `column "${n}" referenced in foreign key constraint does not exist`);
      return i;
    });
    const rv = rangeVarName(con.pktable);
    if ((rv.schema === undefined || rv.schema === schema) && rv.name === tableName) continue; // self-reference: not kept
    const ref = lookupRelation(session, rv.schema === undefined ? [rv.name] : [rv.schema, rv.name]);
    if (ref === undefined) throw undefinedTable(rv.schema === undefined ? rv.name : `${rv.schema}.${rv.name}`);
    const refCols = ref.source.columns;
    const pkNames = stringList(con.pk_attrs);
    let refPositions: number[];
    if (pkNames.length === 0) {
      if (ref.primaryKey === undefined || ref.primaryKey.length === 0) {
        throw pgError(SqlState.invalid_foreign_key, `there is no primary key for referenced table "${ref.name}"`);
      }
      refPositions = [...ref.primaryKey];
    } else {
      refPositions = pkNames.map((n) => {
        const i = refCols.findIndex((c) => c.name === n);
        if (i < 0) throw pgError(SqlState.undefined_column, `column "${n}" referenced in foreign key constraint does not exist`);
        return i;
      });
    }
    if (refPositions.length !== local.length) {
      throw pgError(SqlState.invalid_foreign_key, 'number of referencing and referenced columns for foreign key disagree');
    }
    out.push({ oid: session.catalog.db.allocOid(), name: constraintName(con, tableName, fkNames, taken), columns: local, refRelationOid: ref.oid, refColumns: refPositions });
  }
  return out;
}

/** PostgreSQL's ChooseConstraintName: <table>_<col>[_<col>…]_fkey, made unique with a number */
function constraintName(con: Record<string, unknown>, table: string, cols: readonly string[], taken: Set<string>): string {
  if (typeof con.conname === 'string' && con.conname !== '') return con.conname;
  const base = `${table}_${cols.join('_')}`.slice(0, 63 - 5);
  let name = `${base}_fkey`;
  for (let n = 1; taken.has(name); n++) name = `${base}_fkey${n}`;
  taken.add(name);
  return name;
}
