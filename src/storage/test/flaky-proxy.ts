/**
 * Test fixture: an HTTP proxy in front of s3rver that fails requests on a script, so retry behaviour is
 * deterministic. Each request takes the next step of `plan` ('slowdown' → 503 SlowDown, 'error500' → 500
 * InternalError, 'reset' → socket destroyed); when the plan is empty it forwards to the target unchanged
 * (headers included, so SigV4 signatures still match).
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FlakyStep = 'slowdown' | 'error500' | 'reset';

export interface FlakyProxy {
  readonly endpoint: string;
  readonly plan: FlakyStep[];
  /** Requests seen, failed or forwarded. */
  requests: number;
  close(): Promise<void>;
}

const xmlError = (code: string, message: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>flaky</RequestId></Error>`;

export async function startFlakyProxy(target: string): Promise<FlakyProxy> {
  const { hostname, port } = new URL(target);
  const state: FlakyProxy = {
    endpoint: '',
    plan: [],
    requests: 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  const fail = (req: IncomingMessage, res: ServerResponse, status: number, body: string): void => {
    req.resume();
    req.on('end', () => res.writeHead(status, { 'content-type': 'application/xml' }).end(body));
  };
  const server = createServer((req, res) => {
    state.requests += 1;
    const step = state.plan.shift();
    if (step === 'slowdown') return fail(req, res, 503, xmlError('SlowDown', 'Please reduce your request rate.'));
    if (step === 'error500') return fail(req, res, 500, xmlError('InternalError', 'We encountered an internal error. Please try again.'));
    if (step === 'reset') return void req.socket.destroy();
    const upstream = request({ hostname, port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address() as AddressInfo;
  return Object.assign(state, { endpoint: `http://127.0.0.1:${addr.port}` });
}
