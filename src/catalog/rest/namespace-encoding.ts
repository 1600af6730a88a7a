/**
 * Namespaces in REST catalog URLs (Iceberg REST OpenAPI, `namespace` path parameter and `parent` query
 * parameter): levels joined by the unit separator 0x1F, URL-encoded `%1F`. Shared by the client and the
 * server so both sides agree byte for byte.
 */
import type { Namespace } from '../iceberg/iceberg-catalog.ts';

export const NAMESPACE_SEPARATOR = '\u001f';

/** ['accounting', 'tax'] → `accounting%1Ftax` (each level percent-encoded) */
export function encodeNamespace(namespace: Namespace): string {
  return namespace.map(encodeURIComponent).join('%1F');
}

/** a decoded path segment or query value → levels; an empty string is the root (no levels) */
export function splitNamespace(decoded: string): string[] {
  return decoded === '' ? [] : decoded.split(NAMESPACE_SEPARATOR);
}

/** the raw (still percent-encoded) path segment → levels */
export function decodeNamespaceSegment(segment: string): string[] {
  return splitNamespace(decodeURIComponent(segment));
}
