/**
 * information_schema views about constraints: table_constraints, key_column_usage, constraint_column_usage,
 * check_constraints, referential_constraints (empty: no foreign keys yet). As in PostgreSQL 15, every NOT NULL
 * column of a table also appears as a CHECK constraint named <nspoid>_<reloid>_<attnum>_not_null.
 * @see https://www.postgresql.org/docs/15/infoschema-table-constraints.html
 */
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import { quoteIdent } from '../catalog-snapshot.ts';
import type { CatalogRow } from '../system-table.ts';
import { primaryKeyIndexes } from './relation-indexes.ts';

interface NotNullConstraint { schema: string; table: string; name: string; column: string }

function notNullConstraints(snap: CatalogSnapshot): NotNullConstraint[] {
  const out: NotNullConstraint[] = [];
  for (const rel of snap.relations) {
    if (rel.kind !== 'r' && rel.kind !== 'p') continue;
    const cols = snap.columnsOf(rel);
    for (let i = 0; i < cols.length; i++) {
      if (!cols[i]!.nullable) out.push({ schema: rel.schema, table: rel.name, name: `${rel.schemaOid}_${rel.oid}_${i + 1}_not_null`, column: cols[i]!.name });
    }
  }
  return out;
}

export function* tableConstraintsRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const db = snap.catalog.database;
  const common = { constraint_catalog: db, table_catalog: db, is_deferrable: 'NO', initially_deferred: 'NO', enforced: 'YES' };
  for (const pk of primaryKeyIndexes(snap)) {
    yield { ...common, constraint_schema: pk.rel.schema, constraint_name: pk.name, table_schema: pk.rel.schema, table_name: pk.rel.name, constraint_type: 'PRIMARY KEY' };
  }
  for (const nn of notNullConstraints(snap)) {
    yield { ...common, constraint_schema: nn.schema, constraint_name: nn.name, table_schema: nn.schema, table_name: nn.table, constraint_type: 'CHECK' };
  }
}

export function* checkConstraintsRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const nn of notNullConstraints(snap)) {
    yield { constraint_catalog: snap.catalog.database, constraint_schema: nn.schema, constraint_name: nn.name, check_clause: `${quoteIdent(nn.column)} IS NOT NULL` };
  }
}

export function* keyColumnUsageRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const db = snap.catalog.database;
  for (const pk of primaryKeyIndexes(snap)) {
    const cols = snap.columnsOf(pk.rel);
    for (let i = 0; i < pk.attnums.length; i++) {
      yield {
        constraint_catalog: db, constraint_schema: pk.rel.schema, constraint_name: pk.name, table_catalog: db,
        table_schema: pk.rel.schema, table_name: pk.rel.name, column_name: cols[pk.attnums[i]! - 1]?.name ?? null,
        ordinal_position: i + 1, position_in_unique_constraint: null,
      };
    }
  }
}

export function* constraintColumnUsageRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const db = snap.catalog.database;
  for (const pk of primaryKeyIndexes(snap)) {
    const cols = snap.columnsOf(pk.rel);
    for (const n of pk.attnums) {
      yield {
        table_catalog: db, table_schema: pk.rel.schema, table_name: pk.rel.name, column_name: cols[n - 1]?.name ?? null,
        constraint_catalog: db, constraint_schema: pk.rel.schema, constraint_name: pk.name,
      };
    }
  }
}
