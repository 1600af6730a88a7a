/**
 * Metadata-only commits (no new snapshot): table properties and column docs, for COMMENT ON. Same protocol
 * as append-commit.ts: reload, apply the change to the current metadata document, write V+1 with
 * writeIfAbsent (metadata-log extended), compare-and-swap, retry on 40001. A column doc change adds a new
 * schema (next schema-id) and makes it current, as Iceberg's UpdateSchema does.
 */
import type { IcebergCatalog, TableIdentifier } from '../../catalog/iceberg/index.ts';
import { nextMetadataFileLocation } from '../../catalog/iceberg/warehouse-layout.ts';
import { GatewayError, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { loadTableMetadata } from '../spec/metadata-file.ts';
import type { IcebergWriteIO } from '../write/write-io.ts';
import { DEFAULT_COMMIT_RETRIES } from './append-commit.ts';
import { writeMetadataFile } from './metadata-json.ts';

type Doc = Record<string, unknown>;

export async function updateTableMetadata(catalog: IcebergCatalog, io: IcebergWriteIO, id: TableIdentifier, change: (doc: Doc) => Doc, maxRetries = DEFAULT_COMMIT_RETRIES): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const base = await catalog.loadTableLocation(id);
    const md = await loadTableMetadata(io, base.metadataLocation);
    const now = BigInt(Math.max(Date.now(), Number(md.lastUpdatedMs) + 1));
    const raw = md.raw as Doc;
    const doc: Doc = {
      ...change({ ...raw }),
      'last-updated-ms': now,
      'metadata-log': [...((raw['metadata-log'] as unknown[] | undefined) ?? []), { 'timestamp-ms': md.lastUpdatedMs, 'metadata-file': base.metadataLocation }],
    };
    const next = nextMetadataFileLocation(md.location, base.metadataLocation, md.properties['write.metadata.path'] === undefined ? {} : { metadataPath: md.properties['write.metadata.path'] });
    try {
      if (!(await writeMetadataFile(io, next, doc))) throw pgError(SqlState.serialization_failure, 'could not serialize access due to concurrent update');
      await catalog.commitTable(id, base.metadataLocation, next);
      return;
    } catch (e) {
      if (!(e instanceof GatewayError && e.code === SqlState.serialization_failure) || attempt >= maxRetries) throw e;
      await new Promise((r) => setTimeout(r, Math.min(1000, 10 * 2 ** attempt) * (0.5 + Math.random())));
    }
  }
}

/** sets (string) or removes (undefined) one table property */
export function setProperty(key: string, value: string | undefined): (doc: Doc) => Doc {
  return (doc) => {
    const props = { ...((doc['properties'] as Record<string, string> | undefined) ?? {}) };
    if (value === undefined) delete props[key];
    else props[key] = value;
    return { ...doc, properties: props };
  };
}

/** a new current schema equal to the current one with field `name`'s doc set (or removed) */
export function setColumnDoc(name: string, docText: string | undefined): (doc: Doc) => Doc {
  return (doc) => {
    const schemas = (doc['schemas'] as Doc[] | undefined) ?? [];
    const current = schemas.find((s) => Number(s['schema-id']) === Number(doc['current-schema-id']));
    if (current === undefined) throw pgError('XX000', 'Iceberg table metadata has no current schema');
    const fields = (current['fields'] as Doc[]).map((f) => {
      if (f['name'] !== name) return f;
      const { doc: _old, ...rest } = f;
      return docText === undefined ? rest : { ...rest, doc: docText };
    });
    const schemaId = Math.max(...schemas.map((s) => Number(s['schema-id']))) + 1;
    return { ...doc, schemas: [...schemas, { ...current, 'schema-id': schemaId, fields }], 'current-schema-id': schemaId };
  };
}
