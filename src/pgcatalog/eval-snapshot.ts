/**
 * The CatalogSnapshot functions evaluate against: built once per EvalContext (one statement) and cached,
 * so per-row calls such as pg_table_is_visible(c.oid) do not rebuild the relation maps.
 */
import { CatalogSnapshot, type SnapshotSource } from './catalog-snapshot.ts';
import { defaultSystemCatalog } from './system-catalog.ts';

const cache = new WeakMap<object, CatalogSnapshot>();

export function snapshotFor(ctx: SnapshotSource): CatalogSnapshot {
  let snap = cache.get(ctx);
  if (snap === undefined || snap.catalog !== ctx.catalog || snap.session !== ctx.session) {
    snap = new CatalogSnapshot(ctx, defaultSystemCatalog());
    cache.set(ctx, snap);
  }
  return snap;
}
