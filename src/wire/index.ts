/**
 * wire: the PostgreSQL v3 protocol server. Public surface of the module.
 * @see https://www.postgresql.org/docs/current/protocol.html
 */
export type * from './handler.ts';
export { PgWireServer, type PgWireServerOptions } from './server.ts';
export { PgConnection, type ConnectionOptions } from './connection.ts';
export { CancelRegistry } from './cancel-registry.ts';
export { type ValueCodec, loadPgtypesCodec } from './encode/value-codec.ts';
export { encodeDataRows, rowEncoding, type RowEncoding } from './encode/data-row-encoder.ts';
export { AuthMethod, type AuthConfig, type AuthUser, authenticate, isLoopback } from './auth/authenticator.ts';
export { makeScramVerifier, parseScramVerifier, verifyPasswordAgainstScram, ScramServerExchange } from './auth/scram-sha-256.ts';
export { FrontendParser } from './protocol/frontend-parser.ts';
export { BufferWriter } from './protocol/buffer-writer.ts';
export { consoleLogger, silentLogger, type WireLogger } from './wire-logger.ts';
export { UnixSocketListeners, parseSocketDirectories, isUnixSocket } from './unix-socket-listeners.ts';
export { unixSocketPath } from './unix-socket-lock.ts';
