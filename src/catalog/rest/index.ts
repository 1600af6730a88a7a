/** catalog/rest: an IcebergCatalog over any Iceberg REST catalog. See README.md. */
export { RestCatalog, openRestCatalog, type RestCatalogOptions } from './rest-catalog.ts';
export { RestHttp, type FetchLike, type RestAuthOptions, type RestRetryOptions, type RestHttpResponse } from './rest-http.ts';
export { encodeNamespace, decodeNamespaceSegment, splitNamespace, NAMESPACE_SEPARATOR } from './namespace-encoding.ts';
