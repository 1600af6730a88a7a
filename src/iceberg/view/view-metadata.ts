/**
 * Iceberg view metadata (view spec, format-version 1): what CREATE VIEW in an Iceberg namespace writes and
 * what every process (and Spark, Trino, PyIceberg) reads back. A view version holds the SQL text per dialect;
 * lakegate writes one `sql` representation in dialect `postgresql` and executes only that dialect (another
 * engine's SQL has other semantics: integer division, NULL ordering, functions).
 *
 * The view's schema is written with Iceberg types so other engines can list its columns; where the Iceberg
 * type reads back as another PostgreSQL type (numeric without a precision, interval, varchar(n), …) the
 * declared type is kept in the property `lakegate.column-type.<field-id>` (`<oid>:<typmod>`), as for tables.
 * @see https://iceberg.apache.org/view-spec/
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { SqlType } from '../../common/pgtypes/oids.ts';
import type { ColumnDef } from '../../catalog/table-source.ts';
import { parseSchema, type IcebergType } from '../spec/schema.ts';
import { toSqlType } from '../spec/types.ts';
import { icebergColumnTypeOf, icebergTypeJson } from '../write/iceberg-type-of.ts';

/** the dialect lakegate writes and executes */
export const POSTGRESQL_DIALECT = 'postgresql';
/** view property holding the search_path in force at CREATE VIEW (JSON array), used to bind the SQL again */
export const SEARCH_PATH_PROPERTY = 'lakegate.search-path';
const COLUMN_TYPE_PREFIX = 'lakegate.column-type.';

const representation = z.object({ type: z.string(), sql: z.string().optional(), dialect: z.string().optional() }).passthrough();
const version = z.object({
  'version-id': z.number().int(),
  'schema-id': z.number().int(),
  'timestamp-ms': z.number(),
  summary: z.record(z.string(), z.string()).default({}),
  representations: z.array(representation),
  'default-catalog': z.string().optional(),
  'default-namespace': z.array(z.string()),
}).passthrough();
const viewMetadataSchema = z.object({
  'view-uuid': z.string(),
  'format-version': z.literal(1),
  location: z.string(),
  'current-version-id': z.number().int(),
  versions: z.array(version).min(1),
  'version-log': z.array(z.object({ 'version-id': z.number().int(), 'timestamp-ms': z.number() })),
  schemas: z.array(z.record(z.string(), z.unknown())).min(1),
  properties: z.record(z.string(), z.string()).default({}),
}).passthrough();

export type ViewMetadataDoc = z.infer<typeof viewMetadataSchema>;
export type ViewVersion = z.infer<typeof version>;

/** what one CREATE [OR REPLACE] VIEW defines */
export interface ViewDefinition {
  /** the view's query as SQL text (deparsed by lakegate) */
  readonly sql: string;
  readonly columns: readonly ColumnDef[];
  readonly namespace: readonly string[];
  readonly searchPath: readonly string[];
  readonly comment?: string;
}

/** the view as lakegate uses it: columns with their PostgreSQL types, and the SQL to run (if any) */
export interface LoadedView {
  readonly uuid: string;
  readonly columns: ColumnDef[];
  /** the `postgresql` SQL of the current version; undefined when only other dialects are stored */
  readonly sql: string | undefined;
  readonly dialects: readonly string[];
  readonly searchPath: readonly string[];
  readonly comment: string | undefined;
}

/** Iceberg type of a view column: a view can produce types a table cannot store (numeric without precision, interval, …) */
function viewColumnType(type: SqlType, nextId: () => number): IcebergType {
  try {
    return icebergColumnTypeOf(type, nextId);
  } catch {
    // e.g. numeric without a precision: other engines see text; lakegate reads the declared type back
    return { kind: 'primitive', name: 'string' };
  }
}

function schemaJson(schemaId: number, columns: readonly ColumnDef[]): { schema: Record<string, unknown>; declared: Record<string, string> } {
  let lastId = columns.length;
  const nextId = (): number => ++lastId;
  const declared: Record<string, string> = {};
  const fields = columns.map((c, i) => {
    const type = viewColumnType(c.type, nextId);
    const back = toSqlType(type);
    if (back.oid !== c.type.oid || back.typmod !== c.type.typmod) declared[`${COLUMN_TYPE_PREFIX}${i + 1}`] = `${c.type.oid}:${c.type.typmod}`;
    return { id: i + 1, name: c.name, required: false, type: icebergTypeJson(type), ...(c.comment === undefined ? {} : { doc: c.comment }) };
  });
  return { schema: { type: 'struct', 'schema-id': schemaId, fields }, declared };
}

