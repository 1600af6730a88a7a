/**
 * Typed client (frontend) messages, as produced by FrontendParser. Names follow the spec verbatim.
 * @see https://www.postgresql.org/docs/current/protocol-message-formats.html
 */
import type { GatewayError } from '../../common/errors.ts';

export interface StartupMessage {
  readonly type: 'StartupMessage';
  /** (major << 16) | minor */
  readonly protocolVersion: number;
  readonly parameters: Readonly<Record<string, string>>;
}
export interface SSLRequest {
  readonly type: 'SSLRequest';
}
export interface GSSENCRequest {
  readonly type: 'GSSENCRequest';
}
export interface CancelRequest {
  readonly type: 'CancelRequest';
  readonly processId: number;
  readonly secretKey: number;
}
export interface Query {
  readonly type: 'Query';
  readonly sql: string;
}
export interface Parse {
  readonly type: 'Parse';
  readonly name: string;
  readonly sql: string;
  readonly paramTypes: readonly number[];
}
export interface Bind {
  readonly type: 'Bind';
  readonly portal: string;
  readonly statement: string;
  readonly paramFormats: readonly number[];
  /** null = SQL NULL */
  readonly params: readonly (Uint8Array | null)[];
  readonly resultFormats: readonly number[];
}
export interface Describe {
  readonly type: 'Describe';
  readonly target: 'S' | 'P';
  readonly name: string;
}
export interface Execute {
  readonly type: 'Execute';
  readonly portal: string;
  /** 0 = no limit */
  readonly maxRows: number;
}
export interface Close {
  readonly type: 'Close';
  readonly target: 'S' | 'P';
  readonly name: string;
}
export interface Sync {
  readonly type: 'Sync';
}
export interface Flush {
  readonly type: 'Flush';
}
export interface Terminate {
  readonly type: 'Terminate';
}
export interface CopyData {
  readonly type: 'CopyData';
  readonly data: Uint8Array;
}
export interface CopyDone {
  readonly type: 'CopyDone';
}
export interface CopyFail {
  readonly type: 'CopyFail';
  readonly message: string;
}
/** 'p': PasswordMessage, SASLInitialResponse or SASLResponse; the auth exchange knows which. */
export interface PasswordMessage {
  readonly type: 'PasswordMessage';
  readonly data: Uint8Array;
}
export interface FunctionCall {
  readonly type: 'FunctionCall';
}
/** A message whose framing was fine but whose body was not (an ERROR, not FATAL). */
export interface Malformed {
  readonly type: 'Malformed';
  readonly code: number;
  readonly error: GatewayError;
}
/** A type byte the protocol does not define (FATAL in PostgreSQL). */
export interface UnknownMessage {
  readonly type: 'Unknown';
  readonly code: number;
}

export type StartupPacket = StartupMessage | SSLRequest | GSSENCRequest | CancelRequest;

export type FrontendMessage =
  | StartupPacket
  | Query
  | Parse
  | Bind
  | Describe
  | Execute
  | Close
  | Sync
  | Flush
  | Terminate
  | CopyData
  | CopyDone
  | CopyFail
  | PasswordMessage
  | FunctionCall
  | Malformed
  | UnknownMessage;

export type FrontendMessageType = FrontendMessage['type'];
