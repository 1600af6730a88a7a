/**
 * `rest_port`: the Iceberg REST catalog server (catalog/rest-server) next to the wire server, over the
 * engine's own catalogs — one catalog per database, prefix = database name — and its FileIO. Changes made
 * through REST refresh the engine's mirror at once, so SQL sessions see them on their next statement.
 */
import { RestCatalogServer } from '../catalog/rest-server/index.ts';
import type { QueryEngine } from '../engine/index.ts';
import type { Config } from './config.ts';

export interface RestCatalogEndpoint {
  readonly port: number;
  close(): Promise<void>;
}

export async function startRestCatalogEndpoint(cfg: Config, engine: QueryEngine): Promise<RestCatalogEndpoint | null> {
  if (cfg.rest_port === undefined) return null;
  if (engine.icebergCatalog === undefined || engine.fileIO === undefined) throw new Error('the query engine does not expose its Iceberg catalogs');
  const io = engine.fileIO();
  const server = new RestCatalogServer({
    catalogNames: cfg.databases,
    catalog: (name) => engine.icebergCatalog!(name),
    io,
    ...(cfg.rest_token === undefined ? {} : { token: cfg.rest_token }),
    onChange: async (name) => {
      await engine.icebergCatalogChanged?.(name);
    },
  });
  const addr = await server.listen(cfg.rest_port, cfg.host);
  return { port: addr.port, close: () => server.close() };
}