function newVersion(versionId: number, schemaId: number, def: ViewDefinition, nowMs: number): ViewVersion {
  return {
    'version-id': versionId,
    'schema-id': schemaId,
    'timestamp-ms': nowMs,
    summary: { 'engine-name': 'lakegate', operation: versionId === 1 ? 'create' : 'replace' },
    representations: [{ type: 'sql', sql: def.sql, dialect: POSTGRESQL_DIALECT }],
    'default-namespace': [...def.namespace],
  };
}

function properties(def: ViewDefinition, declared: Record<string, string>): Record<string, string> {
  return {
    ...declared,
    [SEARCH_PATH_PROPERTY]: JSON.stringify(def.searchPath),
    ...(def.comment === undefined ? {} : { comment: def.comment }),
  };
}

/** the first metadata document of a view */
export function newViewMetadata(location: string, def: ViewDefinition, nowMs = Date.now()): ViewMetadataDoc {
  const { schema, declared } = schemaJson(0, def.columns);
  return {
    'view-uuid': randomUUID(),
    'format-version': 1,
    location,
    'current-version-id': 1,
    versions: [newVersion(1, 0, def, nowMs)],
    'version-log': [{ 'version-id': 1, 'timestamp-ms': nowMs }],
    schemas: [schema],
    properties: properties(def, declared),
  };
}

/** CREATE OR REPLACE VIEW: a new current version (and schema); older versions stay, as the spec keeps history */
export function replaceViewVersion(doc: ViewMetadataDoc, def: ViewDefinition, nowMs = Date.now()): ViewMetadataDoc {
  const schemaId = Math.max(...doc.schemas.map((s) => Number(s['schema-id'] ?? 0))) + 1;
  const versionId = Math.max(...doc.versions.map((v) => v['version-id'])) + 1;
  const { schema, declared } = schemaJson(schemaId, def.columns);
  const kept = Object.fromEntries(Object.entries(doc.properties).filter(([k]) => !k.startsWith(COLUMN_TYPE_PREFIX) && k !== 'comment'));
  return {
    ...doc,
    'current-version-id': versionId,
    versions: [...doc.versions, newVersion(versionId, schemaId, def, nowMs)],
    'version-log': [...doc['version-log'], { 'version-id': versionId, 'timestamp-ms': nowMs }],
    schemas: [...doc.schemas, schema],
    properties: { ...kept, ...properties(def, declared) },
  };
}

/** parses and checks a view metadata file's JSON; a damaged file is XX001 naming it */
export function parseViewMetadata(text: string, location: string): ViewMetadataDoc {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw pgError(SqlState.data_corrupted, `invalid Iceberg view metadata file "${location}": ${e instanceof Error ? e.message : String(e)}`);
  }
  const parsed = viewMetadataSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw pgError(SqlState.data_corrupted, `invalid Iceberg view metadata file "${location}": ${issue === undefined ? 'bad shape' : `${issue.path.join('.')}: ${issue.message}`}`);
  }
  return parsed.data;
}

/** the current version's columns (with declared PostgreSQL types) and its `postgresql` SQL */
export function loadedView(doc: ViewMetadataDoc, location: string): LoadedView {
  const current = doc.versions.find((v) => v['version-id'] === doc['current-version-id']);
  if (current === undefined) throw pgError(SqlState.data_corrupted, `invalid Iceberg view metadata file "${location}": current-version-id ${doc['current-version-id']} is not a version`);
  const schemaDoc = doc.schemas.find((s) => Number(s['schema-id'] ?? 0) === current['schema-id']);
  if (schemaDoc === undefined) throw pgError(SqlState.data_corrupted, `invalid Iceberg view metadata file "${location}": schema-id ${current['schema-id']} is not a schema`);
  const schema = parseSchema(schemaDoc);
  const columns = schema.fields.map((f): ColumnDef => {
    const declared = /^(\d+):(-?\d+)$/.exec(doc.properties[`${COLUMN_TYPE_PREFIX}${f.id}`] ?? '');
    const type = declared === null ? toSqlType(f.type) : { oid: Number(declared[1]), typmod: Number(declared[2]) };
    return { name: f.name, type, nullable: true, ...(f.doc === undefined ? {} : { comment: f.doc }) };
  });
  const sqls = current.representations.filter((r) => r.type === 'sql');
  const ours = sqls.find((r) => r.dialect?.toLowerCase() === POSTGRESQL_DIALECT || r.dialect?.toLowerCase() === 'postgres');
  let searchPath: string[] = [...current['default-namespace']];
  const stored = doc.properties[SEARCH_PATH_PROPERTY];
  if (stored !== undefined) {
    try {
      const list: unknown = JSON.parse(stored);
      if (Array.isArray(list) && list.every((s) => typeof s === 'string')) searchPath = list;
    } catch {
      // a hand-edited property: the default namespace still names where unqualified tables are
    }
  }
  return {
    uuid: doc['view-uuid'],
    columns,
    sql: ours?.sql,
    dialects: sqls.map((r) => r.dialect ?? '?'),
    searchPath,
    comment: doc.properties['comment'],
  };
}
