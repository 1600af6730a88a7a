/**
 * TLS for the wire server: loads the PEM certificate and key named in the config into a SecureContext.
 * @see https://www.postgresql.org/docs/current/ssl-tcp.html
 */
import { readFileSync } from 'node:fs';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { Config } from './config.ts';

export function loadTlsContext(tls: Config['tls']): SecureContext | undefined {
  if (!tls) return undefined;
  return createSecureContext({ cert: readFileSync(tls.cert), key: readFileSync(tls.key) });
}
