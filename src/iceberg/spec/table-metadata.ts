/**
 * Table metadata JSON (§ Table Metadata, § Appendix C), v1/v2 and the v3 fields that are present.
 * Parsed losslessly: snapshot ids and sequence numbers exceed 2^53 and JSON.parse would round them.
 * Unknown fields are kept in `raw`. v1 fallbacks: `schema`, bare `partition-spec`, snapshot `manifests`.
 */
import { parse as parseLossless } from 'lossless-json';
import { pgError } from '../../common/errors.ts';
import { parseSchema, type Schema } from './schema.ts';
import { parsePartitionSpec, parseSortOrder, type PartitionSpec, type SortOrder } from './partition-spec.ts';

export const MAX_FORMAT_VERSION = 3;

export interface Snapshot {
  readonly snapshotId: bigint;
  readonly parentSnapshotId: bigint | null;
  /** 0 for v1 tables */
  readonly sequenceNumber: bigint;
  readonly timestampMs: bigint;
  /** null for v1 snapshots that list manifests inline (`manifests`) */
  readonly manifestList: string | null;
  readonly manifests: readonly string[] | null;
  readonly summary: Readonly<Record<string, string>>;
  readonly schemaId: number | null;
  readonly firstRowId?: bigint;
  readonly addedRows?: bigint;
}
export interface SnapshotRef {
  readonly snapshotId: bigint;
  readonly type: 'branch' | 'tag';
  readonly maxRefAgeMs?: bigint;
  readonly maxSnapshotAgeMs?: bigint;
  readonly minSnapshotsToKeep?: number;
}
export interface SnapshotLogEntry { readonly timestampMs: bigint; readonly snapshotId: bigint }
export interface MetadataLogEntry { readonly timestampMs: bigint; readonly metadataFile: string }

export interface TableMetadata {
  readonly formatVersion: number;
  readonly tableUuid: string | null;
  readonly location: string;
  readonly lastSequenceNumber: bigint;
  readonly lastUpdatedMs: bigint;
  readonly lastColumnId: number;
  readonly schemas: readonly Schema[];
  readonly currentSchemaId: number;
  readonly partitionSpecs: readonly PartitionSpec[];
  readonly defaultSpecId: number;
  readonly lastPartitionId: number;
  readonly sortOrders: readonly SortOrder[];
  readonly defaultSortOrderId: number;
  readonly properties: Readonly<Record<string, string>>;
  /** null when absent or -1 */
  readonly currentSnapshotId: bigint | null;
  readonly snapshots: readonly Snapshot[];
  readonly snapshotLog: readonly SnapshotLogEntry[];
  readonly metadataLog: readonly MetadataLogEntry[];
  /** `main` is always present when there is a current snapshot */
  readonly refs: ReadonlyMap<string, SnapshotRef>;
  readonly nextRowId?: bigint;
  /** the whole parsed document (integers beyond 2^53 as bigint), unknown fields included */
  readonly raw: Readonly<Record<string, unknown>>;
}

type Json = Record<string, unknown>;

