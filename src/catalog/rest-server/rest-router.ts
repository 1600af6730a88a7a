/** Dispatch of `/v1/{prefix}/…` requests (segments after the prefix) to the route handlers. */
import type { TableIdentifier } from '../iceberg/iceberg-catalog.ts';
import { decodeNamespaceSegment } from '../rest/namespace-encoding.ts';
import * as ns from './namespace-routes.ts';
import { RestError, notImplemented } from './rest-errors.ts';
import type { RestContext, RestRequest, RestResponse } from './rest-request.ts';
import * as tables from './table-routes.ts';
import { commitTable } from './commit-table-route.ts';
import { createTable } from './create-table-route.ts';
import * as views from './view-routes.ts';
import { createView } from './create-view-route.ts';
import { commitView } from './commit-view-route.ts';

export async function routeCatalogRequest(ctx: RestContext, req: RestRequest): Promise<RestResponse> {
  const s = req.segments;
  const m = req.method;
  if (s[0] === 'tables' && s[1] === 'rename' && s.length === 2 && m === 'POST') return tables.renameTable(ctx, req);
  if (s[0] === 'views' && s[1] === 'rename' && s.length === 2 && m === 'POST') return views.renameView(ctx, req);
  if (s[0] === 'transactions') throw notImplemented('Multi-table transactions are not supported by this lakegate REST catalog');
  if (s[0] === 'namespaces') {
    if (s.length === 1) {
      if (m === 'GET') return ns.listNamespaces(ctx, req);
      if (m === 'POST') return ns.createNamespace(ctx, req);
    } else {
      const namespace = decodeNamespaceSegment(req.rawSegments[1]!);
      if (s.length === 2) {
        if (m === 'GET') return ns.loadNamespace(ctx, namespace);
        if (m === 'HEAD') return ns.namespaceExists(ctx, namespace);
        if (m === 'DELETE') return ns.dropNamespace(ctx, namespace);
      } else if (s[2] === 'properties' && s.length === 3 && m === 'POST') {
        return ns.updateNamespaceProperties(ctx, namespace, req);
      } else if (s[2] === 'register' && s.length === 3 && m === 'POST') {
        return tables.registerTable(ctx, namespace, req);
      } else if (s[2] === 'register-view' && s.length === 3 && m === 'POST') {
        return views.registerView(ctx, namespace, req);
      } else if (s[2] === 'tables') {
        if (s.length === 3) {
          if (m === 'GET') return tables.listTables(ctx, namespace);
          if (m === 'POST') return createTable(ctx, namespace, req);
        } else if (s.length === 4) {
          const id: TableIdentifier = { namespace, name: s[3]! };
          if (m === 'GET') return tables.loadTable(ctx, id);
          if (m === 'HEAD') return tables.tableExists(ctx, id);
          if (m === 'DELETE') return tables.dropTable(ctx, id);
          if (m === 'POST') return commitTable(ctx, id, req);
        } else if (s.length === 5 && s[4] === 'unregister' && m === 'POST') {
          return tables.unregisterTable(ctx, { namespace, name: s[3]! });
        } else if (s.length === 5 && s[4] === 'metrics' && m === 'POST') {
          return { status: 204 }; // metrics reports are accepted and dropped
        }
      } else if (s[2] === 'views') {
        if (s.length === 3) {
          if (m === 'GET') return views.listViews(ctx, namespace);
          if (m === 'POST') return createView(ctx, namespace, req);
        } else if (s.length === 4) {
          const id: TableIdentifier = { namespace, name: s[3]! };
          if (m === 'GET') return views.loadView(ctx, id);
          if (m === 'HEAD') return views.viewExists(ctx, id);
          if (m === 'DELETE') return views.dropView(ctx, id);
          if (m === 'POST') return commitView(ctx, id, req);
        }
      }
    }
  }
  throw new RestError(404, 'NotFoundException', `no route for ${m} /${req.rawSegments.join('/')}`);
}
