/**
 * SqlCatalog: the embedded Iceberg catalog, in Iceberg Java JdbcCatalog's own tables (`iceberg_tables`,
 * `iceberg_namespace_properties`, schema V1) on SQLite or PostgreSQL, so PyIceberg's SqlCatalog and the
 * Spark/Trino/Flink JDBC catalog can open the same database. One instance serves one `catalog_name`
 * (lakegate maps one catalog per PostgreSQL database name). A commit is JdbcCatalog's compare-and-swap:
 * `UPDATE … SET metadata_location = new WHERE … AND metadata_location = expected`; 0 rows → 40001.
 * @see https://iceberg.apache.org/docs/latest/jdbc/
 */
import { GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import {
  commitConflict,
  namespaceAlreadyExists,
  namespaceNotEmpty,
  noSuchNamespace,
  noSuchTable,
  reservedProperty,
  tableAlreadyExists,
  withCatalogErrors,
} from './catalog-errors.ts';
import {
  type TableCommitChange,
  namespaceToString,
  sameTableIdentifier,
  stringToNamespace,
  type IcebergCatalog,
  type Namespace,
  type NamespaceProperties,
  type PropertiesUpdateSummary,
  type TableIdentifier,
  type TableLocation,
} from './iceberg-catalog.ts';
import { validateNamespace, validateTableIdentifier } from './identifier-rules.ts';
import * as J from './jdbc-schema.ts';
import { ensureJdbcCatalogSchema } from './jdbc-schema-setup.ts';
import type { SqlDialect, SqlExecutor } from './sql-dialect.ts';
import { defaultNamespaceLocation } from './warehouse-layout.ts';

export const DEFAULT_CATALOG_NAME = 'lakegate';

export interface SqlCatalogOptions {
  /** the catalog_name column (default 'lakegate') */
  readonly catalogName?: string;
  /** warehouse root: gives namespaces their default `location` property */
  readonly warehouse?: string;
  /** create the tables when missing (JdbcCatalog's `jdbc.init-catalog-tables`, default true) */
  readonly initCatalogTables?: boolean;
}

export class SqlCatalog implements IcebergCatalog {
  readonly name: string;
  readonly dialect: SqlDialect;
  private readonly warehouse: string | undefined;

  private constructor(dialect: SqlDialect, options: SqlCatalogOptions) {
    this.dialect = dialect;
    this.name = options.catalogName ?? DEFAULT_CATALOG_NAME;
    this.warehouse = options.warehouse;
  }

  /** Opens the catalog on `dialect`, creating or upgrading (V0 → V1) the JdbcCatalog tables as needed. */
  static async open(dialect: SqlDialect, options: SqlCatalogOptions = {}): Promise<SqlCatalog> {
    const catalog = new SqlCatalog(dialect, options);
    await withCatalogErrors(dialect, 'set up the catalog tables', () => ensureJdbcCatalogSchema(dialect, options.initCatalogTables ?? true));
    return catalog;
  }

  // ---- namespaces

  async namespaceExists(namespace: Namespace): Promise<boolean> {
    validateNamespace(namespace);
    return withCatalogErrors(this.dialect, 'look up a namespace', () => this.namespaceExistsIn(this.dialect, namespace));
  }

  async listNamespaces(parent: Namespace = []): Promise<Namespace[]> {
    if (parent.length > 0 && !(await this.namespaceExists(parent))) throw noSuchNamespace(parent);
    const rows = await withCatalogErrors(this.dialect, 'list namespaces', () => this.dialect.query(J.LIST_ALL_NAMESPACES_SQL, [this.name, this.name]));
    const depth = parent.length + 1;
    const children = new Map<string, Namespace>();
    for (const row of rows) {
      const ns = stringToNamespace(String(row.ns));
      if (ns.length < depth || !parent.every((level, i) => ns[i] === level)) continue;
      const child = ns.slice(0, depth);
      children.set(namespaceToString(child), child);
    }
    return [...children.entries()].sort(([a], [b]) => compare(a, b)).map(([, ns]) => ns);
  }

  async createNamespace(namespace: Namespace, properties: NamespaceProperties = {}): Promise<void> {
    validateNamespace(namespace);
    if (J.NAMESPACE_EXISTS_PROPERTY in properties) throw reservedProperty(J.NAMESPACE_EXISTS_PROPERTY);
    const ns = namespaceToString(namespace);
    await withCatalogErrors(this.dialect, 'create a namespace', () =>
      this.dialect.transaction(async (tx) => {
        if (await this.namespaceExistsIn(tx, namespace)) throw namespaceAlreadyExists(namespace);
        // JdbcCatalog.createNamespace: the user's properties plus exists=true
        for (const [key, value] of [...Object.entries(properties), [J.NAMESPACE_EXISTS_PROPERTY, 'true'] as const]) {
          try {
            await tx.execute(J.INSERT_NAMESPACE_PROPERTY_SQL, [this.name, ns, key, value]);
          } catch (e) {
            throw this.dialect.isUniqueViolation(e) ? namespaceAlreadyExists(namespace) : e;
          }
        }
      }, { exclusive: true }),
    );
  }

  async dropNamespace(namespace: Namespace): Promise<boolean> {
    validateNamespace(namespace);
    return withCatalogErrors(this.dialect, 'drop a namespace', () =>
      this.dialect.transaction(async (tx) => {
        if (!(await this.namespaceExistsIn(tx, namespace))) return false;
        // JdbcCatalog checks tables only; a view also depends on its schema in PostgreSQL terms
        const rows = await tx.query(J.LIST_ALL_RECORDS_SQL, [this.name, namespaceToString(namespace)]);
        if (rows.length > 0) {
          const objects = rows.map((r) => ({
            kind: r.iceberg_type === J.VIEW_RECORD_TYPE ? ('view' as const) : ('table' as const),
            name: String(r.table_name),
          }));
          throw namespaceNotEmpty(namespace, objects);
        }
        return (await tx.execute(J.DELETE_ALL_NAMESPACE_PROPERTIES_SQL, [this.name, namespaceToString(namespace)])) > 0;
      }, { exclusive: true }),
    );
  }

  async loadNamespaceProperties(namespace: Namespace): Promise<Record<string, string>> {
    validateNamespace(namespace);
    const props = await withCatalogErrors(this.dialect, 'load namespace properties', async () => {
      if (!(await this.namespaceExistsIn(this.dialect, namespace))) throw noSuchNamespace(namespace);
      return this.propertiesIn(this.dialect, namespace);
    });
    props.delete(J.NAMESPACE_EXISTS_PROPERTY);
    if (!props.has('location') && this.warehouse !== undefined) props.set('location', defaultNamespaceLocation(this.warehouse, namespace));
    return Object.fromEntries([...props.entries()].sort(([a], [b]) => compare(a, b)));
  }

  async updateNamespaceProperties(
    namespace: Namespace,
    removals: readonly string[],
    updates: NamespaceProperties,
  ): Promise<PropertiesUpdateSummary> {
    validateNamespace(namespace);
    for (const key of [...removals, ...Object.keys(updates)]) if (key === J.NAMESPACE_EXISTS_PROPERTY) throw reservedProperty(key);
    const overlap = removals.filter((k) => k in updates);
    if (overlap.length > 0) {
      throw new GatewayError(SqlState.invalid_parameter_value, `namespace property "${overlap[0]}" is both updated and removed`);
    }
    const ns = namespaceToString(namespace);
    return withCatalogErrors(this.dialect, 'update namespace properties', () =>
      this.dialect.transaction(async (tx) => {
        if (!(await this.namespaceExistsIn(tx, namespace))) throw noSuchNamespace(namespace);
        const current = await this.propertiesIn(tx, namespace);
        const removed: string[] = [];
        const missing: string[] = [];
        for (const key of removals) {
          if (current.has(key)) {
            await tx.execute(J.DELETE_NAMESPACE_PROPERTY_SQL, [this.name, ns, key]);
            removed.push(key);
          } else missing.push(key);
        }
        // delete + insert in one transaction (PyIceberg's portable upsert)
        for (const [key, value] of Object.entries(updates)) {
          await tx.execute(J.DELETE_NAMESPACE_PROPERTY_SQL, [this.name, ns, key]);
          await tx.execute(J.INSERT_NAMESPACE_PROPERTY_SQL, [this.name, ns, key, value]);
        }
        return { removed, updated: Object.keys(updates), missing };
      }),
    );
  }

  // ---- tables

  async listTables(namespace: Namespace): Promise<TableIdentifier[]> {
    validateNamespace(namespace);
    return withCatalogErrors(this.dialect, 'list tables', async () => {
      if (!(await this.namespaceExistsIn(this.dialect, namespace))) throw noSuchNamespace(namespace);
      return this.listTablesIn(this.dialect, namespace);
    });
  }

  async tableExists(id: TableIdentifier): Promise<boolean> {
    validateTableIdentifier(id);
    const rows = await withCatalogErrors(this.dialect, 'look up a table', () => this.dialect.query(J.V1_GET_TABLE_SQL, this.key(id)));
    return rows.length > 0;
  }

  loadTableLocation(id: TableIdentifier): Promise<TableLocation> {
    return this.loadLocation(id, TABLE_SQL, 'load a table');
  }

  private async loadLocation(id: TableIdentifier, sql: RecordSql, action: string): Promise<TableLocation> {
    validateTableIdentifier(id);
    const rows = await withCatalogErrors(this.dialect, action, () => this.dialect.query(sql.get, this.key(id)));
    const row = rows[0];
    // a row without metadata_location is unusable (PyIceberg treats it as missing too)
    if (row === undefined || typeof row.metadata_location !== 'string' || row.metadata_location === '') throw noSuchTable(id);
    const previous = row.previous_metadata_location;
    return { metadataLocation: row.metadata_location, previousMetadataLocation: typeof previous === 'string' ? previous : null };
  }

  createTable(id: TableIdentifier, metadataLocation: string): Promise<void> {
    return this.insertTable(id, metadataLocation, 'create a table');
  }

  registerTable(id: TableIdentifier, metadataLocation: string): Promise<void> {
    return this.insertTable(id, metadataLocation, 'register a table');
  }

  async dropTable(id: TableIdentifier): Promise<boolean> {
    validateTableIdentifier(id);
    return (await withCatalogErrors(this.dialect, 'drop a table', () => this.dialect.execute(J.V1_DROP_TABLE_SQL, this.key(id)))) > 0;
  }

  renameTable(from: TableIdentifier, to: TableIdentifier): Promise<void> {
    return this.renameRecord(from, to, TABLE_SQL, 'rename a table');
  }

  private async renameRecord(from: TableIdentifier, to: TableIdentifier, sql: RecordSql, action: string): Promise<void> {
    validateTableIdentifier(from);
    validateTableIdentifier(to);
    if (sameTableIdentifier(from, to)) return;
    await withCatalogErrors(this.dialect, action, () =>
      this.dialect.transaction(async (tx) => {
        if ((await tx.query(sql.get, this.key(from))).length === 0) throw noSuchTable(from);
        if (!(await this.namespaceExistsIn(tx, to.namespace))) throw noSuchNamespace(to.namespace);
        if ((await tx.query(J.GET_ANY_RECORD_SQL, this.key(to))).length > 0) throw tableAlreadyExists(to);
        const changed = await this.uniqueOrThrow(to, () =>
          tx.execute(sql.rename, [namespaceToString(to.namespace), to.name, ...this.key(from)]),
        );
        if (changed === 0) throw noSuchTable(from);
      }, { exclusive: true }),
    );
  }

  async commitTable(id: TableIdentifier, expectedMetadataLocation: string, newMetadataLocation: string): Promise<void> {
    await this.commitTables([{ id, expectedMetadataLocation, newMetadataLocation }]);
  }

  /** every pointer moves in one SQL transaction: a transaction block's writes to several tables, all or none */
  async commitTables(changes: readonly TableCommitChange[]): Promise<void> {
    for (const c of changes) validateTableIdentifier(c.id);
    await withCatalogErrors(this.dialect, 'commit a table', () =>
      this.dialect.transaction(async (tx) => {
        for (const { id, expectedMetadataLocation, newMetadataLocation } of changes) {
          const changed = await tx.execute(J.V1_DO_COMMIT_TABLE_SQL, [
            newMetadataLocation,
            expectedMetadataLocation,
            ...this.key(id),
            expectedMetadataLocation,
          ]);
          if (changed === 1) continue;
          // 0 rows: the table is gone (42P01) or someone else moved the pointer first (40001)
          if ((await tx.query(J.V1_GET_TABLE_SQL, this.key(id))).length === 0) throw noSuchTable(id);
          throw commitConflict(id, expectedMetadataLocation);
        }
      }),
    );
  }

  // ---- views (JdbcCatalog's view rows: iceberg_type = 'VIEW')

  async listViews(namespace: Namespace): Promise<TableIdentifier[]> {
    validateNamespace(namespace);
    return withCatalogErrors(this.dialect, 'list views', async () => {
      if (!(await this.namespaceExistsIn(this.dialect, namespace))) throw noSuchNamespace(namespace);
      return this.listRecordsIn(this.dialect, namespace, J.V1_LIST_VIEW_SQL);
    });
  }

  async loadViewLocation(id: TableIdentifier): Promise<TableLocation> {
    return this.loadLocation(id, VIEW_SQL, 'load a view');
  }

  createView(id: TableIdentifier, metadataLocation: string): Promise<void> {
    return this.insertTable(id, metadataLocation, 'create a view', J.VIEW_RECORD_TYPE);
  }

  async commitView(id: TableIdentifier, expectedMetadataLocation: string, newMetadataLocation: string): Promise<void> {
    validateTableIdentifier(id);
    await withCatalogErrors(this.dialect, 'commit a view', () =>
      this.dialect.transaction(async (tx) => {
        const changed = await tx.execute(J.V1_DO_COMMIT_VIEW_SQL, [newMetadataLocation, expectedMetadataLocation, ...this.key(id), expectedMetadataLocation]);
        if (changed === 1) return;
        if ((await tx.query(J.V1_GET_VIEW_SQL, this.key(id))).length === 0) throw noSuchTable(id);
        throw commitConflict(id, expectedMetadataLocation);
      }),
    );
  }

  async dropView(id: TableIdentifier): Promise<boolean> {
    validateTableIdentifier(id);
    return (await withCatalogErrors(this.dialect, 'drop a view', () => this.dialect.execute(J.V1_DROP_VIEW_SQL, this.key(id)))) > 0;
  }

  renameView(from: TableIdentifier, to: TableIdentifier): Promise<void> {
    return this.renameRecord(from, to, VIEW_SQL, 'rename a view');
  }

  /** see IcebergCatalog.changeToken: the database's own change counter, where the dialect has one */
  changeToken(): number | string | undefined {
    return this.dialect.changeToken?.();
  }

  /** see IcebergCatalog.quietChangeToken */
  quietChangeToken(): number | string | undefined {
    return this.dialect.quietChangeToken?.();
  }

  async close(): Promise<void> {
    await this.dialect.close();
  }

  // ---- helpers

  /** [catalog_name, table_namespace, table_name], the primary key of iceberg_tables */
  private key(id: TableIdentifier): [string, string, string] {
    return [this.name, namespaceToString(id.namespace), id.name];
  }

  private async insertTable(id: TableIdentifier, metadataLocation: string, action: string, recordType: string = J.TABLE_RECORD_TYPE): Promise<void> {
    validateTableIdentifier(id);
    await withCatalogErrors(this.dialect, action, () =>
      this.dialect.transaction(async (tx) => {
        if (!(await this.namespaceExistsIn(tx, id.namespace))) throw noSuchNamespace(id.namespace);
        if ((await tx.query(J.GET_ANY_RECORD_SQL, this.key(id))).length > 0) throw tableAlreadyExists(id);
        await this.uniqueOrThrow(id, () => tx.execute(J.V1_DO_COMMIT_CREATE_SQL, [...this.key(id), metadataLocation, recordType]));
      }, { exclusive: true }),
    );
  }

  /** A primary-key violation (a concurrent create/rename won) becomes 42P07. */
  private async uniqueOrThrow<T>(id: TableIdentifier, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (e) {
      if (this.dialect.isUniqueViolation(e)) throw tableAlreadyExists(id);
      throw e;
    }
  }

  /** JdbcUtil.namespaceExists: a table or a property row in the namespace or in one below it. */
  private async namespaceExistsIn(exec: SqlExecutor, namespace: Namespace): Promise<boolean> {
    const ns = namespaceToString(namespace);
    const params = [this.name, ns, J.subNamespacePattern(ns)];
    const matches = (rows: readonly Record<string, unknown>[], column: string): boolean =>
      rows.some((r) => {
        const v = String(r[column]);
        return v === ns || v.startsWith(`${ns}.`); // SQLite's LIKE ignores case: re-check exactly
      });
    if (matches(await exec.query(J.GET_NAMESPACE_SQL, params), 'table_namespace')) return true;
    return matches(await exec.query(J.GET_NAMESPACE_PROPERTIES_SQL, params), 'namespace');
  }

  private listTablesIn(exec: SqlExecutor, namespace: Namespace): Promise<TableIdentifier[]> {
    return this.listRecordsIn(exec, namespace, J.V1_LIST_TABLE_SQL);
  }

  private async listRecordsIn(exec: SqlExecutor, namespace: Namespace, listSql: string): Promise<TableIdentifier[]> {
    const rows = await exec.query(listSql, [this.name, namespaceToString(namespace)]);
    return rows
      .map((r) => ({ namespace: [...namespace], name: String(r.table_name) }))
      .sort((a, b) => compare(a.name, b.name));
  }

  private async propertiesIn(exec: SqlExecutor, namespace: Namespace): Promise<Map<string, string>> {
    const rows = await exec.query(J.GET_ALL_NAMESPACE_PROPERTIES_SQL, [this.name, namespaceToString(namespace)]);
    return new Map(rows.map((r) => [String(r.property_key), r.property_value === null ? '' : String(r.property_value)]));
  }
}

/** the statements that differ between table rows and view rows */
interface RecordSql {
  readonly get: string;
  readonly rename: string;
}
const TABLE_SQL: RecordSql = { get: J.V1_GET_TABLE_SQL, rename: J.V1_RENAME_TABLE_SQL };
const VIEW_SQL: RecordSql = { get: J.V1_GET_VIEW_SQL, rename: J.V1_RENAME_VIEW_SQL };

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
