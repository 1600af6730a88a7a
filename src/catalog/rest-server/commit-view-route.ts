/**
 * POST /namespaces/{ns}/views/{view} (CommitViewRequest → LoadViewResult), Iceberg's replaceView. Per
 * attempt: load the VIEW pointer and its metadata file (lossless), check the requirements (assert-view-uuid:
 * 409 CommitFailedException), apply the ViewUpdates (view-updates.ts), write the next metadata file with
 * writeIfAbsent, then the catalog's compare-and-swap. Another writer winning the file name or the swap
 * re-runs the attempt on its metadata, whose requirements are checked again.
 */
import { GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { TableIdentifier } from '../iceberg/iceberg-catalog.ts';
import { objectList, writableIO, writeNextMetadata } from './commit-table-route.ts';
import { readMetadataText } from './load-table-result.ts';
import { parseLosslessJson } from './lossless-doc.ts';
import { RestError } from './rest-errors.ts';
import { bodyObject, type RestContext, type RestRequest, type RestResponse } from './rest-request.ts';
import type { Doc } from './table-updates.ts';
import { applyViewUpdates, checkViewRequirement } from './view-updates.ts';
import { asView, loadViewResult, viewCatalog } from './view-routes.ts';

const MAX_ATTEMPTS = 4;

export async function commitView(ctx: RestContext, id: TableIdentifier, req: RestRequest): Promise<RestResponse> {
  const io = writableIO(ctx.io);
  const views = viewCatalog(ctx);
  const body = bodyObject(req);
  const requirements = objectList(body['requirements'], 'requirements');
  const updates = objectList(body['updates'], 'updates');
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const base = await asView(id, () => views.loadViewLocation(id));
    const current = parseLosslessJson(await readMetadataText(ctx.io, base.metadataLocation)) as Doc;
    for (const r of requirements) checkViewRequirement(current, r);
    const next = applyViewUpdates(current, updates, Date.now());
    const written = await writeNextMetadata(io, next, base.metadataLocation);
    if (written === null) continue; // another writer took the next version's file
    try {
      await views.commitView(id, base.metadataLocation, written.location);
    } catch (e) {
      if (GatewayError.is(e) && e.code === SqlState.serialization_failure) continue;
      throw e;
    }
    await ctx.changed();
    return loadViewResult(written.location, written.text);
  }
  throw new RestError(409, 'CommitFailedException', `Commit failed: view ${[...id.namespace, id.name].join('.')} kept changing concurrently (${MAX_ATTEMPTS} attempts)`);
}
