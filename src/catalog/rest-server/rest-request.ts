/** The parsed request a route handles and the response it returns (bodies are JSON text). */
import type { IcebergCatalog } from '../iceberg/iceberg-catalog.ts';
import { badRequest } from './rest-errors.ts';

/** What the REST server needs from storage: reading and creating metadata files (storage/'s FileIO fits). */
export interface RestMetadataIO {
  read(uri: string): Promise<Uint8Array>;
  /** atomic create (false when the file exists); absent = create and commit answer 501 */
  writeIfAbsent?(uri: string, data: Uint8Array): Promise<boolean>;
}

export interface RestContext {
  readonly catalogName: string;
  readonly catalog: IcebergCatalog;
  readonly io: RestMetadataIO;
  /** called after a change to the catalog (the engine refreshes its mirror) */
  changed(): Promise<void>;
}

export interface RestRequest {
  readonly method: string;
  /** decoded path segments after `/v1/{prefix}` */
  readonly segments: readonly string[];
  /** raw (percent-encoded) segments, for namespaces */
  readonly rawSegments: readonly string[];
  readonly query: URLSearchParams;
  readonly body: unknown;
}

export interface RestResponse {
  readonly status: number;
  /** JSON text; absent for 204 and HEAD */
  readonly body?: string;
}

export const noContent: RestResponse = { status: 204 };
export const json = (value: unknown): RestResponse => ({ status: 200, body: JSON.stringify(value) });

/** the request body as an object (400 otherwise) */
export function bodyObject(req: RestRequest): Record<string, unknown> {
  const b = req.body;
  if (b === null || typeof b !== 'object' || Array.isArray(b)) throw badRequest('Malformed request: expected a JSON object body');
  return b as Record<string, unknown>;
}

export function stringField(o: Record<string, unknown>, key: string): string {
  const v = o[key];
  if (typeof v !== 'string' || v === '') throw badRequest(`Malformed request: "${key}" must be a non-empty string`);
  return v;
}

export function stringArray(v: unknown, what: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw badRequest(`Malformed request: "${what}" must be an array of strings`);
  return v as string[];
}

export function stringMap(v: unknown, what: string): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v) || !Object.values(v).every((x) => typeof x === 'string')) {
    throw badRequest(`Malformed request: "${what}" must be an object of strings`);
  }
  return { ...(v as Record<string, string>) };
}
