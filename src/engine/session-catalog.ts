/**
 * SessionCatalog: the CatalogView one session sees — system schemas and relations (pg_catalog,
 * information_schema), the database's user schemas and relations, and the session's temp schema
 * (pg_temp_N), which exists only once the session created a temp table, as in PostgreSQL.
 */
import type { CatalogView, RelationInfo, SchemaInfo } from '../catalog/catalog-view.ts';
import type { DatabaseCatalog } from './database-catalog.ts';
import { MemorySequenceStore } from '../catalog/sequences/memory-sequence-store.ts';
import { isMetadataTableOid, metadataTableOid } from './stable-oids.ts';
import { findMetadataRelation, metadataRelationByOid, metadataTableOids } from '../iceberg/index.ts';

export interface SystemCatalog {
  readonly schemas: readonly SchemaInfo[];
  readonly relations: readonly RelationInfo[];
}

export class SessionCatalog implements CatalogView {
  private readonly tempRelations = new Map<string, RelationInfo>();
  private tempSchemaInfo: SchemaInfo | undefined;
  /** the session's TEMP sequences */
  readonly tempSequences = new MemorySequenceStore();
  private readonly systemByKey: Map<string, RelationInfo>;
  private readonly systemByOid: Map<number, RelationInfo>;
  /** inside a transaction block that may write Iceberg tables: the session's view of them (iceberg-transaction.ts) */
  overlay: ((info: RelationInfo) => RelationInfo) | null = null;

  constructor(
    readonly db: DatabaseCatalog,
    private readonly system: SystemCatalog,
    readonly tempSchemaName: string,
    private readonly allDatabases: () => readonly string[],
    private readonly owner: string,
  ) {
    this.systemByKey = new Map(system.relations.map((r) => [`${r.schema}\u0000${r.name}`, r]));
    this.systemByOid = new Map(system.relations.map((r) => [r.oid, r]));
  }

  get database(): string {
    return this.db.name;
  }

  databases(): readonly string[] {
    return this.allDatabases();
  }

  schemas(): readonly SchemaInfo[] {
    const out = [...this.system.schemas, ...this.db.schemas()];
    if (this.tempSchemaInfo !== undefined) out.push(this.tempSchemaInfo);
    return out;
  }

  relations(): readonly RelationInfo[] {
    const user = this.overlay === null ? this.db.relations() : this.db.relations().map(this.overlay);
    return [...this.system.relations, ...user, ...this.tempRelations.values()];
  }

  private userRelation(info: RelationInfo | undefined): RelationInfo | undefined {
    return info === undefined || this.overlay === null ? info : this.overlay(info);
  }

  findRelation(schema: string, name: string): RelationInfo | undefined {
    if (schema === this.tempSchemaName || schema === 'pg_temp') return this.tempRelations.get(name);
    return this.systemByKey.get(`${schema}\u0000${name}`) ?? this.userRelation(this.db.findRelation(schema, name)) ?? this.findMetadataTable(schema, name);
  }

  /** `"t$snapshots"`, `"t$files"`…: Iceberg metadata tables resolve by name only (never listed in relations()) */
  private findMetadataTable(schema: string, name: string): RelationInfo | undefined {
    if (!name.includes('$')) return undefined;
    return findMetadataRelation(schema, name, (s, n) => this.db.findRelation(s, n), metadataTableOids(this.db, metadataTableOid));
  }

  relationByOid(oid: number): RelationInfo | undefined {
    const sys = this.systemByOid.get(oid);
    if (sys !== undefined) return sys;
    for (const r of this.tempRelations.values()) if (r.oid === oid) return r;
    return this.userRelation(this.db.relations().find((r) => r.oid === oid))
      ?? (isMetadataTableOid(oid) ? metadataRelationByOid(oid, (o) => this.db.relations().find((r) => r.oid === o), metadataTableOids(this.db, metadataTableOid), () => this.db.relations()) : undefined);
  }

  schemaByName(name: string): SchemaInfo | undefined {
    if (name === 'pg_temp') return this.tempSchemaInfo;
    return this.schemas().find((s) => s.name === name);
  }

  schemaByOid(oid: number): SchemaInfo | undefined {
    return this.schemas().find((s) => s.oid === oid);
  }

  /** the temp schema, created on first use */
  tempSchema(): SchemaInfo {
    if (this.tempSchemaInfo === undefined) {
      this.tempSchemaInfo = { oid: this.db.allocOid(), name: this.tempSchemaName, owner: this.owner };
    }
    return this.tempSchemaInfo;
  }

  hasTempSchema(): boolean {
    return this.tempSchemaInfo !== undefined;
  }

  tempRelationList(): RelationInfo[] {
    return [...this.tempRelations.values()];
  }

  addTempRelation(info: RelationInfo): void {
    this.tempRelations.set(info.name, info);
  }

  removeTempRelation(name: string): RelationInfo | undefined {
    const info = this.tempRelations.get(name);
    this.tempRelations.delete(name);
    return info;
  }

  dropAllTemp(): void {
    this.tempRelations.clear();
  }
}
