/**
 * POST /namespaces/{ns}/tables/{table} (CommitTableRequest → CommitTableResponse). Per attempt: load the
 * pointer and the metadata file (lossless), check every requirement against it (409 CommitFailedException),
 * apply the updates, write version V+1 with writeIfAbsent, then the catalog's compare-and-swap. Another
 * writer winning the file name or the swap re-runs the attempt on its metadata — the requirements are
 * checked again there, so a retry never commits over a change the client did not see.
 */
import { GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { TableIdentifier, TableLocation } from '../iceberg/iceberg-catalog.ts';
import { nextMetadataFileLocation } from '../iceberg/warehouse-layout.ts';
import { readMetadataText } from './load-table-result.ts';
import { parseLosslessJson, stringifyLossless } from './lossless-doc.ts';
import { badRequest, notImplemented, RestError } from './rest-errors.ts';
import { bodyObject, type RestContext, type RestMetadataIO, type RestRequest, type RestResponse } from './rest-request.ts';
import { applyUpdates, checkRequirement, type Doc } from './table-updates.ts';

const MAX_ATTEMPTS = 4;
const DEFAULT_PREVIOUS_VERSIONS_MAX = 100;

export function objectList(v: unknown, what: string): Doc[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x))) throw badRequest(`Malformed request: "${what}" must be an array of objects`);
  return v as Doc[];
}

export function writableIO(io: RestMetadataIO): Required<RestMetadataIO> {
  if (io.writeIfAbsent === undefined) throw notImplemented('This lakegate REST catalog is read-only: no writable FileIO');
  return io as Required<RestMetadataIO>;
}

/** writes `doc` as the next metadata file of a table whose files live under `location` */
export async function writeNextMetadata(io: Required<RestMetadataIO>, doc: Doc, current: string | null): Promise<{ location: string; text: string } | null> {
  const props = (doc['properties'] as Record<string, string> | undefined) ?? {};
  const metadataPath = props['write.metadata.path'];
  const location = nextMetadataFileLocation(String(doc['location']), current, metadataPath === undefined ? {} : { metadataPath });
  const text = stringifyLossless(doc, 2);
  return (await io.writeIfAbsent(location, new TextEncoder().encode(text))) ? { location, text } : null;
}

export const commitResponse = (location: string, text: string): RestResponse => ({
  status: 200,
  body: `{"metadata-location":${JSON.stringify(location)},"metadata":${text}}`,
});

export async function commitTable(ctx: RestContext, id: TableIdentifier, req: RestRequest): Promise<RestResponse> {
  const io = writableIO(ctx.io);
  const body = bodyObject(req);
  const requirements = objectList(body['requirements'], 'requirements');
  const updates = objectList(body['updates'], 'updates');
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    let base: TableLocation;
    try {
      base = await ctx.catalog.loadTableLocation(id);
    } catch (e) {
      if (GatewayError.is(e) && e.code === SqlState.undefined_table && requirements.some((r) => r['type'] === 'assert-create')) {
        throw notImplemented('Creating a table through a commit (create transaction) is not supported; use POST /namespaces/{namespace}/tables');
      }
      throw e;
    }
    const current = parseLosslessJson(await readMetadataText(ctx.io, base.metadataLocation)) as Doc;
    for (const r of requirements) checkRequirement(current, r);
    const now = BigInt(Math.max(Date.now(), Number(current['last-updated-ms'] ?? 0) + 1));
    const next = applyUpdates(current, updates, now);
    next['last-updated-ms'] = now;
    const keep = Number((next['properties'] as Record<string, string> | undefined)?.['write.metadata.previous-versions-max'] ?? DEFAULT_PREVIOUS_VERSIONS_MAX);
    const log = [...((current['metadata-log'] as unknown[] | undefined) ?? []), { 'timestamp-ms': current['last-updated-ms'], 'metadata-file': base.metadataLocation }];
    next['metadata-log'] = log.slice(Math.max(0, log.length - Math.max(1, keep)));
    const written = await writeNextMetadata(io, next, base.metadataLocation);
    if (written === null) continue; // another writer took version V+1
    try {
      await ctx.catalog.commitTable(id, base.metadataLocation, written.location);
    } catch (e) {
      if (GatewayError.is(e) && e.code === SqlState.serialization_failure) continue;
      throw e;
    }
    await ctx.changed();
    return commitResponse(written.location, written.text);
  }
  throw new RestError(409, 'CommitFailedException', `Commit failed: table ${id.namespace.join('.')}.${id.name} kept changing concurrently (${MAX_ATTEMPTS} attempts)`);
}
