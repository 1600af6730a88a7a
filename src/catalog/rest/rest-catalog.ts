/**
 * RestCatalog: lakegate's IcebergCatalog over any Iceberg REST catalog (lakegate's own, Polaris, Nessie,
 * Gravitino, Tabular-style servers…). `openRestCatalog` first calls `GET /v1/config` (defaults < client
 * properties < overrides; `prefix` selects the catalog's path), then namespaces and tables map 1:1 onto
 * the REST routes. `commitTable(id, expected, next)` reads both metadata files (through `readMetadata`,
 * supplied by whoever owns the FileIO) and sends their difference as TableRequirements + TableUpdates
 * (metadata-diff.ts); the server writes its own metadata file, ours stays an orphan. So every lakegate
 * write commits through REST with the same code that commits through the SQL catalog. Views likewise:
 * `createView` sends the written file's current version as a CreateViewRequest, `commitView` the difference
 * of two view metadata files as ViewRequirements + ViewUpdates (view-metadata-diff.ts).
 */
import { GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { IcebergCatalog, Namespace, NamespaceProperties, PropertiesUpdateSummary, TableIdentifier, TableLocation } from '../iceberg/iceberg-catalog.ts';
import { encodeNamespace } from './namespace-encoding.ts';
import { diffMetadata, type Doc } from './metadata-diff.ts';
import { createViewRequest, diffViewMetadata } from './view-metadata-diff.ts';
import { parseLosslessJson } from '../rest-server/lossless-doc.ts';
import { RestHttp, type FetchLike, type RestAuthOptions, type RestHttpResponse, type RestRetryOptions } from './rest-http.ts';
import { restResponseError, type ErrorSubject } from './rest-response-errors.ts';

export interface RestCatalogOptions extends RestAuthOptions {
  /** base URI, e.g. http://127.0.0.1:8181 (no /v1) */
  readonly uri: string;
  /** sent as `?warehouse=` to /v1/config */
  readonly warehouse?: string;
  /** the name lakegate shows for this catalog (default: the warehouse, else "rest") */
  readonly name?: string;
  /** client properties, applied between the server's defaults and overrides */
  readonly properties?: Readonly<Record<string, string>>;
  readonly retry?: RestRetryOptions;
  readonly fetch?: FetchLike;
  /** reads a metadata.json (for commits); without it, commits are 0A000 */
  readonly readMetadata?: (location: string) => Promise<string>;
}

const LIST_VIEWS_ENDPOINT = 'GET /v1/{prefix}/namespaces/{namespace}/views';
const VIEW_ENDPOINTS_SUPPORTED = 'view-endpoints-supported';

export async function openRestCatalog(options: RestCatalogOptions): Promise<RestCatalog> {
  const http = new RestHttp(options.uri, options, options.retry ?? {}, options.fetch);
  const query = options.warehouse === undefined ? '' : `?warehouse=${encodeURIComponent(options.warehouse)}`;
  const res = await http.request('GET', `/v1/config${query}`);
  if (res.status !== 200) throw restResponseError(res, { action: 'load the catalog configuration' });
  const config = JSON.parse(res.body) as { defaults?: Record<string, string>; overrides?: Record<string, string>; endpoints?: unknown };
  const properties = { ...(config.defaults ?? {}), ...(options.properties ?? {}), ...(config.overrides ?? {}) };
  http.prefix = properties['prefix'] ?? '';
  // as Iceberg Java: the listed endpoints say it; a server that lists none has views only if it says so
  const viewsSupported = Array.isArray(config.endpoints) ? config.endpoints.includes(LIST_VIEWS_ENDPOINT) : properties[VIEW_ENDPOINTS_SUPPORTED] === 'true';
  return new RestCatalog(http, options.name ?? options.warehouse ?? 'rest', properties, options.readMetadata, viewsSupported);
}

export class RestCatalog implements IcebergCatalog {
  constructor(
    private readonly http: RestHttp,
    readonly name: string,
    /** the merged catalog properties (defaults < client < overrides) */
    readonly properties: Readonly<Record<string, string>>,
    private readonly readMetadata?: (location: string) => Promise<string>,
    /** the server serves the view endpoints (its /v1/config `endpoints`); without them views stay in lakegate's memory */
    readonly viewsSupported = true,
  ) {}

  private async call(method: string, path: string, subject: ErrorSubject, body?: unknown, ok: readonly number[] = [200, 204]): Promise<RestHttpResponse> {
    const res = await this.http.request(method, this.http.catalogPath(path), body);
    if (!ok.includes(res.status)) throw restResponseError(res, subject);
    return res;
  }

  private static tablePath(id: TableIdentifier): string {
    return `namespaces/${encodeNamespace(id.namespace)}/tables/${encodeURIComponent(id.name)}`;
  }

  private static viewPath(id: TableIdentifier): string {
    return `namespaces/${encodeNamespace(id.namespace)}/views/${encodeURIComponent(id.name)}`;
  }

  /** identifiers of a paged list route (`tables` or `views`) */
  private async listIdentifiers(namespace: Namespace, kind: 'tables' | 'views'): Promise<TableIdentifier[]> {
    const out: TableIdentifier[] = [];
    let pageToken: string | undefined;
    do {
      const qs = pageToken === undefined ? '' : `?pageToken=${encodeURIComponent(pageToken)}`;
      const res = await this.call('GET', `namespaces/${encodeNamespace(namespace)}/${kind}${qs}`, { namespace, action: `list ${kind}` });
      const doc = JSON.parse(res.body) as { identifiers?: { namespace: string[]; name: string }[]; 'next-page-token'?: string | null };
      for (const id of doc.identifiers ?? []) out.push({ namespace: id.namespace, name: id.name });
      pageToken = doc['next-page-token'] ?? undefined;
    } while (pageToken !== undefined && pageToken !== '');
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  private metadataReader(what: string): (location: string) => Promise<string> {
    const read = this.readMetadata;
    if (read === undefined) {
      throw new GatewayError(SqlState.feature_not_supported, `${what} in a REST catalog needs the metadata files to be readable`, {
        detail: 'REST catalogs commit requirements and updates, computed from the base and new metadata files.',
      });
    }
    return read;
  }

  async listNamespaces(parent: Namespace = []): Promise<Namespace[]> {
    const out: Namespace[] = [];
    let pageToken: string | undefined;
    do {
      const q = new URLSearchParams();
      if (parent.length > 0) q.set('parent', parent.join('\u001f'));
      if (pageToken !== undefined) q.set('pageToken', pageToken);
      const qs = q.toString();
      const res = await this.call('GET', `namespaces${qs === '' ? '' : `?${qs}`}`, { namespace: parent, action: 'list namespaces' });
      const doc = JSON.parse(res.body) as { namespaces?: string[][]; 'next-page-token'?: string | null };
      out.push(...(doc.namespaces ?? []));
      pageToken = doc['next-page-token'] ?? undefined;
    } while (pageToken !== undefined && pageToken !== '');
    return out.sort((a, b) => a.join('.').localeCompare(b.join('.')));
  }

  async createNamespace(namespace: Namespace, properties: NamespaceProperties = {}): Promise<void> {
    await this.call('POST', 'namespaces', { namespace, action: 'create namespace' }, { namespace, properties });
  }

  async dropNamespace(namespace: Namespace): Promise<boolean> {
    const res = await this.call('DELETE', `namespaces/${encodeNamespace(namespace)}`, { namespace, action: 'drop namespace' }, undefined, [200, 204, 404]);
    if (res.status !== 404) return true;
    if (/NoSuchNamespace/.test(res.body) || res.body === '') return false;
    throw restResponseError(res, { namespace, action: 'drop namespace' });
  }

  async namespaceExists(namespace: Namespace): Promise<boolean> {
    const res = await this.call('HEAD', `namespaces/${encodeNamespace(namespace)}`, { namespace, action: 'check namespace' }, undefined, [200, 204, 404]);
    return res.status !== 404;
  }

  async loadNamespaceProperties(namespace: Namespace): Promise<Record<string, string>> {
    const res = await this.call('GET', `namespaces/${encodeNamespace(namespace)}`, { namespace, action: 'load namespace' });
    return { ...((JSON.parse(res.body) as { properties?: Record<string, string> }).properties ?? {}) };
  }

  async updateNamespaceProperties(namespace: Namespace, removals: readonly string[], updates: NamespaceProperties): Promise<PropertiesUpdateSummary> {
    const res = await this.call('POST', `namespaces/${encodeNamespace(namespace)}/properties`, { namespace, action: 'update namespace properties' }, { removals, updates });
    const doc = JSON.parse(res.body) as { updated?: string[]; removed?: string[]; missing?: string[] | null };
    return { updated: doc.updated ?? [], removed: doc.removed ?? [], missing: doc.missing ?? [] };
  }

  listTables(namespace: Namespace): Promise<TableIdentifier[]> {
    return this.listIdentifiers(namespace, 'tables');
  }

  async tableExists(id: TableIdentifier): Promise<boolean> {
    const res = await this.call('HEAD', RestCatalog.tablePath(id), { table: id, action: 'check table' }, undefined, [200, 204, 404]);
    return res.status !== 404;
  }

  /** the metadata location from LoadTableResult; the previous one from the metadata's metadata-log */
  async loadTableLocation(id: TableIdentifier): Promise<TableLocation> {
    const res = await this.call('GET', `${RestCatalog.tablePath(id)}?snapshots=refs`, { table: id, action: 'load table' });
    // ids in `metadata` may exceed 2^53; only strings are read here, so JSON.parse is safe
    const doc = JSON.parse(res.body) as { 'metadata-location'?: string; metadata?: { 'metadata-log'?: { 'metadata-file'?: string }[] } };
    const location = doc['metadata-location'];
    if (typeof location !== 'string') {
      throw new GatewayError(SqlState.feature_not_supported, `REST catalog returned no metadata-location for table ${id.namespace.join('.')}.${id.name} (staged tables are not supported)`);
    }
    const log = doc.metadata?.['metadata-log'] ?? [];
    return { metadataLocation: location, previousMetadataLocation: log[log.length - 1]?.['metadata-file'] ?? null };
  }

  /** REST has no "create a pointer to a written metadata file" except register */
  createTable(id: TableIdentifier, metadataLocation: string): Promise<void> {
    return this.registerTable(id, metadataLocation);
  }

  async registerTable(id: TableIdentifier, metadataLocation: string): Promise<void> {
    await this.call('POST', `namespaces/${encodeNamespace(id.namespace)}/register`, { table: id, action: 'register table' }, { name: id.name, 'metadata-location': metadataLocation });
  }

  async dropTable(id: TableIdentifier): Promise<boolean> {
    const res = await this.call('DELETE', RestCatalog.tablePath(id), { table: id, action: 'drop table' }, undefined, [200, 204, 404]);
    return res.status !== 404;
  }

  async renameTable(from: TableIdentifier, to: TableIdentifier): Promise<void> {
    const res = await this.http.request('POST', this.http.catalogPath('tables/rename'), {
      source: { namespace: from.namespace, name: from.name },
      destination: { namespace: to.namespace, name: to.name },
    });
    if (res.status === 200 || res.status === 204) return;
    // 404 is about the source table unless it names the namespace (of the destination); 409 about the destination
    const subject: ErrorSubject = res.status === 409 ? { table: to, action: 'rename table' } : /NoSuchNamespace/.test(res.body) ? { namespace: to.namespace, action: 'rename table' } : { table: from, action: 'rename table' };
    throw restResponseError(res, subject);
  }

  async commitTable(id: TableIdentifier, expected: string, next: string): Promise<void> {
    const read = this.metadataReader('committing to a table');
    const [base, target] = await Promise.all([read(expected), read(next)]);
    const { requirements, updates } = diffMetadata(parseLosslessJson(base) as Doc, parseLosslessJson(target) as Doc);
    if (updates.length === 0) return;
    const body = { identifier: { namespace: id.namespace, name: id.name }, requirements, updates };
    await this.call('POST', RestCatalog.tablePath(id), { table: id, action: 'commit table' }, body);
  }

  // ---- views (REST view endpoints; a server without them answers 404/501 on the first use)

  async listViews(namespace: Namespace): Promise<TableIdentifier[]> {
    return this.viewsSupported ? this.listIdentifiers(namespace, 'views') : [];
  }

  /** LoadViewResult's metadata-location (REST gives no previous location for views) */
  async loadViewLocation(id: TableIdentifier): Promise<TableLocation> {
    const res = await this.call('GET', RestCatalog.viewPath(id), { table: id, action: 'load view' });
    const location = (JSON.parse(res.body) as { 'metadata-location'?: unknown })['metadata-location'];
    if (typeof location !== 'string') throw new GatewayError(SqlState.io_error, `REST catalog returned no metadata-location for view ${id.namespace.join('.')}.${id.name}`);
    return { metadataLocation: location, previousMetadataLocation: null };
  }

  /** CreateViewRequest from the view metadata file lakegate wrote; the server writes its own file (ours stays an orphan) */
  async createView(id: TableIdentifier, metadataLocation: string): Promise<void> {
    const doc = parseLosslessJson(await this.metadataReader('creating a view')(metadataLocation)) as Doc;
    await this.call('POST', `namespaces/${encodeNamespace(id.namespace)}/views`, { table: id, action: 'create view' }, createViewRequest(id.name, doc));
  }

  async commitView(id: TableIdentifier, expected: string, next: string): Promise<void> {
    const read = this.metadataReader('replacing a view');
    const [base, target] = await Promise.all([read(expected), read(next)]);
    const { requirements, updates } = diffViewMetadata(parseLosslessJson(base) as Doc, parseLosslessJson(target) as Doc);
    if (updates.length === 0) return;
    const body = { identifier: { namespace: id.namespace, name: id.name }, requirements, updates };
    await this.call('POST', RestCatalog.viewPath(id), { table: id, action: 'replace view' }, body);
  }

  async dropView(id: TableIdentifier): Promise<boolean> {
    const res = await this.call('DELETE', RestCatalog.viewPath(id), { table: id, action: 'drop view' }, undefined, [200, 204, 404]);
    return res.status !== 404;
  }

  async renameView(from: TableIdentifier, to: TableIdentifier): Promise<void> {
    const res = await this.http.request('POST', this.http.catalogPath('views/rename'), {
      source: { namespace: from.namespace, name: from.name },
      destination: { namespace: to.namespace, name: to.name },
    });
    if (res.status === 200 || res.status === 204) return;
    const subject: ErrorSubject = res.status === 409 ? { table: to, action: 'rename view' } : /NoSuchNamespace/.test(res.body) ? { namespace: to.namespace, action: 'rename view' } : { table: from, action: 'rename view' };
    throw restResponseError(res, subject);
  }

  async close(): Promise<void> {
    /* stateless HTTP */
  }
}
