/** RestHttp retries and token handling, with a scripted fetch (no server). */
import { describe, expect, it } from 'vitest';
import { encodeNamespace, decodeNamespaceSegment } from './namespace-encoding.ts';
import { RestHttp, type FetchLike } from './rest-http.ts';

function scripted(answers: (number | Error)[], seen: { method: string; url: string; headers: Record<string, string>; body?: string }[] = []): FetchLike {
  return async (url, init) => {
    seen.push({ url, ...init });
    const a = answers.shift() ?? 200;
    if (a instanceof Error) throw a;
    return { status: a, text: async () => (a === 200 && url.endsWith('/tokens') ? '{"access_token":"t1","token_type":"bearer"}' : '{}') };
  };
}

const fast = { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 2 };

describe('RestHttp', () => {
  it('retries GET on 5xx and network errors with backoff, up to maxAttempts', async () => {
    const seen: { method: string; url: string }[] = [];
    const http = new RestHttp('http://x', {}, fast, scripted([500, new Error('ECONNRESET'), 502, 200], seen as never));
    expect((await http.request('GET', '/v1/config')).status).toBe(200);
    expect(seen).toHaveLength(4);
    const failing = new RestHttp('http://x', {}, fast, scripted([500, 500, 500, 500, 200]));
    expect((await failing.request('GET', '/v1/config')).status).toBe(500);
  });

  it('retries a POST only on 503/429, never after a network error', async () => {
    const seen: unknown[] = [];
    const http = new RestHttp('http://x', {}, fast, scripted([503, 429, 500], seen as never));
    expect((await http.request('POST', '/v1/namespaces', {})).status).toBe(500);
    expect(seen).toHaveLength(3);
    const net = new RestHttp('http://x', {}, fast, scripted([new Error('ECONNRESET'), 200]));
    await expect(net.request('POST', '/v1/namespaces', {})).rejects.toMatchObject({ code: '58030' });
  });

  it('fetches an OAuth2 token with client credentials and refetches it once on 401', async () => {
    const seen: { url: string; headers: Record<string, string>; body?: string }[] = [];
    const http = new RestHttp('http://x/', { credential: 'id:secret' }, fast, scripted([200, 200, 401, 200, 200], seen as never));
    await http.request('GET', '/v1/config');
    expect(seen[0]!.url).toBe('http://x/v1/oauth/tokens');
    expect(new URLSearchParams(seen[0]!.body)).toEqual(new URLSearchParams({ grant_type: 'client_credentials', scope: 'catalog', client_id: 'id', client_secret: 'secret' }));
    expect(seen[1]!.headers['authorization']).toBe('Bearer t1');
    expect((await http.request('GET', '/v1/config')).status).toBe(200);
    expect(seen.map((s) => s.url)).toEqual(['http://x/v1/oauth/tokens', 'http://x/v1/config', 'http://x/v1/config', 'http://x/v1/oauth/tokens', 'http://x/v1/config']);
  });

  it('encodes multi-level namespaces with %1F', () => {
    expect(encodeNamespace(['a b', 'c/d'])).toBe('a%20b%1Fc%2Fd');
    expect(decodeNamespaceSegment('a%20b%1Fc%2Fd')).toEqual(['a b', 'c/d']);
    expect(decodeNamespaceSegment('')).toEqual([]);
  });
});
