/**
 * TLS upgrade after SSLRequest → 'S': a server-side TLSSocket over the already-connected socket.
 * @see https://www.postgresql.org/docs/current/protocol-flow.html#PROTOCOL-FLOW-SSL
 */
import type { Socket } from 'node:net';
import { type SecureContext, TLSSocket } from 'node:tls';

export function upgradeToTls(raw: Socket, secureContext: SecureContext, onData: (chunk: Buffer) => void, onClose: () => void): TLSSocket {
  const tls = new TLSSocket(raw, { isServer: true, secureContext });
  tls.on('data', onData);
  tls.on('error', () => {
    onClose();
    raw.destroy();
  });
  tls.on('close', onClose);
  return tls;
}
