/**
 * GatewayError: every error a user can see carries a SQLSTATE from the moment it is created.
 * Only wire/ turns it into an ErrorResponse; anything else thrown becomes XX000 there.
 * Message wording follows PostgreSQL's (lower case, no trailing period).
 */
import { SqlState, type SqlStateCode } from './sqlstate.ts';

export type Severity = 'ERROR' | 'FATAL' | 'PANIC' | 'WARNING' | 'NOTICE' | 'DEBUG' | 'INFO' | 'LOG';

export interface ErrorFields {
  readonly detail?: string;
  readonly hint?: string;
  /** 1-based character position in the statement text, as PostgreSQL reports it. */
  readonly position?: number;
  readonly severity?: Severity;
  readonly cause?: unknown;
  readonly schema?: string;
  readonly table?: string;
  readonly column?: string;
  readonly dataType?: string;
  readonly constraint?: string;
  readonly where?: string;
}

const GATEWAY_ERROR = Symbol.for('lakegate/GatewayError');

export class GatewayError extends Error {
  readonly [GATEWAY_ERROR] = true;
  readonly code: string;
  readonly severity: Severity;
  readonly detail?: string;
  readonly hint?: string;
  position?: number;
  readonly schema?: string;
  readonly table?: string;
  readonly column?: string;
  readonly dataType?: string;
  readonly constraint?: string;
  readonly where?: string;

  constructor(code: SqlStateCode | string, message: string, fields: ErrorFields = {}) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.name = 'GatewayError';
    this.code = code;
    this.severity = fields.severity ?? 'ERROR';
    if (fields.detail !== undefined) this.detail = fields.detail;
    if (fields.hint !== undefined) this.hint = fields.hint;
    if (fields.position !== undefined) this.position = fields.position;
    if (fields.schema !== undefined) this.schema = fields.schema;
    if (fields.table !== undefined) this.table = fields.table;
    if (fields.column !== undefined) this.column = fields.column;
    if (fields.dataType !== undefined) this.dataType = fields.dataType;
    if (fields.constraint !== undefined) this.constraint = fields.constraint;
    if (fields.where !== undefined) this.where = fields.where;
  }

  static is(e: unknown): e is GatewayError {
    return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[GATEWAY_ERROR] === true;
  }
}

export function pgError(code: SqlStateCode | string, message: string, fields?: ErrorFields): GatewayError {
  return new GatewayError(code, message, fields);
}

/** 0A000, naming the feature that is not supported. */
export function notSupported(feature: string, fields?: ErrorFields): GatewayError {
  return new GatewayError(SqlState.feature_not_supported, `${feature} is not supported`, fields);
}

export function syntaxError(message: string, position?: number): GatewayError {
  return new GatewayError(SqlState.syntax_error, message, position === undefined ? {} : { position });
}

/** XX000: an invariant broke, which is a lakegate bug. */
export function internalError(message: string, cause?: unknown): GatewayError {
  return new GatewayError(
    SqlState.internal_error,
    `internal error: ${message} (this is a lakegate bug; please report it)`,
    cause === undefined ? {} : { cause },
  );
}

export function protocolViolation(message: string): GatewayError {
  return new GatewayError(SqlState.protocol_violation, message, { severity: 'FATAL' });
}

export function undefinedTable(name: string, position?: number): GatewayError {
  return new GatewayError(SqlState.undefined_table, `relation "${name}" does not exist`, position === undefined ? {} : { position });
}

export function undefinedColumn(name: string, position?: number): GatewayError {
  return new GatewayError(SqlState.undefined_column, `column ${name} does not exist`, position === undefined ? {} : { position });
}

export function divisionByZero(): GatewayError {
  return new GatewayError(SqlState.division_by_zero, 'division by zero');
}

export function outOfRange(typeName: string): GatewayError {
  return new GatewayError(SqlState.numeric_value_out_of_range, `${typeName} out of range`);
}

export function invalidTextRepresentation(typeName: string, input: string): GatewayError {
  return new GatewayError(SqlState.invalid_text_representation, `invalid input syntax for type ${typeName}: "${input}"`);
}

export function queryCanceled(reason = 'canceling statement due to user request'): GatewayError {
  return new GatewayError(SqlState.query_canceled, reason);
}

/** Wraps any throwable as a GatewayError; non-gateway errors become XX000. */
export function toGatewayError(e: unknown): GatewayError {
  if (GatewayError.is(e)) return e;
  const message = e instanceof Error ? e.message : String(e);
  return internalError(message, e);
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw internalError(message);
}
