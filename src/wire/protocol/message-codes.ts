/**
 * Message type bytes and startup codes of the PostgreSQL v3 protocol, named as in the spec.
 * @see https://www.postgresql.org/docs/current/protocol-message-formats.html
 */

/** Type bytes of messages sent by the client (frontend). */
export const FrontendCode = {
  Bind: 0x42, // 'B'
  Close: 0x43, // 'C'
  CopyData: 0x64, // 'd'
  CopyDone: 0x63, // 'c'
  CopyFail: 0x66, // 'f'
  Describe: 0x44, // 'D'
  Execute: 0x45, // 'E'
  Flush: 0x48, // 'H'
  FunctionCall: 0x46, // 'F'
  Parse: 0x50, // 'P'
  PasswordMessage: 0x70, // 'p' (also SASLInitialResponse, SASLResponse, GSSResponse)
  Query: 0x51, // 'Q'
  Sync: 0x53, // 'S'
  Terminate: 0x58, // 'X'
} as const;
export type FrontendCode = (typeof FrontendCode)[keyof typeof FrontendCode];

/** Type bytes of messages sent by the server (backend). */
export const BackendCode = {
  Authentication: 0x52, // 'R'
  BackendKeyData: 0x4b, // 'K'
  BindComplete: 0x32, // '2'
  CloseComplete: 0x33, // '3'
  CommandComplete: 0x43, // 'C'
  CopyData: 0x64, // 'd'
  CopyDone: 0x63, // 'c'
  CopyInResponse: 0x47, // 'G'
  CopyOutResponse: 0x48, // 'H'
  DataRow: 0x44, // 'D'
  EmptyQueryResponse: 0x49, // 'I'
  ErrorResponse: 0x45, // 'E'
  NegotiateProtocolVersion: 0x76, // 'v'
  NoData: 0x6e, // 'n'
  NoticeResponse: 0x4e, // 'N'
  ParameterDescription: 0x74, // 't'
  ParameterStatus: 0x53, // 'S'
  ParseComplete: 0x31, // '1'
  PortalSuspended: 0x73, // 's'
  ReadyForQuery: 0x5a, // 'Z'
  RowDescription: 0x54, // 'T'
} as const;
export type BackendCode = (typeof BackendCode)[keyof typeof BackendCode];

/** The int32 that follows the length in untyped startup-phase packets. */
export const StartupCode = {
  /** protocol 3.0 = (3 << 16) | 0 */
  ProtocolVersion3: 196608,
  CancelRequest: 80877102,
  SSLRequest: 80877103,
  GSSENCRequest: 80877104,
} as const;

/** Authentication request subtypes (the int32 after 'R'). */
export const AuthCode = {
  Ok: 0,
  CleartextPassword: 3,
  MD5Password: 5,
  SASL: 10,
  SASLContinue: 11,
  SASLFinal: 12,
} as const;

/** Field type bytes of ErrorResponse and NoticeResponse. */
export const ErrorField = {
  Severity: 0x53, // 'S' localized severity
  SeverityNonLocalized: 0x56, // 'V'
  Code: 0x43, // 'C'
  Message: 0x4d, // 'M'
  Detail: 0x44, // 'D'
  Hint: 0x48, // 'H'
  Position: 0x50, // 'P'
  Where: 0x57, // 'W'
  SchemaName: 0x73, // 's'
  TableName: 0x74, // 't'
  ColumnName: 0x63, // 'c'
  DataTypeName: 0x64, // 'd'
  ConstraintName: 0x6e, // 'n'
} as const;

/** PostgreSQL's own limit on startup packets (MAX_STARTUP_PACKET_LENGTH). */
export const MAX_STARTUP_PACKET_LENGTH = 10000;
