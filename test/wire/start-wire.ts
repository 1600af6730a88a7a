/** Starts a PgWireServer on 127.0.0.1:0 with the in-test FakeHandler and the stand-in codec. */
import type { SecureContext } from 'node:tls';
import type { AuthConfig } from '../../src/wire/auth/authenticator.ts';
import { PgWireServer } from '../../src/wire/server.ts';
import { FakeHandler } from '../../src/wire/testing/fake-handler.ts';
import { testCodec } from '../../src/wire/testing/test-codec.ts';
import { silentLogger, type WireLogger } from '../../src/wire/wire-logger.ts';

export interface WireFixture {
  readonly port: number;
  readonly host: string;
  readonly handler: FakeHandler;
  readonly server: PgWireServer;
  readonly errors: unknown[];
  close(): Promise<void>;
}

export async function startWire(opts: { auth?: AuthConfig; maxConnections?: number; tls?: SecureContext; idleSessionTimeoutMs?: number; authenticationTimeoutMs?: number } = {}): Promise<WireFixture> {
  const handler = new FakeHandler();
  const errors: unknown[] = [];
  const log: WireLogger = { ...silentLogger, error: (_m, e) => errors.push(e) };
  const server = new PgWireServer({ handler, codec: testCodec, log, ...opts });
  const { port, host } = await server.listen(0, '127.0.0.1');
  return { port, host, handler, server, errors, close: () => server.close() };
}
