/**
 * Every cast pgcatalog contributes to the function registry: text ⇄ reg* through the catalog, and the
 * catalog vector types to arrays. Registered by registerPgCatalog (index.ts).
 */
import type { CastDef } from '../functions/registry-types.ts';
import { regCasts } from './reg-casts.ts';
import { vectorCasts } from './vector-casts.ts';

export const pgcatalogCasts: readonly CastDef[] = [...regCasts, ...vectorCasts];
