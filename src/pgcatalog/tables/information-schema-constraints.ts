/**
 * information_schema views about constraints: table_constraints, key_column_usage, constraint_column_usage,
 * check_constraints, referential_constraints (foreign keys are metadata only). As in PostgreSQL 15, every NOT NULL
 * column of a table also appears as a CHECK constraint named <nspoid>_<reloid>_<attnum>_not_null.
 * @see https://www.postgresql.org/docs/15/infoschema-table-constraints.html
 */
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import { quoteIdent } from '../catalog-snapshot.ts';
import type { CatalogRow } from '../system-table.ts';
import { foreignKeyConstraints } from './foreign-key-constraints.ts';
import { domainCheckClauseRows } from './information-schema-domains.ts';
import { constraintIndexes, constraintTypeOf } from './relation-indexes.ts';

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
  for (const pk of constraintIndexes(snap)) {
    yield { ...common, constraint_schema: pk.rel.schema, constraint_name: pk.name, table_schema: pk.rel.schema, table_name: pk.rel.name, constraint_type: constraintTypeOf(pk) === 'u' ? 'UNIQUE' : 'PRIMARY KEY' };
  }
  for (const c of foreignKeyConstraints(snap)) {
    yield { ...common, constraint_schema: c.rel.schema, constraint_name: c.fk.name, table_schema: c.rel.schema, table_name: c.rel.name, constraint_type: 'FOREIGN KEY' };
  }
  for (const nn of notNullConstraints(snap)) {
    yield { ...common, constraint_schema: nn.schema, constraint_name: nn.name, table_schema: nn.schema, table_name: nn.table, constraint_type: 'CHECK' };
  }
}

export function* checkConstraintsRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const nn of notNullConstraints(snap)) {
    yield { constraint_catalog: snap.catalog.database, constraint_schema: nn.schema, constraint_name: nn.name, check_clause: `${quoteIdent(nn.column)} IS NOT NULL` };
  }
  // pg_constraint's CHECK constraints: information_schema's domains' (tables have none)
  yield* domainCheckClauseRows(snap);
}

export function* keyColumnUsageRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const db = snap.catalog.database;
  for (const pk of constraintIndexes(snap)) {
    const cols = snap.columnsOf(pk.rel);
    for (let i = 0; i < pk.attnums.length; i++) {
      yield {
        constraint_catalog: db, constraint_schema: pk.rel.schema, constraint_name: pk.name, table_catalog: db,
        table_schema: pk.rel.schema, table_name: pk.rel.name, column_name: cols[pk.attnums[i]! - 1]?.name ?? null,
        ordinal_position: i + 1, position_in_unique_constraint: null,
      };
    }
  }
  for (const c of foreignKeyConstraints(snap)) {
    const cols = snap.columnsOf(c.rel);
    // position_in_unique_constraint: where the referenced column sits in the referenced key
    const refKey = c.ref.primaryKey?.map((p) => p + 1) ?? c.refAttnums;
    for (let i = 0; i < c.attnums.length; i++) {
      const pos = refKey.indexOf(c.refAttnums[i]!);
      yield {
        constraint_catalog: db, constraint_schema: c.rel.schema, constraint_name: c.fk.name, table_catalog: db,
        table_schema: c.rel.schema, table_name: c.rel.name, column_name: cols[c.attnums[i]! - 1]?.name ?? null,
        ordinal_position: i + 1, position_in_unique_constraint: pos < 0 ? i + 1 : pos + 1,
      };
    }
  }
}

export function* referentialConstraintsRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const db = snap.catalog.database;
  for (const c of foreignKeyConstraints(snap)) {
    yield {
      constraint_catalog: db, constraint_schema: c.rel.schema, constraint_name: c.fk.name,
      unique_constraint_catalog: c.uniqueConstraint === null ? null : db,
      unique_constraint_schema: c.uniqueConstraint === null ? null : c.ref.schema,
      unique_constraint_name: c.uniqueConstraint?.name ?? null,
      match_option: 'NONE', update_rule: 'NO ACTION', delete_rule: 'NO ACTION',
    };
  }
}

export function* constraintColumnUsageRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const db = snap.catalog.database;
  for (const pk of constraintIndexes(snap)) {
    const cols = snap.columnsOf(pk.rel);
    for (const n of pk.attnums) {
      yield {
        table_catalog: db, table_schema: pk.rel.schema, table_name: pk.rel.name, column_name: cols[n - 1]?.name ?? null,
        constraint_catalog: db, constraint_schema: pk.rel.schema, constraint_name: pk.name,
      };
    }
  }
  // a foreign key "uses" the referenced columns
  for (const c of foreignKeyConstraints(snap)) {
    const cols = snap.columnsOf(c.ref);
    for (const n of c.refAttnums) {
      yield {
        table_catalog: db, table_schema: c.ref.schema, table_name: c.ref.name, column_name: cols[n - 1]?.name ?? null,
        constraint_catalog: db, constraint_schema: c.rel.schema, constraint_name: c.fk.name,
      };
    }
  }
}
