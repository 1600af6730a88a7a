/**
 * The system relations: every pg_catalog and information_schema table and view of PostgreSQL 15 as a
 * RelationInfo with PostgreSQL's OIDs, row types, column names, order and types (data/system-relation-defs.ts).
 * The ones clients read have row producers (tables/); the rest are present and empty, so queries against them
 * bind and return no rows instead of failing.
 */
import type { RelationInfo, SchemaInfo } from '../catalog/catalog-view.ts';
import type { ColumnDef } from '../catalog/table-source.ts';
import { sqlType } from '../common/pgtypes/index.ts';
import type { SystemCatalog } from './catalog-snapshot.ts';
import { SYSTEM_RELATION_DEFS } from './data/system-relation-defs.ts';
import type { FunctionCatalog } from './function-catalog.ts';
import { setFunctionCatalog } from './function-catalog.ts';
import { SystemTable } from './system-table.ts';
import { SYSTEM_ROW_PRODUCERS } from './tables/index.ts';
import { NamespaceOid } from './well-known-oids.ts';

export interface SystemCatalogOptions {
  /** the function registry pg_proc/pg_operator/pg_cast/pg_aggregate are generated from */
  readonly functions?: FunctionCatalog;
}

/** pg_catalog (11), pg_toast (99), public (2200), information_schema (13207): the schemas PostgreSQL creates. */
export function systemSchemas(): SchemaInfo[] {
  return [
    { oid: NamespaceOid.pg_catalog, name: 'pg_catalog', owner: 'lakegate', comment: 'system catalog schema' },
    { oid: NamespaceOid.pg_toast, name: 'pg_toast', owner: 'lakegate', comment: 'reserved schema for TOAST tables' },
    { oid: NamespaceOid.public, name: 'public', owner: 'lakegate', comment: 'standard public schema' },
    { oid: NamespaceOid.information_schema, name: 'information_schema', owner: 'lakegate' },
  ];
}

/** Builds every system relation. Rows are computed at scan time from the scan's CatalogView and SessionView. */
export function createSystemRelations(options: SystemCatalogOptions = {}): RelationInfo[] {
  if (options.functions !== undefined) setFunctionCatalog(options.functions);
  const system: { relations: RelationInfo[]; schemas: SchemaInfo[]; functions?: FunctionCatalog } = {
    relations: [],
    schemas: systemSchemas(),
  };
  if (options.functions !== undefined) system.functions = options.functions;
  for (const [schema, name, oid, rowTypeOid, kind, cols] of SYSTEM_RELATION_DEFS) {
    const columns: ColumnDef[] = cols.map(([colName, typeOid, typmod, notNull]) => ({
      name: colName,
      type: sqlType(typeOid, typmod),
      nullable: !notNull,
    }));
    const source = new SystemTable(`${schema}.${name}`, columns, SYSTEM_ROW_PRODUCERS[`${schema}.${name}`], () => system);
    system.relations.push({
      oid,
      schema,
      schemaOid: schema === 'pg_catalog' ? NamespaceOid.pg_catalog : NamespaceOid.information_schema,
      name,
      kind,
      persistence: 'p',
      rowTypeOid,
      source,
      ...(kind === 'v' ? { viewDefinition: `SELECT * FROM ${schema}.${name}` } : {}),
    });
  }
  return system.relations;
}

let defaultCatalog: SystemCatalog | undefined;

/** The system catalog functions consult (regclass names, pg_get_* lookups) when the CatalogView lacks them. */
export function defaultSystemCatalog(): SystemCatalog {
  if (defaultCatalog === undefined) defaultCatalog = { relations: createSystemRelations(), schemas: systemSchemas() };
  return defaultCatalog;
}
