/**
 * The HTTP side of the REST catalog client: base URL + prefix, bearer token (static, or fetched with
 * OAuth2 client credentials from `/v1/oauth/tokens` and refetched once on 401), JSON bodies, and retries
 * with jittered exponential backoff on 5xx/429/network errors. POSTs are retried only on 429/503 (the
 * server did not act), never after a network error so a non-idempotent request is never applied twice.
 */
import { GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { stringifyLossless } from '../rest-server/lossless-doc.ts';

export interface RestRetryOptions {
  readonly maxAttempts?: number;
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
}

export interface RestAuthOptions {
  /** static bearer token */
  readonly token?: string;
  /** OAuth2 client credentials `client_id:client_secret` (or just the secret) */
  readonly credential?: string;
  readonly scope?: string;
  /** token endpoint; default `<uri>/v1/oauth/tokens` */
  readonly oauth2ServerUri?: string;
}

/** An HTTP answer; `body` is the response text ('' for 204/HEAD). */
export interface RestHttpResponse {
  readonly status: number;
  readonly body: string;
}

export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<{ status: number; text(): Promise<string> }>;

export class RestHttp {
  private token: string | undefined;
  prefix = '';

  constructor(
    readonly uri: string,
    private readonly auth: RestAuthOptions = {},
    private readonly retry: RestRetryOptions = {},
    private readonly fetchImpl: FetchLike = fetch as unknown as FetchLike,
  ) {
    this.token = auth.token;
  }

  /** `/v1/{prefix}/<path>` (or `/v1/<path>` without a prefix) */
  catalogPath(path: string): string {
    return this.prefix === '' ? `/v1/${path}` : `/v1/${encodeURIComponent(this.prefix)}/${path}`;
  }

  async request(method: string, path: string, body?: unknown): Promise<RestHttpResponse> {
    if (this.token === undefined && this.auth.credential !== undefined) await this.fetchToken();
    let res = await this.send(method, path, body);
    if (res.status === 401 && this.auth.credential !== undefined) {
      await this.fetchToken(); // expired: once more with a fresh token
      res = await this.send(method, path, body);
    }
    return res;
  }

  private async send(method: string, path: string, body?: unknown): Promise<RestHttpResponse> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token !== undefined) headers['authorization'] = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const init = { method, headers, ...(body === undefined ? {} : { body: stringifyLossless(body) }) }; // snapshot ids may be bigint
    return this.withRetry(method, `${method} ${path}`, () => this.fetchImpl(`${this.uri.replace(/\/+$/, '')}${path}`, init));
  }

  private async fetchToken(): Promise<void> {
    const credential = this.auth.credential!;
    const colon = credential.indexOf(':');
    const form = new URLSearchParams({ grant_type: 'client_credentials', scope: this.auth.scope ?? 'catalog' });
    if (colon >= 0) form.set('client_id', credential.slice(0, colon));
    form.set('client_secret', colon >= 0 ? credential.slice(colon + 1) : credential);
    const url = this.auth.oauth2ServerUri ?? `${this.uri.replace(/\/+$/, '')}/v1/oauth/tokens`;
    const res = await this.withRetry('POST', 'POST /v1/oauth/tokens', () =>
      this.fetchImpl(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: form.toString() }),
    );
    let doc: { access_token?: unknown; error?: unknown; error_description?: unknown } = {};
    try {
      doc = JSON.parse(res.body) as typeof doc;
    } catch {
      /* reported below */
    }
    if (res.status !== 200 || typeof doc.access_token !== 'string') {
      const why = typeof doc.error_description === 'string' ? doc.error_description : typeof doc.error === 'string' ? doc.error : `HTTP ${res.status}`;
      throw new GatewayError(SqlState.invalid_authorization_specification, `REST catalog authentication failed: ${why}`);
    }
    this.token = doc.access_token;
  }

  private async withRetry(method: string, what: string, run: () => Promise<{ status: number; text(): Promise<string> }>): Promise<RestHttpResponse> {
    const max = this.retry.maxAttempts ?? 4;
    const base = this.retry.baseDelayMs ?? 100;
    const cap = this.retry.maxDelayMs ?? 5000;
    for (let attempt = 1; ; attempt++) {
      try {
        const r = await run();
        const text = await r.text();
        if (!retryableStatus(method, r.status) || attempt >= max) return { status: r.status, body: text };
      } catch (e) {
        // a POST that may have reached the server is not sent again
        if (attempt >= max || method === 'POST') {
          throw new GatewayError(SqlState.io_error, `could not reach the REST catalog (${what}): ${e instanceof Error ? e.message : String(e)}`, { cause: e });
        }
      }
      const delay = Math.min(cap, base * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

function retryableStatus(method: string, status: number): boolean {
  if (status === 429 || status === 503) return true;
  return status >= 500 && method !== 'POST';
}
