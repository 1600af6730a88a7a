/**
 * Creates the JdbcCatalog tables when missing, the way JdbcCatalog.initialize does (V0 CREATE, then the V1
 * ALTER that adds iceberg_type), and upgrades a V0 database (e.g. one PyIceberg created) to V1 as
 * JdbcCatalog does with `jdbc.schema-version=V1`. Runs under the write lock so two processes opening
 * the same fresh database do not both create.
 */
import { undefinedTable } from '../../common/errors.ts';
import {
  CATALOG_TABLE_VIEW_NAME,
  CREATE_NAMESPACE_PROPERTIES_TABLE_SQL,
  NAMESPACE_PROPERTIES_TABLE_NAME,
  RECORD_TYPE,
  V0_CREATE_CATALOG_SQL,
  V1_UPDATE_CATALOG_SQL,
} from './jdbc-schema.ts';
import type { SqlDialect } from './sql-dialect.ts';

/** `create`: create missing tables (`jdbc.init-catalog-tables`); otherwise a missing table is 42P01. */
export async function ensureJdbcCatalogSchema(dialect: SqlDialect, create: boolean): Promise<void> {
  await dialect.transaction(
    async (tx) => {
      let columns = await dialect.tableColumns(CATALOG_TABLE_VIEW_NAME, tx);
      if (columns === null) {
        if (!create) throw undefinedTable(CATALOG_TABLE_VIEW_NAME);
        await tx.execute(V0_CREATE_CATALOG_SQL);
        columns = [];
      }
      if (!columns.includes(RECORD_TYPE)) await tx.execute(V1_UPDATE_CATALOG_SQL);
      if ((await dialect.tableColumns(NAMESPACE_PROPERTIES_TABLE_NAME, tx)) === null) {
        if (!create) throw undefinedTable(NAMESPACE_PROPERTIES_TABLE_NAME);
        await tx.execute(CREATE_NAMESPACE_PROPERTIES_TABLE_SQL);
      }
    },
    { exclusive: true },
  );
}
