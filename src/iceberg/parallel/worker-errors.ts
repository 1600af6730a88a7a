/**
 * Errors across threads. Structured clone keeps an Error's message but drops its own fields (SQLSTATE code,
 * detail, hint…) and its class, so a worker sends a plain record and the main thread rebuilds the
 * GatewayError a main-thread read would have thrown: same SQLSTATE, same message.
 */
import { GatewayError, type ErrorFields } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';

/** a GatewayError's fields that survive structured clone (`cause` may not; `position` belongs to statements) */
export interface PlainError extends Omit<ErrorFields, 'position' | 'cause'> {
  readonly gateway: boolean;
  readonly code: string;
  readonly message: string;
  readonly stack?: string;
}

const FIELDS = ['detail', 'hint', 'schema', 'table', 'column', 'dataType', 'constraint', 'where'] as const;

export function toPlainError(e: unknown): PlainError {
  if (GatewayError.is(e)) {
    const out: Record<string, unknown> = { gateway: true, code: e.code, message: e.message, severity: e.severity };
    for (const f of FIELDS) if (e[f] !== undefined) out[f] = e[f];
    if (e.stack !== undefined) out['stack'] = e.stack;
    return out as unknown as PlainError;
  }
  const err = e instanceof Error ? e : new Error(String(e));
  return { gateway: false, code: SqlState.internal_error, message: err.message, ...(err.stack === undefined ? {} : { stack: err.stack }) };
}

/** The GatewayError to throw on the main thread; errors that were not GatewayErrors become XX000 as the wire would make them. */
export function fromPlainError(p: PlainError): GatewayError {
  const fields: Record<string, unknown> = {};
  for (const f of FIELDS) if (p[f] !== undefined) fields[f] = p[f];
  if (p.severity !== undefined) fields['severity'] = p.severity;
  const e = new GatewayError(p.code, p.message, fields as ErrorFields);
  if (p.stack !== undefined) e.stack = `${e.stack ?? ''}\n    --- in scan worker ---\n${p.stack}`;
  return e;
}
