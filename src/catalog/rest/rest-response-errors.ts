/**
 * An IcebergErrorResponse from a REST catalog → the GatewayError lakegate's own catalogs raise for the
 * same situation (catalog/iceberg/catalog-errors.ts), so the engine cannot tell the catalogs apart.
 */
import { GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { commitConflict, namespaceAlreadyExists, noSuchNamespace, noSuchTable, tableAlreadyExists } from '../iceberg/catalog-errors.ts';
import type { Namespace, TableIdentifier } from '../iceberg/iceberg-catalog.ts';
import type { RestHttpResponse } from './rest-http.ts';

export interface ErrorSubject {
  readonly namespace?: Namespace;
  readonly table?: TableIdentifier;
  /** the operation, for messages: "list namespaces" */
  readonly action: string;
}

export function errorOf(res: RestHttpResponse): { type: string; message: string } {
  try {
    const doc = JSON.parse(res.body) as { error?: { type?: unknown; message?: unknown } };
    const e = doc.error;
    if (e !== undefined) return { type: typeof e.type === 'string' ? e.type : '', message: typeof e.message === 'string' ? e.message : '' };
  } catch {
    /* not JSON */
  }
  return { type: '', message: res.body.slice(0, 200) };
}

export function restResponseError(res: RestHttpResponse, subject: ErrorSubject): GatewayError {
  const { type, message } = errorOf(res);
  const ns = subject.namespace ?? subject.table?.namespace;
  if ((type === 'NoSuchTableException' || type === 'NoSuchViewException') && subject.table !== undefined) return noSuchTable(subject.table);
  if (type === 'NoSuchNamespaceException' && ns !== undefined) return noSuchNamespace(ns);
  if (type === 'NamespaceNotEmptyException' && subject.namespace !== undefined) {
    return new GatewayError(SqlState.dependent_objects_still_exist, `cannot drop schema ${subject.namespace.join('.')} because other objects depend on it`, { detail: message });
  }
  if (type === 'AlreadyExistsException') {
    if (subject.table !== undefined) return tableAlreadyExists(subject.table);
    if (subject.namespace !== undefined) return namespaceAlreadyExists(subject.namespace);
  }
  if (type === 'CommitFailedException' && subject.table !== undefined) return commitConflict(subject.table, '');
  if (res.status === 401 || res.status === 403) {
    return new GatewayError(SqlState.invalid_authorization_specification, `REST catalog refused to ${subject.action}: ${message || `HTTP ${res.status}`}`);
  }
  if (res.status === 400 || res.status === 422) {
    return new GatewayError(SqlState.invalid_parameter_value, `REST catalog refused to ${subject.action}: ${message || `HTTP ${res.status}`}`);
  }
  if (res.status === 501) return new GatewayError(SqlState.feature_not_supported, `REST catalog does not support: ${subject.action}: ${message}`);
  return new GatewayError(SqlState.io_error, `could not ${subject.action} in the REST catalog: HTTP ${res.status}${type ? ` ${type}` : ''}${message ? `: ${message}` : ''}`);
}
