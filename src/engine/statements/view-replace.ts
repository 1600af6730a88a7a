/**
 * CREATE OR REPLACE VIEW over an existing relation, checked as PostgreSQL's DefineVirtualRelation and
 * checkViewTupleDesc do: only a view can be replaced (42809), and the new query must keep every column's
 * name and type in place (42P16); columns may only be added at the end. Views reading this one keep binding.
 * An Iceberg view that only another engine can run (no `postgresql` SQL) is replaced whole.
 * @see https://www.postgresql.org/docs/current/sql-createview.html
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { formatType } from '../../common/pgtypes/format-type.ts';
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import type { ColumnDef } from '../../catalog/table-source.ts';
import { ForeignViewSource } from '../view-source.ts';

const INVALID_TABLE_DEFINITION = '42P16';

export function checkViewReplacement(existing: RelationInfo, columns: readonly ColumnDef[]): void {
  if (existing.kind !== 'v') throw pgError(SqlState.wrong_object_type, `"${existing.name}" is not a view`);
  if (existing.source instanceof ForeignViewSource) return; // another engine's view: lakegate's own version replaces it whole
  const old = existing.source.columns;
  if (columns.length < old.length) throw pgError(INVALID_TABLE_DEFINITION, 'cannot drop columns from view');
  old.forEach((was, i) => {
    const now = columns[i]!;
    if (now.name !== was.name) {
      throw pgError(INVALID_TABLE_DEFINITION, `cannot change name of view column "${was.name}" to "${now.name}"`, {
        hint: 'Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.',
      });
    }
    if (now.type.oid !== was.type.oid || now.type.typmod !== was.type.typmod) {
      throw pgError(INVALID_TABLE_DEFINITION, `cannot change data type of view column "${was.name}" from ${formatType(was.type.oid, was.type.typmod)} to ${formatType(now.type.oid, now.type.typmod)}`);
    }
  });
}
