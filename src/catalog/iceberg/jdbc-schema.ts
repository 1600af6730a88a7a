/**
 * The catalog tables and statements of Iceberg Java's JdbcCatalog, copied from JdbcUtil (schema V1, the
 * view-aware one), so that Iceberg Java (Spark, Trino, Flink), PyIceberg's SqlCatalog and lakegate can
 * share one database. V1 is JdbcCatalog's V0 `CREATE TABLE` followed by its `ALTER TABLE … ADD COLUMN
 * iceberg_type VARCHAR(5)`, which is also what we run, so the column order is JdbcCatalog's.
 * A NULL iceberg_type (rows written by V0 writers such as PyIceberg) means TABLE.
 * @see https://github.com/apache/iceberg/blob/main/core/src/main/java/org/apache/iceberg/jdbc/JdbcUtil.java
 */

export const CATALOG_TABLE_VIEW_NAME = 'iceberg_tables';
export const NAMESPACE_PROPERTIES_TABLE_NAME = 'iceberg_namespace_properties';
export const RECORD_TYPE = 'iceberg_type';
export const TABLE_RECORD_TYPE = 'TABLE';
export const VIEW_RECORD_TYPE = 'VIEW';
/** JdbcCatalog's reserved property marking an empty namespace as existing */
export const NAMESPACE_EXISTS_PROPERTY = 'exists';

/** JdbcUtil.V0_CREATE_CATALOG_SQL */
export const V0_CREATE_CATALOG_SQL =
  'CREATE TABLE iceberg_tables(catalog_name VARCHAR(255) NOT NULL,table_namespace VARCHAR(255) NOT NULL,' +
  'table_name VARCHAR(255) NOT NULL,metadata_location VARCHAR(1000),previous_metadata_location VARCHAR(1000),' +
  'PRIMARY KEY (catalog_name, table_namespace, table_name))';

/** JdbcUtil.V1_UPDATE_CATALOG_SQL */
export const V1_UPDATE_CATALOG_SQL = 'ALTER TABLE iceberg_tables ADD COLUMN iceberg_type VARCHAR(5)';

/** JdbcUtil.CREATE_NAMESPACE_PROPERTIES_TABLE_SQL */
export const CREATE_NAMESPACE_PROPERTIES_TABLE_SQL =
  'CREATE TABLE iceberg_namespace_properties(catalog_name VARCHAR(255) NOT NULL,namespace VARCHAR(255) NOT NULL,' +
  'property_key VARCHAR(255),property_value VARCHAR(1000),PRIMARY KEY (catalog_name, namespace, property_key))';

/** Column order after V0 create + V1 alter, as JdbcCatalog leaves the database. */
export const ICEBERG_TABLES_COLUMNS = [
  'catalog_name',
  'table_namespace',
  'table_name',
  'metadata_location',
  'previous_metadata_location',
  'iceberg_type',
] as const;
export const NAMESPACE_PROPERTIES_COLUMNS = ['catalog_name', 'namespace', 'property_key', 'property_value'] as const;

const IS_TABLE = "(iceberg_type = 'TABLE' OR iceberg_type IS NULL)";

/** JdbcUtil.V1_DO_COMMIT_TABLE_SQL: the compare-and-swap. */
export const V1_DO_COMMIT_TABLE_SQL =
  'UPDATE iceberg_tables SET metadata_location = ? , previous_metadata_location = ? ' +
  `WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND metadata_location = ? AND ${IS_TABLE}`;

/** JdbcUtil.V1_DO_COMMIT_CREATE_SQL */
export const V1_DO_COMMIT_CREATE_SQL =
  'INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, metadata_location, previous_metadata_location, iceberg_type) ' +
  ' VALUES (?,?,?,?,null,?)';

/** JdbcUtil.V1_GET_TABLE_SQL (column list instead of `*`) */
export const V1_GET_TABLE_SQL =
  'SELECT metadata_location, previous_metadata_location FROM iceberg_tables ' +
  `WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND ${IS_TABLE}`;

/** Any row (table or view) under the name: a create or rename onto it must fail. */
export const GET_ANY_RECORD_SQL =
  'SELECT iceberg_type FROM iceberg_tables WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?';

/** JdbcUtil.V1_LIST_TABLE_SQL */
export const V1_LIST_TABLE_SQL =
  `SELECT table_namespace, table_name FROM iceberg_tables WHERE catalog_name = ? AND table_namespace = ? AND ${IS_TABLE}`;

/** Tables and views of one namespace: dropping a namespace that still holds either fails. */
export const LIST_ALL_RECORDS_SQL =
  'SELECT table_name, iceberg_type FROM iceberg_tables WHERE catalog_name = ? AND table_namespace = ?';

