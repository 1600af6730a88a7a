/**
 * The GatewayErrors a catalog raises, with PostgreSQL's wording for the matching schema/relation errors
 * (a namespace is a schema to a PostgreSQL client, a table a relation).
 */
import { GatewayError, undefinedTable } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { SqlDialect } from './sql-dialect.ts';
import { namespaceToString, tableIdentifierToString, type Namespace, type TableIdentifier } from './iceberg-catalog.ts';

export function noSuchNamespace(namespace: Namespace): GatewayError {
  return new GatewayError(SqlState.invalid_schema_name, `schema "${namespaceToString(namespace)}" does not exist`);
}

export function namespaceAlreadyExists(namespace: Namespace): GatewayError {
  return new GatewayError(SqlState.duplicate_schema, `schema "${namespaceToString(namespace)}" already exists`);
}

export function namespaceNotEmpty(namespace: Namespace, objects: readonly { kind: 'table' | 'view'; name: string }[]): GatewayError {
  const ns = namespaceToString(namespace);
  return new GatewayError(SqlState.dependent_objects_still_exist, `cannot drop schema ${ns} because other objects depend on it`, {
    detail: objects.map((o) => `${o.kind} ${ns}.${o.name} depends on schema ${ns}`).join('\n'),
    hint: 'Use DROP ... CASCADE to drop the dependent objects too.',
  });
}

export function noSuchTable(id: TableIdentifier): GatewayError {
  return undefinedTable(tableIdentifierToString(id));
}

export function tableAlreadyExists(id: TableIdentifier): GatewayError {
  return new GatewayError(SqlState.duplicate_table, `relation "${tableIdentifierToString(id)}" already exists`);
}

/** The commit lost the compare-and-swap: the Iceberg commit layer reloads and retries on this code. */
export function commitConflict(id: TableIdentifier, expected: string): GatewayError {
  return new GatewayError(SqlState.serialization_failure, 'could not serialize access due to concurrent update', {
    detail: `The metadata location of table ${tableIdentifierToString(id)} is no longer "${expected}".`,
  });
}

export function invalidName(message: string): GatewayError {
  return new GatewayError(SqlState.invalid_name, message);
}

export function reservedProperty(key: string): GatewayError {
  return new GatewayError(SqlState.invalid_parameter_value, `cannot set reserved namespace property "${key}"`);
}

/** A failure of the catalog database itself (connection, SQL error): 58030 with the driver error as cause. */
export function catalogDatabaseError(action: string, cause: unknown): GatewayError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new GatewayError(SqlState.io_error, `could not ${action} in the catalog database: ${why}`, { cause });
}

/**
 * GatewayErrors pass through; a transaction the database refused without writing (deadlock, serialization
 * failure, SQLite busy timeout) becomes 40001 so callers retry; any other driver error is 58030.
 */
export async function withCatalogErrors<T>(dialect: SqlDialect, action: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (GatewayError.is(e)) throw e;
    if (dialect.isRetryableConflict(e)) {
      throw new GatewayError(SqlState.serialization_failure, 'could not serialize access due to concurrent update', {
        detail: `The catalog database refused to ${action}: ${e instanceof Error ? e.message : String(e)}`,
        cause: e,
      });
    }
    throw catalogDatabaseError(action, e);
  }
}
