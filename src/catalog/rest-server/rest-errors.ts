/**
 * IcebergErrorResponse (`{ error: { message, type, code } }`) and the mapping from lakegate's catalog
 * errors (GatewayError SQLSTATEs, see catalog/iceberg/catalog-errors.ts) to the REST spec's exception
 * types and HTTP status codes, as Iceberg Java's ErrorHandlers expect them.
 */
import { GatewayError } from '../../common/errors.ts';

/** An error the server answers with as-is. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string): RestError => new RestError(400, 'BadRequestException', message);
export const notImplemented = (message: string): RestError => new RestError(501, 'UnsupportedOperationException', message);

const BY_SQLSTATE: Readonly<Record<string, readonly [number, string]>> = {
  '3F000': [404, 'NoSuchNamespaceException'],
  '42P01': [404, 'NoSuchTableException'],
  '42P06': [409, 'AlreadyExistsException'],
  '42P07': [409, 'AlreadyExistsException'],
  '2BP01': [409, 'NamespaceNotEmptyException'],
  '40001': [409, 'CommitFailedException'],
  '42602': [400, 'BadRequestException'],
  '42622': [400, 'BadRequestException'],
  '22023': [400, 'BadRequestException'],
  '0A000': [501, 'UnsupportedOperationException'],
  '58030': [500, 'ServiceFailureException'],
};

export function toRestError(e: unknown): RestError {
  if (e instanceof RestError) return e;
  if (GatewayError.is(e)) {
    const [status, type] = BY_SQLSTATE[e.code] ?? [500, 'InternalServerError'];
    const detail = e.detail === undefined ? '' : ` (${e.detail})`;
    return new RestError(status, type, `${e.message}${detail}`);
  }
  return new RestError(500, 'InternalServerError', e instanceof Error ? e.message : String(e));
}

export function errorBody(e: RestError): string {
  return JSON.stringify({ error: { message: e.message, type: e.type, code: e.status } });
}
