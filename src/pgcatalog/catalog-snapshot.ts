/**
 * CatalogSnapshot: one statement's view of everything pg_catalog describes: the system relations and schemas
 * merged with the session's CatalogView, plus lookups (by OID, by name, visibility) the tables and functions share.
 * Built per scan (cheap: a few maps), so it always reflects the current CatalogView.
 */
import type { CatalogView, RelationInfo, SchemaInfo } from '../catalog/catalog-view.ts';
import type { SessionView } from '../catalog/session-view.ts';
import type { ColumnDef } from '../catalog/table-source.ts';
import type { FunctionCatalog } from './function-catalog.ts';
import { activeFunctionCatalog } from './function-catalog.ts';
import { PG_KEYWORDS } from './data/pg-keywords.ts';
import { BOOTSTRAP_SUPERUSER_OID, LAKEGATE_ROLE_OID, PG_DATABASE_OWNER_OID, databaseOid, stableHash } from './well-known-oids.ts';

/** The system side: pg_catalog/information_schema relations and the fixed schemas. */
export interface SystemCatalog {
  readonly relations: readonly RelationInfo[];
  readonly schemas: readonly SchemaInfo[];
  readonly functions?: FunctionCatalog;
}

export interface SnapshotSource {
  readonly session: SessionView;
  readonly catalog: CatalogView;
}

export class CatalogSnapshot {
  readonly session: SessionView;
  readonly catalog: CatalogView;
  readonly relations: readonly RelationInfo[];
  readonly schemas: readonly SchemaInfo[];
  readonly functions: FunctionCatalog | undefined;
  private readonly relById = new Map<number, RelationInfo>();
  private readonly schemaById = new Map<number, SchemaInfo>();
  private readonly schemaByNameMap = new Map<string, SchemaInfo>();
  private pathCache: readonly string[] | undefined;

  constructor(src: SnapshotSource, system: SystemCatalog) {
    this.session = src.session;
    this.catalog = src.catalog;
    this.functions = system.functions ?? activeFunctionCatalog();
    const rels: RelationInfo[] = [];
    for (const r of [...system.relations, ...src.catalog.relations()]) {
      if (this.relById.has(r.oid)) continue;
      this.relById.set(r.oid, r);
      rels.push(r);
    }
    this.relations = rels;
    const schemas: SchemaInfo[] = [];
    for (const s of [...system.schemas, ...src.catalog.schemas()]) {
      if (this.schemaById.has(s.oid) || this.schemaByNameMap.has(s.name)) continue;
      this.schemaById.set(s.oid, s);
      this.schemaByNameMap.set(s.name, s);
      schemas.push(s);
    }
    this.schemas = schemas;
  }

  relationByOid(oid: number): RelationInfo | undefined {
    return this.relById.get(oid);
  }

  schemaByOid(oid: number): SchemaInfo | undefined {
    return this.schemaById.get(oid);
  }

  schemaByName(name: string): SchemaInfo | undefined {
    return this.schemaByNameMap.get(name);
  }

  findRelation(schema: string, name: string): RelationInfo | undefined {
    const s = this.schemaByNameMap.get(schema);
    if (s === undefined) return undefined;
    return this.relations.find((r) => r.schemaOid === s.oid && r.name === name);
  }

  columnsOf(rel: RelationInfo): readonly ColumnDef[] {
    return rel.source.columns;
  }

  /**
   * The schemas an unqualified name is looked up in, in order: the temp schema first, then pg_catalog unless
   * search_path places it, then search_path (as PostgreSQL's namespace.c does).
   */
  effectiveSearchPath(): readonly string[] {
    if (this.pathCache !== undefined) return this.pathCache;
    const path = this.session.searchPath();
    const out: string[] = [];
    for (const s of this.schemas) if (s.name.startsWith('pg_temp')) out.push(s.name);
    if (!path.includes('pg_catalog')) out.push('pg_catalog');
    for (const p of path) if (!out.includes(p)) out.push(p);
    this.pathCache = out;
    return out;
  }

  /** Resolves an unqualified relation name through the search path. */
  lookupRelation(name: string): RelationInfo | undefined {
    for (const schema of this.effectiveSearchPath()) {
      const r = this.findRelation(schema, name);
      if (r !== undefined) return r;
    }
    return undefined;
  }

  /** pg_table_is_visible: its schema is on the path and no earlier schema has a relation of the same name. */
  isRelationVisible(rel: RelationInfo): boolean {
    return this.lookupRelation(rel.name)?.oid === rel.oid;
  }

  isSchemaOnPath(schemaOid: number): boolean {
    const s = this.schemaById.get(schemaOid);
    return s !== undefined && this.effectiveSearchPath().includes(s.name);
  }

  /** Role OID of a user name: the session user is the bootstrap superuser (10), so it owns every object. */
  roleOid(name: string): number {
    if (name === this.session.user) return BOOTSTRAP_SUPERUSER_OID;
    if (name === 'lakegate') return LAKEGATE_ROLE_OID;
    return 20_000 + (stableHash(name) % 100_000);
  }

  /** pg_get_userbyid: unknown OIDs print as PostgreSQL does, "unknown (OID=n)". */
  roleName(oid: number): string {
    if (oid === BOOTSTRAP_SUPERUSER_OID) return this.session.user;
    if (oid === LAKEGATE_ROLE_OID) return 'lakegate';
    if (oid === PG_DATABASE_OWNER_OID) return 'pg_database_owner';
    for (const s of this.session.sessions()) if (this.roleOid(s.user) === oid) return s.user;
    return `unknown (OID=${oid})`;
  }

  /** The roles pg_authid lists: the session user (OID 10), 'lakegate', and users of other sessions. */
  roles(): { oid: number; name: string; superuser: boolean }[] {
    const out = [{ oid: BOOTSTRAP_SUPERUSER_OID, name: this.session.user, superuser: true }];
    const seen = new Set([this.session.user]);
    const add = (name: string): void => {
      if (seen.has(name)) return;
      seen.add(name);
      out.push({ oid: this.roleOid(name), name, superuser: name === 'lakegate' });
    };
    add('lakegate');
    for (const s of this.session.sessions()) add(s.user);
    return out;
  }

  databases(): { oid: number; name: string }[] {
    return this.catalog.databases().map((name, i) => ({ oid: databaseOid(i), name }));
  }

  databaseOidOf(name: string): number {
    const i = this.catalog.databases().indexOf(name);
    return databaseOid(i < 0 ? 0 : i);
  }

  /** Fully qualified, quoted as needed, the way PostgreSQL prints a non-visible relation. */
  qualifiedName(rel: RelationInfo): string {
    return `${quoteIdent(rel.schema)}.${quoteIdent(rel.name)}`;
  }
}

/** quote_ident: quotes unless the name is a lower-case identifier and not a keyword other than unreserved. */
export function quoteIdent(name: string): string {
  if (/^[a-z_][a-z0-9_$]*$/.test(name) && !QUOTED_KEYWORDS.has(name)) return name;
  return `"${name.replace(/"/g, '""')}"`;
}

const QUOTED_KEYWORDS = new Set(PG_KEYWORDS.filter((k) => k[1] !== 'U').map((k) => k[0]));
