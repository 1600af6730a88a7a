/**
 * `fetch` over the local file system for readers that only speak HTTP (icebird): plain paths and file:// URLs,
 * with HEAD and Range requests answered as an object store would.
 */
import { existsSync, readFileSync } from 'node:fs';

export const localFetch = (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const url = String(input instanceof Request ? input.url : input);
  const path = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  if (!path.startsWith('/') || !existsSync(path)) return new Response('not found', { status: 404 });
  const all = readFileSync(path);
  if (init?.method === 'HEAD') return new Response(null, { status: 200, headers: { 'content-length': String(all.length) } });
  const range = /bytes=(\d+)-(\d*)/.exec(new Headers(init?.headers).get('Range') ?? '');
  if (range) {
    const from = Number(range[1]);
    const to = range[2] ? Number(range[2]) + 1 : all.length;
    return new Response(all.subarray(from, to), { status: 206, headers: { 'content-length': String(to - from) } });
  }
  return new Response(all, { status: 200, headers: { 'content-length': String(all.length) } });
}) as typeof fetch;
