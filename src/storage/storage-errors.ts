/**
 * Storage failures as GatewayErrors. Every I/O error is 58030 (io_error) with PostgreSQL's wording
 * (`could not read file "%s": %m`) and the underlying error as `cause`; a missing object is the
 * distinct NotFoundError so callers can test for it (`NotFoundError.is(e)`).
 * @see https://www.postgresql.org/docs/current/errcodes-appendix.html
 */
import { GatewayError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';

const NOT_FOUND = Symbol.for('lakegate/storage/NotFoundError');

/** What was being done, in PostgreSQL's verb: `could not <op> file "…"`. */
export type IoOperation = 'open' | 'read' | 'write' | 'stat' | 'remove' | 'list' | 'create';

export class NotFoundError extends GatewayError {
  readonly [NOT_FOUND] = true;
  readonly uri: string;

  constructor(uri: string, cause?: unknown) {
    super(SqlState.io_error, `could not open file "${uri}": No such file or directory`, cause === undefined ? {} : { cause });
    this.name = 'NotFoundError';
    this.uri = uri;
  }

  static override is(e: unknown): e is NotFoundError {
    return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[NOT_FOUND] === true;
  }
}

/** 58030 for a failed operation on `uri`, keeping `cause`; a GatewayError cause is passed through. */
export function ioError(op: IoOperation, uri: string, cause: unknown): GatewayError {
  if (GatewayError.is(cause)) return cause;
  const reason = describeCause(cause);
  const what = op === 'list' ? `could not open directory "${uri}"` : `could not ${op} file "${uri}"`;
  return new GatewayError(SqlState.io_error, `${what}: ${reason}`, { cause });
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    const status = (cause as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    const parts = [cause.name !== 'Error' ? cause.name : typeof code === 'string' ? code : '', cause.message];
    if (status !== undefined) parts.push(`(HTTP ${status})`);
    return parts.filter((p) => p !== '').join(': ').replace(/: \(HTTP/, ' (HTTP');
  }
  return String(cause);
}
