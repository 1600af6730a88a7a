/** catalog/rest-server: an Iceberg REST catalog server over IcebergCatalogs. See README.md. */
export { RestCatalogServer, SUPPORTED_ENDPOINTS, type RestCatalogServerOptions } from './rest-catalog-server.ts';
export type { RestMetadataIO } from './rest-request.ts';
export { RestError, toRestError } from './rest-errors.ts';
