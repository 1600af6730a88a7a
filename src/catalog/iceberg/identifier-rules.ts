/**
 * What a namespace or table name may be in a JDBC-style catalog: namespaces are stored dot-joined in a
 * VARCHAR(255) and split on every dot when read back, so a level may not be empty or contain a dot.
 */
import { GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { invalidName } from './catalog-errors.ts';
import { namespaceToString, type Namespace, type TableIdentifier } from './iceberg-catalog.ts';

/** VARCHAR(255) of table_namespace, table_name, namespace */
export const MAX_NAME_LENGTH = 255;

export function validateNamespace(namespace: Namespace): void {
  if (namespace.length === 0) throw invalidName('a namespace needs at least one level');
  for (const level of namespace) {
    if (level === '') throw invalidName('a namespace level cannot be empty');
    if (level.includes('.')) throw invalidName(`namespace level "${level}" cannot contain "."`);
  }
  const joined = namespaceToString(namespace);
  if (joined.length > MAX_NAME_LENGTH) {
    throw new GatewayError(SqlState.name_too_long, `namespace "${joined}" is longer than ${MAX_NAME_LENGTH} characters`);
  }
}

export function validateTableIdentifier(id: TableIdentifier): void {
  validateNamespace(id.namespace);
  if (id.name === '') throw invalidName('a table name cannot be empty');
  if (id.name.length > MAX_NAME_LENGTH) {
    throw new GatewayError(SqlState.name_too_long, `table name "${id.name}" is longer than ${MAX_NAME_LENGTH} characters`);
  }
}
