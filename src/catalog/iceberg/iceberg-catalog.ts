/**
 * IcebergCatalog: the interface every lakegate Iceberg catalog implements (the embedded SQL catalog now,
 * the REST client later; the REST server serves any implementation). A catalog stores only the pointer
 * from a table identifier to its current metadata file: metadata JSON is written and read by iceberg/
 * through FileIO, and the pointer is swapped atomically by `commitTable` (compare-and-swap).
 * @see https://iceberg.apache.org/spec/#metastore-tables
 */

/** A namespace is a list of levels (`['sales', 'eu']`); multi-level namespaces are dot-joined in storage. */
export type Namespace = readonly string[];

/** Iceberg's TableIdentifier: namespace levels plus a table name. */
export interface TableIdentifier {
  readonly namespace: Namespace;
  readonly name: string;
}

/** one pointer move of a multi-table commit */
export interface TableCommitChange {
  readonly id: TableIdentifier;
  readonly expectedMetadataLocation: string;
  readonly newMetadataLocation: string;
}

/** The catalog's pointer row for one table. */
export interface TableLocation {
  readonly metadataLocation: string;
  /** null right after create/register */
  readonly previousMetadataLocation: string | null;
}

export type NamespaceProperties = Readonly<Record<string, string>>;

/** What `updateNamespaceProperties` did, as PyIceberg's PropertiesUpdateSummary reports it. */
export interface PropertiesUpdateSummary {
  readonly removed: readonly string[];
  readonly updated: readonly string[];
  /** keys asked to be removed that were not set */
  readonly missing: readonly string[];
}

/**
 * Errors (all GatewayError): missing namespace 3F000 `schema "a.b" does not exist`; existing namespace
 * 42P06; non-empty namespace 2BP01; missing table 42P01 `relation "ns.t" does not exist`; existing table
 * 42P07; lost commit race 40001 `could not serialize access due to concurrent update`.
 */
export interface IcebergCatalog {
  /** the catalog_name this instance reads and writes */
  readonly name: string;

  /** Children of `parent` (top-level namespaces when omitted or empty), sorted. */
  listNamespaces(parent?: Namespace): Promise<Namespace[]>;
  createNamespace(namespace: Namespace, properties?: NamespaceProperties): Promise<void>;
  /** false when the namespace does not exist; 2BP01 when it still holds tables. */
  dropNamespace(namespace: Namespace): Promise<boolean>;
  namespaceExists(namespace: Namespace): Promise<boolean>;
  /** User properties (the reserved `exists` marker is hidden); `location` defaults to the warehouse layout. */
  loadNamespaceProperties(namespace: Namespace): Promise<Record<string, string>>;
  updateNamespaceProperties(
    namespace: Namespace,
    removals: readonly string[],
    updates: NamespaceProperties,
  ): Promise<PropertiesUpdateSummary>;

  /** Tables (not views) of one namespace, sorted by name. */
  listTables(namespace: Namespace): Promise<TableIdentifier[]>;
  tableExists(id: TableIdentifier): Promise<boolean>;
  loadTableLocation(id: TableIdentifier): Promise<TableLocation>;
  /** Adds the pointer for a table whose first metadata file is already written. */
  createTable(id: TableIdentifier, metadataLocation: string): Promise<void>;
  /** Adds the pointer for existing metadata (Iceberg's registerTable). */
  registerTable(id: TableIdentifier, metadataLocation: string): Promise<void>;
  /** Removes the pointer only (files are not purged); false when the table does not exist. */
  dropTable(id: TableIdentifier): Promise<boolean>;
  renameTable(from: TableIdentifier, to: TableIdentifier): Promise<void>;
  /**
   * Atomically moves the pointer from `expectedMetadataLocation` to `newMetadataLocation`
   * (previous_metadata_location becomes the expected one). If another writer moved it first: 40001.
   */
  commitTable(id: TableIdentifier, expectedMetadataLocation: string, newMetadataLocation: string): Promise<void>;
  /**
   * Several compare-and-swaps, all or none (a transaction's writes to several tables). Catalogs that cannot
   * do it atomically leave it undefined and callers commit table by table.
   */
  commitTables?(changes: readonly TableCommitChange[]): Promise<void>;
  /**
   * Views (Iceberg view spec): the same pointer rows as tables, told apart by the record type (the JDBC
   * catalog's iceberg_type = 'VIEW'). Optional: a catalog without them keeps CREATE VIEW in process memory.
   * Tables and views share one name space: creating either onto the other's name is 42P07.
   */
  listViews?(namespace: Namespace): Promise<TableIdentifier[]>;
  /** false when the view methods exist but the store behind them has no views (a REST server without view endpoints) */
  readonly viewsSupported?: boolean;
  /** 42P01 when no view has that name */
  loadViewLocation?(id: TableIdentifier): Promise<TableLocation>;
  createView?(id: TableIdentifier, metadataLocation: string): Promise<void>;
  /** compare-and-swap of a view's pointer (CREATE OR REPLACE VIEW); 40001 when another writer moved it first */
  commitView?(id: TableIdentifier, expectedMetadataLocation: string, newMetadataLocation: string): Promise<void>;
  /** false when no view has that name */
  dropView?(id: TableIdentifier): Promise<boolean>;
  renameView?(from: TableIdentifier, to: TableIdentifier): Promise<void>;

  /**
   * Optional, synchronous and cheap: a value that changes when another client (another lakegate process)
   * committed to this catalog since it was last read; undefined when the catalog cannot tell. Lets a reader
   * see a commit made elsewhere at its next statement without re-listing the catalog on every statement.
   */
  changeToken?(): number | string | undefined;
  /** changeToken's value without reading it, when known unchanged since it was last read; see SqlDialect.quietChangeToken */
  quietChangeToken?(): number | string | undefined;

  close(): Promise<void>;
}

/** `a.b` — Iceberg's JDBC catalog stores namespaces dot-joined (JdbcUtil.namespaceToString). */
export function namespaceToString(namespace: Namespace): string {
  return namespace.join('.');
}

/** JdbcUtil.stringToNamespace: split on every dot. */
export function stringToNamespace(text: string): Namespace {
  return text.split('.');
}

/** `ns.t`, the name used in error messages. */
export function tableIdentifierToString(id: TableIdentifier): string {
  return id.namespace.length === 0 ? id.name : `${namespaceToString(id.namespace)}.${id.name}`;
}

export function sameTableIdentifier(a: TableIdentifier, b: TableIdentifier): boolean {
  return a.name === b.name && a.namespace.length === b.namespace.length && a.namespace.every((l, i) => l === b.namespace[i]);
}
