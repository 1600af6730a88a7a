/**
 * The domains PostgreSQL's information_schema is typed with (cardinal_number, character_data, sql_identifier,
 * time_stamp, yes_or_no): information_schema.domains / domain_constraints, their CHECK constraints in pg_constraint
 * and check_constraints, and which information_schema columns they type (pg_attribute.atttypid,
 * information_schema.columns.domain_name). The values of those columns are their base types' (a result column's
 * type on the wire is the base type in PostgreSQL too). pgJDBC's getUDTs and psql's \dD information_schema.* list them.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/catalog/information_schema.sql
 */
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import { domainChecks, domainColumnList, otherType, otherTypeRows, type DomainCheck } from '../other-types.ts';
import type { CatalogRow } from '../system-table.ts';
import { NamespaceOid } from '../well-known-oids.ts';
import { infoSchemaTypeColumns } from './information-schema-types.ts';

/** pg_collation rows information_schema names (the "default" collation, 100, it leaves out) */
const COLLATION_NAMES: Readonly<Record<number, string>> = { 950: 'C', 951: 'POSIX' };

const schemaName = (oid: unknown): string => (oid === NamespaceOid.information_schema ? 'information_schema' : 'pg_catalog');

export function* domainsRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const db = snap.catalog.database;
  for (const t of otherTypeRows()) {
    if (t['typtype'] !== 'd') continue;
    const collation = COLLATION_NAMES[t['typcollation'] as number];
    const { udt_schema, udt_name, ...type } = infoSchemaTypeColumns(t['typbasetype'] as number, t['typtypmod'] as number);
    yield {
      domain_catalog: db, domain_schema: schemaName(t['typnamespace']), domain_name: t['typname'],
      character_set_catalog: null, character_set_schema: null, character_set_name: null,
      collation_catalog: collation === undefined ? null : db, collation_schema: collation === undefined ? null : 'pg_catalog',
      collation_name: collation ?? null, ...type, domain_default: t['typdefault'],
      udt_catalog: db, udt_schema, udt_name, scope_catalog: null, scope_schema: null, scope_name: null,
      maximum_cardinality: null, dtd_identifier: '1',
    };
  }
}

export function* domainConstraintsRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const db = snap.catalog.database;
  for (const [, conname, connamespace, contypid] of domainChecks()) {
    const t = otherType(contypid);
    if (t === undefined) continue;
    yield {
      constraint_catalog: db, constraint_schema: schemaName(connamespace), constraint_name: conname,
      domain_catalog: db, domain_schema: schemaName(t['typnamespace']), domain_name: t['typname'],
      is_deferrable: 'NO', initially_deferred: 'NO',
    };
  }
}

/** column_domain_usage: the columns each domain types (information_schema's own: lakegate's tables use none) */
export function* columnDomainUsageRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const db = snap.catalog.database;
  for (const [relOid, attnum, domain] of domainColumnList()) {
    const rel = snap.relationByOid(relOid);
    const column = rel === undefined ? undefined : snap.columnsOf(rel)[attnum - 1];
    const t = otherType(domain);
    if (rel === undefined || column === undefined || t === undefined) continue;
    yield {
      domain_catalog: db, domain_schema: schemaName(t['typnamespace']), domain_name: t['typname'],
      table_catalog: db, table_schema: rel.schema, table_name: rel.name, column_name: column.name,
    };
  }
}

/** domain_udt_usage: each domain's base type */
export function* domainUdtUsageRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const db = snap.catalog.database;
  for (const t of otherTypeRows()) {
    if (t['typtype'] !== 'd') continue;
    const { udt_schema, udt_name } = infoSchemaTypeColumns(t['typbasetype'] as number, t['typtypmod'] as number);
    yield { udt_catalog: db, udt_schema, udt_name, domain_catalog: db, domain_schema: schemaName(t['typnamespace']), domain_name: t['typname'] };
  }
}

/** information_schema.check_constraints' rows of the domains' checks: the text after `CHECK ` */
export function* domainCheckClauseRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const [, conname, connamespace, , definition] of domainChecks()) {
    yield { constraint_catalog: snap.catalog.database, constraint_schema: schemaName(connamespace), constraint_name: conname, check_clause: definition.slice(6) };
  }
}

/** pg_constraint rows of the domains' checks (contype 'c', contypid the domain, conbin as pg_get_expr prints it) */
export function* pgDomainConstraintRows(): Iterable<CatalogRow> {
  for (const [oid, conname, connamespace, contypid, , , expression] of domainChecks()) {
    yield {
      oid, conname, connamespace, contype: 'c', condeferrable: false, condeferred: false, convalidated: true,
      conrelid: 0, contypid, conindid: 0, conparentid: 0, confrelid: 0, confupdtype: ' ', confdeltype: ' ',
      confmatchtype: ' ', conislocal: true, coninhcount: 0, connoinherit: false, conkey: null, confkey: null,
      conpfeqop: null, conppeqop: null, conffeqop: null, confdelsetcols: null, conexclop: null, conbin: expression,
    };
  }
}

/** pg_get_constraintdef of a domain's check (`pretty`: psql's \dD form), undefined for other OIDs */
export function domainConstraintDefinition(oid: number, pretty: boolean): string | undefined {
  const check: DomainCheck | undefined = domainChecks().find((c) => c[0] === oid);
  return check === undefined ? undefined : pretty ? check[5] : check[4];
}
