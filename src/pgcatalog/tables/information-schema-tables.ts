/**
 * information_schema views about schemas and relations: schemata, tables, views, columns, and the
 * single-row information_schema_catalog_name / character_sets. Computed from the same snapshot as pg_catalog.
 * @see https://www.postgresql.org/docs/15/information-schema.html
 */
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import type { CatalogRow } from '../system-table.ts';
import { domainColumnType, otherType } from '../other-types.ts';
import { NamespaceOid } from '../well-known-oids.ts';
import { infoSchemaTypeColumns } from './information-schema-types.ts';
import { viewDefinitionOf } from './pg-views.ts';
import { columnSequence, shownDefault } from './pg-sequence.ts';

const yesNo = (b: boolean): string => (b ? 'YES' : 'NO');

export function* schemataRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const s of snap.schemas) {
    yield { catalog_name: snap.catalog.database, schema_name: s.name, schema_owner: snap.session.user };
  }
}

function tableType(rel: RelationInfo): string | null {
  if (rel.persistence === 't') return 'LOCAL TEMPORARY';
  switch (rel.kind) {
    case 'r': case 'p': return 'BASE TABLE';
    case 'v': return 'VIEW';
    case 'f': return 'FOREIGN';
    default: return null;
  }
}

export function* tablesRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const rel of snap.relations) {
    const type = tableType(rel);
    if (type === null) continue;
    yield {
      table_catalog: snap.catalog.database, table_schema: rel.schema, table_name: rel.name, table_type: type,
      is_insertable_into: yesNo(rel.kind === 'r' || rel.kind === 'p'), is_typed: 'NO',
      commit_action: rel.persistence === 't' ? 'PRESERVE' : null,
    };
  }
}

export function* viewsRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const rel of snap.relations) {
    if (rel.kind !== 'v') continue;
    yield {
      table_catalog: snap.catalog.database, table_schema: rel.schema, table_name: rel.name,
      view_definition: viewDefinitionOf(rel, snap, false), check_option: 'NONE', is_updatable: 'NO',
      is_insertable_into: 'NO', is_trigger_updatable: 'NO', is_trigger_deletable: 'NO', is_trigger_insertable_into: 'NO',
    };
  }
}

/** rows of system relations, which never change (per database name, which the rows carry) */
const systemColumnRows = new WeakMap<RelationInfo, { db: string; rows: readonly CatalogRow[] }>();

export function* columnsRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const db = snap.catalog.database;
  for (const rel of snap.relations) {
    if (rel.kind === 'i' || rel.kind === 'S') continue;
    const cached = systemColumnRows.get(rel);
    if (cached !== undefined && cached.db === db) {
      yield* cached.rows;
      continue;
    }
    const rows = [...relationColumns(snap, rel, db)];
    if (rel.schemaOid === 11 || rel.schemaOid === 13207) systemColumnRows.set(rel, { db, rows });
    yield* rows;
  }
}

function* relationColumns(snap: CatalogSnapshot, rel: RelationInfo, db: string): Iterable<CatalogRow> {
  const cols = snap.columnsOf(rel);
  for (let i = 0; i < cols.length; i++) {
    const c = cols[i]!;
    const seq = rel.kind === 'r' ? columnSequence(snap, rel, c.name) : undefined;
    const identity = seq !== undefined && seq.identity !== '' ? seq : undefined;
    yield {
      table_catalog: db, table_schema: rel.schema, table_name: rel.name, column_name: c.name,
      ordinal_position: i + 1, column_default: identity === undefined && c.defaultExpr !== undefined ? shownDefault(snap, c.defaultExpr) : null, is_nullable: yesNo(c.nullable),
      ...infoSchemaTypeColumns(c.type.oid, c.type.typmod),
      ...domainColumns(rel, i + 1, db),
      udt_catalog: db, dtd_identifier: String(i + 1), is_self_referencing: 'NO', is_identity: yesNo(identity !== undefined),
      identity_cycle: yesNo(identity?.options.cycle === true), is_generated: 'NEVER', is_updatable: yesNo(rel.kind === 'r' || rel.kind === 'p'),
      ...(identity === undefined ? {} : {
        identity_generation: identity.identity === 'a' ? 'ALWAYS' : 'BY DEFAULT', identity_start: String(identity.options.start),
        identity_increment: String(identity.options.increment), identity_maximum: String(identity.options.max), identity_minimum: String(identity.options.min),
      }),
    };
  }
}

/** domain_catalog / _schema / _name of an information_schema column typed by one of its domains */
function domainColumns(rel: RelationInfo, attnum: number, db: string): CatalogRow {
  const domain = rel.schemaOid === NamespaceOid.information_schema ? domainColumnType(rel.oid, attnum) : undefined;
  const name = domain === undefined ? undefined : otherType(domain)?.['typname'];
  return name === undefined ? {} : { domain_catalog: db, domain_schema: 'information_schema', domain_name: name };
}

export function* catalogNameRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  yield { catalog_name: snap.catalog.database };
}

export function* characterSetsRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  yield {
    character_set_catalog: null, character_set_schema: null, character_set_name: 'UTF8', character_repertoire: 'UCS',
    form_of_use: 'UTF8', default_collate_catalog: snap.catalog.database, default_collate_schema: null, default_collate_name: null,
  };
}

export function* enabledRolesRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  yield { role_name: snap.session.user };
}

const TABLE_PRIVILEGES = ['INSERT', 'SELECT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'] as const;

/** role_table_grants / table_privileges: the owner (the session user) holds every privilege on every relation. */
export function* tableGrantsRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const user = snap.session.user;
  for (const rel of snap.relations) {
    if (tableType(rel) === null && rel.kind !== 'm') continue;
    for (const p of TABLE_PRIVILEGES) {
      yield {
        grantor: user, grantee: user, table_catalog: snap.catalog.database, table_schema: rel.schema,
        table_name: rel.name, privilege_type: p, is_grantable: 'YES', with_hierarchy: yesNo(p === 'SELECT'),
      };
    }
  }
}
