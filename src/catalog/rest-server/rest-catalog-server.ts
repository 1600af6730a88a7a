/**
 * An Iceberg REST catalog server (node:http, no framework) over lakegate's IcebergCatalogs: one catalog per
 * lakegate database, chosen by the URL `{prefix}` (= database name). `GET /v1/config?warehouse=<database>`
 * tells a client its prefix; paths without a prefix (`/v1/namespaces`) use the first database.
 * Optional bearer-token auth: with `token`, every route but `/v1/oauth/tokens` needs `Authorization: Bearer <token>`; the token endpoint hands out that token for
 * client-credentials whose secret is the token itself (so OAuth2-only clients work too).
 * @see /work/shared/spec/iceberg-rest-catalog-open-api.yaml
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import type { IcebergCatalog } from '../iceberg/iceberg-catalog.ts';
import { errorBody, RestError, toRestError } from './rest-errors.ts';
import { parseRequestBody } from './lossless-doc.ts';
import { json, type RestContext, type RestMetadataIO, type RestRequest, type RestResponse } from './rest-request.ts';
import { routeCatalogRequest } from './rest-router.ts';

export interface RestCatalogServerOptions {
  /** the databases served, first = default */
  readonly catalogNames: readonly string[];
  catalog(name: string): IcebergCatalog | undefined;
  readonly io: RestMetadataIO;
  /** static bearer token required on every request (absent: no auth) */
  readonly token?: string;
  /** after a namespace/table change in `catalogName` */
  onChange?(catalogName: string): Promise<void> | void;
}

const MAX_BODY = 4 << 20;

export class RestCatalogServer {
  private readonly http: Server;

  constructor(private readonly options: RestCatalogServerOptions) {
    this.http = createServer((req, res) => void this.serve(req, res));
  }

