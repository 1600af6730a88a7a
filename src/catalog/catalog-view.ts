/**
 * CatalogView: the relations and schemas a session can see, with stable OIDs. pg_catalog and
 * information_schema are generated from it, and the binder resolves names through it.
 */
import type { TableSource } from './table-source.ts';

export type RelKind = 'r' | 'v' | 'm' | 'f' | 'p' | 'i' | 'S';

export interface SchemaInfo {
  readonly oid: number;
  readonly name: string;
  readonly owner: string;
  readonly comment?: string;
}

export interface RelationInfo {
  readonly oid: number;
  readonly schema: string;
  readonly schemaOid: number;
  readonly name: string;
  /** pg_class.relkind */
  readonly kind: RelKind;
  /** 'p' permanent, 't' temporary (session), 'u' unlogged */
  readonly persistence: 'p' | 't' | 'u';
  /** pg_class.reltype: OID of the relation's composite row type */
  readonly rowTypeOid: number;
  readonly source: TableSource;
  /** for views: the defining SELECT, as pg_get_viewdef shows it */
  readonly viewDefinition?: string;
  readonly comment?: string;
  /** column positions (0-based) of the primary key, if the relation has one */
  readonly primaryKey?: readonly number[];
  /** the primary key constraint's (and its index's) name; default `<table>_pkey` as named at creation (a rename keeps it) */
  readonly primaryKeyName?: string;
  /**
   * true when the rows were not verified unique on the primary key: an Iceberg table another engine wrote since
   * lakegate last checked the key (iceberg/keys/verified-keys.ts). The key still shows in the catalog; plans do
   * not rely on it.
   */
  readonly primaryKeyUnverified?: boolean;
  /** FOREIGN KEY / REFERENCES constraints, kept as metadata (not enforced) for clients' catalog queries */
  readonly foreignKeys?: readonly ForeignKeyInfo[];
  /** CREATE INDEX indexes, kept as metadata only (lakegate tables have no index structures; uniqueness is not enforced) */
  readonly indexes?: readonly IndexInfo[];
}

/** An index created with CREATE INDEX (metadata only), shown by pg_class / pg_index / pg_indexes / \d. */
export interface IndexInfo {
  /** pg_class OID of the index, allocated at creation */
  readonly oid: number;
  /** unique among the relations of the table's schema */
  readonly name: string;
  /** 0-based positions of the key columns */
  readonly columns: readonly number[];
  readonly unique: boolean;
  /** the index of a UNIQUE constraint (CREATE TABLE, ALTER TABLE ADD): a pg_constraint row of contype 'u' */
  readonly constraint?: boolean;
}

/** A foreign key of a relation (metadata only: lakegate does not enforce it). */
export interface ForeignKeyInfo {
  /** pg_constraint OID, allocated at creation */
  readonly oid: number;
  readonly name: string;
  /** 0-based positions of the referencing columns */
  readonly columns: readonly number[];
  /** the referenced relation */
  readonly refRelationOid: number;
  /** 0-based positions of the referenced columns, in the same order */
  readonly refColumns: readonly number[];
}

export interface CatalogView {
  /** the database (catalog) name this view belongs to */
  readonly database: string;
  schemas(): readonly SchemaInfo[];
  relations(): readonly RelationInfo[];
  /** exact lookup; schema names and relation names are case-sensitive here (the binder folds case) */
  findRelation(schema: string, name: string): RelationInfo | undefined;
  relationByOid(oid: number): RelationInfo | undefined;
  schemaByName(name: string): SchemaInfo | undefined;
  schemaByOid(oid: number): SchemaInfo | undefined;
  /** all databases the server serves (pg_database) */
  databases(): readonly string[];
}