/** JdbcUtil.V1_RENAME_TABLE_SQL */
export const V1_RENAME_TABLE_SQL =
  'UPDATE iceberg_tables SET table_namespace = ?, table_name = ? ' +
  `WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND ${IS_TABLE}`;

/** JdbcUtil.V1_DROP_TABLE_SQL */
export const V1_DROP_TABLE_SQL =
  `DELETE FROM iceberg_tables WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND ${IS_TABLE}`;

const IS_VIEW = "iceberg_type = 'VIEW'";

/** JdbcUtil.V1_DO_COMMIT_VIEW_SQL: a view's compare-and-swap (CREATE OR REPLACE VIEW) */
export const V1_DO_COMMIT_VIEW_SQL =
  'UPDATE iceberg_tables SET metadata_location = ? , previous_metadata_location = ? ' +
  `WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND metadata_location = ? AND ${IS_VIEW}`;

/** JdbcUtil.V1_GET_VIEW_SQL (column list instead of `*`) */
export const V1_GET_VIEW_SQL =
  'SELECT metadata_location, previous_metadata_location FROM iceberg_tables ' +
  `WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND ${IS_VIEW}`;

/** JdbcUtil.V1_LIST_VIEW_SQL */
export const V1_LIST_VIEW_SQL =
  `SELECT table_namespace, table_name FROM iceberg_tables WHERE catalog_name = ? AND table_namespace = ? AND ${IS_VIEW}`;

/** JdbcUtil.V1_RENAME_VIEW_SQL */
export const V1_RENAME_VIEW_SQL =
  'UPDATE iceberg_tables SET table_namespace = ?, table_name = ? ' +
  `WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND ${IS_VIEW}`;

/** JdbcUtil.V1_DROP_VIEW_SQL */
export const V1_DROP_VIEW_SQL =
  `DELETE FROM iceberg_tables WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND ${IS_VIEW}`;

/** JdbcUtil.GET_NAMESPACE_SQL without LIMIT 1: SQLite LIKE ignores ASCII case, so callers re-check each row. */
export const GET_NAMESPACE_SQL =
  "SELECT table_namespace FROM iceberg_tables WHERE catalog_name = ? AND (table_namespace = ? OR table_namespace LIKE ? ESCAPE '!')";

/** JdbcUtil.GET_NAMESPACE_PROPERTIES_SQL */
export const GET_NAMESPACE_PROPERTIES_SQL =
  "SELECT namespace FROM iceberg_namespace_properties WHERE catalog_name = ? AND (namespace = ? OR namespace LIKE ? ESCAPE '!')";

/** JdbcUtil.LIST_ALL_NAMESPACES_SQL ∪ LIST_ALL_PROPERTY_NAMESPACES_SQL */
export const LIST_ALL_NAMESPACES_SQL =
  'SELECT DISTINCT table_namespace AS ns FROM iceberg_tables WHERE catalog_name = ? ' +
  'UNION SELECT DISTINCT namespace AS ns FROM iceberg_namespace_properties WHERE catalog_name = ?';

/** JdbcUtil.GET_ALL_NAMESPACE_PROPERTIES_SQL */
export const GET_ALL_NAMESPACE_PROPERTIES_SQL =
  'SELECT property_key, property_value FROM iceberg_namespace_properties WHERE catalog_name = ? AND namespace = ? ';

/** JdbcUtil.INSERT_NAMESPACE_PROPERTIES_SQL + one INSERT_PROPERTIES_VALUES_BASE */
export const INSERT_NAMESPACE_PROPERTY_SQL =
  'INSERT INTO iceberg_namespace_properties (catalog_name, namespace, property_key, property_value) VALUES (?,?,?,?)';

/** JdbcUtil.DELETE_NAMESPACE_PROPERTIES_SQL for one key */
export const DELETE_NAMESPACE_PROPERTY_SQL =
  'DELETE FROM iceberg_namespace_properties WHERE catalog_name = ? AND namespace = ? AND property_key = ?';

/** JdbcUtil.DELETE_ALL_NAMESPACE_PROPERTIES_SQL */
export const DELETE_ALL_NAMESPACE_PROPERTIES_SQL =
  'DELETE FROM iceberg_namespace_properties WHERE catalog_name = ? AND namespace = ?';

/** The LIKE pattern JdbcUtil.namespaceExists builds for sub-namespaces of `ns` (escape char `!`). */
export function subNamespacePattern(ns: string): string {
  return `${ns.replace(/!/g, '!!').replace(/_/g, '!_').replace(/%/g, '!%')}.%`;
}