/** integers → number when safe, else bigint; other numbers → number */
function parseNumber(text: string): number | bigint {
  if (/^-?\d+$/.test(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : BigInt(text);
  }
  return Number(text);
}

export function parseJsonLossless(text: string): unknown {
  return parseLossless(text, null, parseNumber);
}

const big = (v: unknown): bigint => (typeof v === 'bigint' ? v : BigInt(v as number | string));
const bigOrNull = (v: unknown): bigint | null => (v === undefined || v === null ? null : big(v));

export function parseTableMetadata(text: string): TableMetadata {
  let doc: Json;
  try {
    doc = parseJsonLossless(text) as Json;
  } catch (e) {
    throw pgError('XX000', `invalid Iceberg table metadata JSON: ${(e as Error).message}`, { cause: e });
  }
  const formatVersion = Number(doc['format-version']);
  if (!(formatVersion >= 1 && formatVersion <= MAX_FORMAT_VERSION)) {
    throw pgError('0A000', `Iceberg format-version ${String(doc['format-version'])} is not supported`);
  }
  const schemas = Array.isArray(doc['schemas']) ? doc['schemas'].map(parseSchema) : [parseSchema(doc['schema'])];
  const currentSchemaId = doc['current-schema-id'] === undefined ? schemas[0]!.schemaId : Number(doc['current-schema-id']);
  const partitionSpecs = Array.isArray(doc['partition-specs'])
    ? doc['partition-specs'].map((s) => parsePartitionSpec(s))
    : [parsePartitionSpec(doc['partition-spec'] ?? [], 0)];
  const sortOrders = Array.isArray(doc['sort-orders']) ? doc['sort-orders'].map(parseSortOrder) : [];
  const rawCurrent = bigOrNull(doc['current-snapshot-id']);
  const currentSnapshotId = rawCurrent === null || rawCurrent === -1n ? null : rawCurrent;
  const snapshots = ((doc['snapshots'] as unknown[]) ?? []).map(parseSnapshot);

  const refs = new Map<string, SnapshotRef>();
  for (const [name, r] of Object.entries((doc['refs'] as Json | undefined) ?? {})) {
    const o = r as Json;
    const ref: { -readonly [K in keyof SnapshotRef]: SnapshotRef[K] } = {
      snapshotId: big(o['snapshot-id']),
      type: o['type'] === 'tag' ? 'tag' : 'branch',
    };
    if (o['max-ref-age-ms'] !== undefined) ref.maxRefAgeMs = big(o['max-ref-age-ms']);
    if (o['max-snapshot-age-ms'] !== undefined) ref.maxSnapshotAgeMs = big(o['max-snapshot-age-ms']);
    if (o['min-snapshots-to-keep'] !== undefined) ref.minSnapshotsToKeep = Number(o['min-snapshots-to-keep']);
    refs.set(name, ref);
  }
  if (!refs.has('main') && currentSnapshotId !== null) refs.set('main', { snapshotId: currentSnapshotId, type: 'branch' });

  const md: { -readonly [K in keyof TableMetadata]: TableMetadata[K] } = {
    formatVersion,
    tableUuid: typeof doc['table-uuid'] === 'string' ? doc['table-uuid'] : null,
    location: String(doc['location'] ?? ''),
    lastSequenceNumber: bigOrNull(doc['last-sequence-number']) ?? 0n,
    lastUpdatedMs: bigOrNull(doc['last-updated-ms']) ?? 0n,
    lastColumnId: Number(doc['last-column-id'] ?? 0),
    schemas,
    currentSchemaId,
    partitionSpecs,
    defaultSpecId: doc['default-spec-id'] === undefined ? partitionSpecs[0]!.specId : Number(doc['default-spec-id']),
    lastPartitionId: Number(doc['last-partition-id'] ?? 999),
    sortOrders,
    defaultSortOrderId: Number(doc['default-sort-order-id'] ?? 0),
    properties: Object.fromEntries(Object.entries((doc['properties'] as Json | undefined) ?? {}).map(([k, v]) => [k, String(v)])),
    currentSnapshotId,
    snapshots,
    snapshotLog: ((doc['snapshot-log'] as Json[] | undefined) ?? []).map((e) => ({
      timestampMs: big(e['timestamp-ms']),
      snapshotId: big(e['snapshot-id']),
    })),
    metadataLog: ((doc['metadata-log'] as Json[] | undefined) ?? []).map((e) => ({
      timestampMs: big(e['timestamp-ms']),
      metadataFile: String(e['metadata-file']),
    })),
    refs,
    raw: doc,
  };
  if (doc['next-row-id'] !== undefined) md.nextRowId = big(doc['next-row-id']);
  return md;
}

function parseSnapshot(json: unknown): Snapshot {
  const o = json as Json;
  const s: { -readonly [K in keyof Snapshot]: Snapshot[K] } = {
    snapshotId: big(o['snapshot-id']),
    parentSnapshotId: bigOrNull(o['parent-snapshot-id']),
    sequenceNumber: bigOrNull(o['sequence-number']) ?? 0n,
    timestampMs: big(o['timestamp-ms']),
    manifestList: typeof o['manifest-list'] === 'string' ? o['manifest-list'] : null,
    manifests: Array.isArray(o['manifests']) ? o['manifests'].map(String) : null,
    summary: Object.fromEntries(Object.entries((o['summary'] as Json | undefined) ?? {}).map(([k, v]) => [k, String(v)])),
    schemaId: o['schema-id'] === undefined ? null : Number(o['schema-id']),
  };
  if (o['first-row-id'] !== undefined) s.firstRowId = big(o['first-row-id']);
  if (o['added-rows'] !== undefined) s.addedRows = big(o['added-rows']);
  return s;
}

export function schemaById(md: TableMetadata, id: number): Schema {
  const s = md.schemas.find((x) => x.schemaId === id);
  if (!s) throw pgError('XX000', `Iceberg schema ${id} not found in table metadata`);
  return s;
}
export function currentSchema(md: TableMetadata): Schema {
  return schemaById(md, md.currentSchemaId);
}
export function specById(md: TableMetadata, id: number): PartitionSpec {
  const s = md.partitionSpecs.find((x) => x.specId === id);
  if (!s) throw pgError('XX000', `Iceberg partition spec ${id} not found in table metadata`);
  return s;
}

/** The snapshot to read: the given id, or the current one (null when the table has no snapshot). */
export function findSnapshot(md: TableMetadata, snapshotId?: bigint | null): Snapshot | null {
  const id = snapshotId ?? md.currentSnapshotId;
  if (id === null) return null;
  const snap = md.snapshots.find((s) => s.snapshotId === id);
  if (!snap) throw pgError('22023', `Snapshot ${id} not found in metadata`);
  return snap;
}

/** The snapshot a ref (branch or tag) points to. */
export function snapshotIdOfRef(md: TableMetadata, ref: string): bigint {
  const r = md.refs.get(ref);
  if (!r) throw pgError('22023', `Iceberg ref "${ref}" not found in metadata`);
  return r.snapshotId;
}

/** Time travel by timestamp (§ Appendix F): the last snapshot-log entry at or before `timestampMs`. */
export function snapshotIdAsOf(md: TableMetadata, timestampMs: bigint): bigint {
  let found: bigint | null = null;
  for (const e of md.snapshotLog) if (e.timestampMs <= timestampMs) found = e.snapshotId;
  if (found === null) throw pgError('22023', `no Iceberg snapshot exists at or before ${timestampMs} ms`);
  return found;
}
