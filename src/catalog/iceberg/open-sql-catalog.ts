/**
 * openSqlCatalog: picks the SqlCatalog backend from a catalog URI, the same URI PyIceberg (SQLAlchemy) or
 * Iceberg Java (JDBC) would be given for that database:
 *   postgresql://user@host:5432/db, postgres://…, jdbc:postgresql://host/db  → PostgreSQL
 *   sqlite:////abs/cat.db (SQLAlchemy), jdbc:sqlite:/abs/cat.db, file:///abs/cat.db, /abs/cat.db → SQLite
 *   (none)                                    → SQLite file `<warehouse>/lakegate_catalog.db`
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { PostgresDialect, type PostgresDialectOptions } from './postgres-dialect.ts';
import { SqlCatalog, type SqlCatalogOptions } from './sql-catalog.ts';
import type { SqlDialect } from './sql-dialect.ts';
import { SqliteDialect, type SqliteDialectOptions } from './sqlite-dialect.ts';
import { stripTrailingSlash } from './warehouse-layout.ts';

export const DEFAULT_SQLITE_FILE_NAME = 'lakegate_catalog.db';

export interface OpenSqlCatalogOptions extends SqlCatalogOptions, SqliteDialectOptions, PostgresDialectOptions {
  /** catalog database URI; default: a SQLite file in a local warehouse */
  readonly uri?: string;
}

export type CatalogDatabase = { readonly kind: 'sqlite'; readonly file: string } | { readonly kind: 'postgresql'; readonly url: string };

/** Where the catalog database is, from `uri` or the warehouse (pure). */
export function resolveCatalogDatabase(uri: string | undefined, warehouse: string | undefined): CatalogDatabase {
  if (uri !== undefined && uri !== '') {
    if (/^(postgresql|postgres):\/\//i.test(uri)) return { kind: 'postgresql', url: uri };
    if (/^jdbc:postgresql:\/\//i.test(uri)) return { kind: 'postgresql', url: uri.slice('jdbc:'.length) };
    const sqlalchemy = /^sqlite(?:\+pysqlite)?:\/\/\/(.*)$/i.exec(uri);
    if (sqlalchemy) return { kind: 'sqlite', file: localFile(sqlalchemy[1] ?? '') };
    if (/^jdbc:sqlite:/i.test(uri)) return { kind: 'sqlite', file: localFile(uri.slice('jdbc:sqlite:'.length)) };
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(uri) && !/^file:/i.test(uri)) {
      throw new GatewayError(SqlState.feature_not_supported, `catalog database URI "${uri}" is not supported`, {
        hint: 'Use a postgresql:// URI or a SQLite file path.',
      });
    }
    return { kind: 'sqlite', file: localFile(uri) };
  }
  if (warehouse === undefined || /^(s3|s3a|s3n|gs|abfss?|memory):/i.test(warehouse)) {
    throw new GatewayError(SqlState.invalid_parameter_value, 'the catalog needs a database URI when the warehouse is not a local directory');
  }
  return { kind: 'sqlite', file: `${localFile(stripTrailingSlash(warehouse))}/${DEFAULT_SQLITE_FILE_NAME}` };
}

/** `file:///x` → `/x`; `:memory:` stays; relative paths resolve against the working directory. */
function localFile(path: string): string {
  if (path === ':memory:') return path;
  if (/^file:/i.test(path)) return fileURLToPath(path.startsWith('file://') ? path : `file://${path.slice('file:'.length)}`);
  return resolve(path);
}

export async function openSqlCatalog(options: OpenSqlCatalogOptions = {}): Promise<SqlCatalog> {
  const db = resolveCatalogDatabase(options.uri, options.warehouse);
  let dialect: SqlDialect;
  if (db.kind === 'postgresql') {
    dialect = new PostgresDialect(db.url, options);
  } else {
    if (db.file !== ':memory:') mkdirSync(dirname(db.file), { recursive: true });
    dialect = new SqliteDialect(db.file, options);
  }
  try {
    return await SqlCatalog.open(dialect, options);
  } catch (e) {
    await dialect.close().catch(() => undefined);
    throw e;
  }
}