  async listen(port: number, host = '127.0.0.1'): Promise<{ port: number; host: string }> {
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(port, host, () => {
        this.http.off('error', reject);
        resolve();
      });
    });
    const addr = this.http.address() as AddressInfo;
    return { port: addr.port, host: addr.address };
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let response: RestResponse;
    try {
      response = await this.handle(req);
    } catch (e) {
      const err = toRestError(e);
      response = { status: err.status, body: errorBody(err) };
    }
    const headers: Record<string, string> = {};
    if (response.body !== undefined) headers['content-type'] = 'application/json';
    if (response.status === 401) headers['www-authenticate'] = 'Bearer';
    res.writeHead(response.status, headers);
    res.end(req.method === 'HEAD' ? undefined : response.body);
  }

  private async handle(req: IncomingMessage): Promise<RestResponse> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const rawSegments = url.pathname.split('/').filter((s) => s !== '');
    if (rawSegments[0] !== 'v1') throw new RestError(404, 'NotFoundException', `no route for ${req.method} ${url.pathname}`);
    const raw = await readBody(req);
    if (rawSegments[1] === 'oauth' && rawSegments[2] === 'tokens' && req.method === 'POST') return this.token(raw);
    this.authorize(req);
    if (rawSegments[1] === 'config' && rawSegments.length === 2 && req.method === 'GET') return this.config(url.searchParams);

    let rest = rawSegments.slice(1);
    let catalogName = this.options.catalogNames[0];
    const first = rest[0] === undefined ? undefined : decodeURIComponent(rest[0]);
    if (first !== undefined && first !== 'namespaces' && first !== 'tables' && first !== 'transactions') {
      catalogName = first;
      rest = rest.slice(1);
    }
    const catalog = catalogName === undefined ? undefined : this.options.catalog(catalogName);
    if (catalog === undefined || catalogName === undefined) throw new RestError(404, 'NoSuchWarehouseException', `catalog "${first ?? ''}" does not exist`);
    // lossless: snapshot ids in add-snapshot / assert-ref-snapshot-id may exceed 2^53
    const body: unknown = raw.length > 0 ? parseRequestBody(raw) : undefined;
    const ctx: RestContext = {
      catalogName,
      catalog,
      io: this.options.io,
      changed: async () => {
        await this.options.onChange?.(catalogName);
      },
    };
    const request: RestRequest = {
      method: req.method ?? 'GET',
      segments: rest.map((s) => decodeURIComponent(s)),
      rawSegments: rest,
      query: url.searchParams,
      body,
    };
    return routeCatalogRequest(ctx, request);
  }

  /** GET /v1/config: `prefix` = the database chosen by `warehouse` (default: the first one) */
  private config(query: URLSearchParams): RestResponse {
    const warehouse = query.get('warehouse');
    const name = warehouse === null || warehouse === '' ? this.options.catalogNames[0] : warehouse;
    if (name === undefined || !this.options.catalogNames.includes(name) || this.options.catalog(name) === undefined) {
      throw new RestError(400, 'BadRequestException', `warehouse "${warehouse ?? ''}" does not exist; this server serves: ${this.options.catalogNames.join(', ')}`);
    }
    return json({ defaults: {}, overrides: { prefix: name }, endpoints: SUPPORTED_ENDPOINTS });
  }

  private authorize(req: IncomingMessage): void {
    const token = this.options.token;
    if (token === undefined) return;
    const header = req.headers['authorization'] ?? '';
    const m = /^Bearer\s+(.+)$/i.exec(header);
    if (m === null || !sameSecret(m[1]!.trim(), token)) {
      throw new RestError(401, 'NotAuthorizedException', 'Not authorized: a valid bearer token is required');
    }
  }

  /** POST /v1/oauth/tokens (client_credentials): the static token, for a client secret equal to it */
  private token(raw: string): RestResponse {
    const form = new URLSearchParams(raw);
    const oauthError = (error: string, description: string): RestResponse => ({
      status: error === 'invalid_client' ? 401 : 400,
      body: JSON.stringify({ error, error_description: description }),
    });
    if (form.get('grant_type') !== 'client_credentials') return oauthError('unsupported_grant_type', 'only client_credentials is supported');
    if (this.options.token === undefined) return json({ access_token: 'anonymous', token_type: 'bearer', issued_token_type: 'urn:ietf:params:oauth:token-type:access_token' });
    if (!sameSecret(form.get('client_secret') ?? '', this.options.token)) return oauthError('invalid_client', 'invalid client credentials');
    return json({ access_token: this.options.token, token_type: 'bearer', issued_token_type: 'urn:ietf:params:oauth:token-type:access_token' });
  }
}

export const SUPPORTED_ENDPOINTS: readonly string[] = [
  'GET /v1/{prefix}/namespaces',
  'POST /v1/{prefix}/namespaces',
  'GET /v1/{prefix}/namespaces/{namespace}',
  'HEAD /v1/{prefix}/namespaces/{namespace}',
  'DELETE /v1/{prefix}/namespaces/{namespace}',
  'POST /v1/{prefix}/namespaces/{namespace}/properties',
  'GET /v1/{prefix}/namespaces/{namespace}/tables',
  'POST /v1/{prefix}/namespaces/{namespace}/tables',
  'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  'GET /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  'HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  'DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  'POST /v1/{prefix}/namespaces/{namespace}/register',
  'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/unregister',
  'POST /v1/{prefix}/tables/rename',
  'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics',
  'GET /v1/{prefix}/namespaces/{namespace}/views',
  'POST /v1/{prefix}/namespaces/{namespace}/views',
  'POST /v1/{prefix}/namespaces/{namespace}/views/{view}',
  'GET /v1/{prefix}/namespaces/{namespace}/views/{view}',
  'HEAD /v1/{prefix}/namespaces/{namespace}/views/{view}',
  'DELETE /v1/{prefix}/namespaces/{namespace}/views/{view}',
  'POST /v1/{prefix}/views/rename',
  'POST /v1/{prefix}/namespaces/{namespace}/register-view',
];

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new RestError(413, 'BadRequestException', 'request body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
