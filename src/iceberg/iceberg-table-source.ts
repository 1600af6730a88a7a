/**
 * IcebergTableSource: a TableSource over one snapshot of one Iceberg table (pinned at construction, so a
 * statement sees one snapshot). Columns come from the current schema (or a given schema id); scan() plans
 * the snapshot's files once and streams their batches, reading only the projected columns (the others are
 * returned as NULL, as the ScanContext contract allows).
 */
import type { Batch } from '../common/batch.ts';
import type { ColumnDef, ScanContext, TableSource } from '../catalog/table-source.ts';
import { insertIntoIcebergTable, type IcebergTableWriter } from './commit/table-writer.ts';
import type { IcebergIO } from './io.ts';
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { DEFAULT_OUTPUT_SETTINGS, Oid, textIn } from '../common/pgtypes/index.ts';
import type { SqlType } from '../common/pgtypes/oids.ts';
import { loadTableMetadata } from './spec/metadata-file.ts';
import { findSnapshot, schemaById, snapshotIdAsOf, snapshotIdOfRef, type Snapshot, type TableMetadata } from './spec/table-metadata.ts';
import { indexById, type IcebergType, type NestedField, type Schema } from './spec/schema.ts';
import { toSqlType } from './spec/types.ts';
import { planScan, type ScanPlan } from './scan/table-scan.ts';
import { DeleteLoader } from './read/delete-loader.ts';
import { readFileScanTask } from './read/file-scan-task-reader.ts';

export interface IcebergTableSourceOptions {
  /** read this snapshot instead of the current one (time travel) */
  readonly snapshotId?: bigint;
  /** read the snapshot a branch or tag points to */
  readonly ref?: string;
  /** read the snapshot that was current at this time (snapshot-log, § Appendix F) */
  readonly asOfTimestampMs?: bigint;
  /** read with this schema instead of the current one */
  readonly schemaId?: number;
  /** read with the schema the chosen snapshot was written with (Iceberg Java's time-travel behaviour) */
  readonly useSnapshotSchema?: boolean;
  /** makes the source writable (INSERT, COPY FROM): appends commit through this catalog; current snapshot only */
  readonly writer?: IcebergTableWriter;
}

/**
 * The PostgreSQL type lakegate's CREATE TABLE declared for a field (varchar(n), int2, jsonb…), kept in the
 * `lakegate.column-type.<id>` property as `<oid>:<typmod>:<iceberg type>`; ignored once the field's type
 * changed (another engine promoted it). Those types share the JS values of the default mapping.
 */
function declaredType(metadata: TableMetadata, f: NestedField): SqlType | undefined {
  const text = metadata.properties[`lakegate.column-type.${f.id}`];
  if (text === undefined) return undefined;
  const m = /^(\d+):(-?\d+):(.+)$/.exec(text);
  return m !== null && m[3] === JSON.stringify(typeJson(f.type)) ? { oid: Number(m[1]), typmod: Number(m[2]) } : undefined;
}

function typeJson(t: IcebergType): unknown {
  if (t.kind === 'primitive') return t.name === 'decimal' ? `decimal(${t.precision}, ${t.scale})` : t.name === 'fixed' ? `fixed[${t.length}]` : t.name;
  if (t.kind === 'list') return { type: 'list', 'element-id': t.elementId, element: typeJson(t.element), 'element-required': t.elementRequired };
  return t.kind;
}

export class IcebergTableSource implements TableSource {
  readonly columns: readonly ColumnDef[];
  readonly schema: Schema;
  readonly snapshot: Snapshot | null;
  readonly estimatedRows?: number;
  private plan: Promise<ScanPlan> | null = null;
  /** present only when constructed with a writer: then this is a WritableTableSource */
  readonly insert?: (batches: AsyncIterable<Batch>, ctx: ScanContext) => Promise<number>;

  constructor(
    readonly io: IcebergIO,
    readonly metadata: TableMetadata,
    options: IcebergTableSourceOptions = {},
  ) {
    const id = options.snapshotId
      ?? (options.ref !== undefined ? snapshotIdOfRef(metadata, options.ref) : undefined)
      ?? (options.asOfTimestampMs !== undefined ? snapshotIdAsOf(metadata, options.asOfTimestampMs) : undefined);
    this.snapshot = findSnapshot(metadata, id ?? null);
    const snapSchema = options.useSnapshotSchema ? this.snapshot?.schemaId ?? null : null;
    this.schema = schemaById(metadata, options.schemaId ?? snapSchema ?? metadata.currentSchemaId);
    this.columns = this.schema.fields.map((f) => ({
      name: f.name,
      type: declaredType(metadata, f) ?? toSqlType(f.type),
      nullable: !f.required,
      ...(f.doc === undefined ? {} : { comment: f.doc }),
      // written by lakegate's CREATE TABLE (write/new-table-metadata.ts columnDefaultProperty)
      ...(metadata.properties[`lakegate.column-default.${f.id}`] === undefined ? {} : { defaultExpr: metadata.properties[`lakegate.column-default.${f.id}`] }),
    }));
    const total = this.snapshot?.summary['total-records'];
    if (total !== undefined && /^\d+$/.test(total)) this.estimatedRows = Number(total);
    const writer = options.writer;
    if (writer !== undefined && id === undefined && options.schemaId === undefined) {
      this.insert = (batches) => insertIntoIcebergTable(writer, this.metadata, this.schema, batches);
    }
  }

  static async load(io: IcebergIO, metadataUri: string, options?: IcebergTableSourceOptions): Promise<IcebergTableSource> {
    return new IcebergTableSource(io, await loadTableMetadata(io, metadataUri), options);
  }

  /** FOR SYSTEM_VERSION AS OF <snapshot id> | FOR SYSTEM_TIME AS OF <timestamp>: read with that snapshot's schema */
  at(asOf: string): IcebergTableSource {
    const text = asOf.trim();
    if (/^-?\d+$/.test(text)) return new IcebergTableSource(this.io, this.metadata, { snapshotId: BigInt(text), useSnapshotSchema: true });
    const literal = /^(?:TIMESTAMPTZ|TIMESTAMP|DATE)?\s*'((?:[^']|'')*)'$/i.exec(text);
    if (literal === null) throw pgError(SqlState.syntax_error, `invalid time travel value: ${text}`);
    // a timestamp without zone is read as UTC, as Trino does for FOR SYSTEM_TIME AS OF
    const micros = textIn(Oid.timestamptz, -1, literal[1]!.replace(/''/g, "'"), { ...DEFAULT_OUTPUT_SETTINGS, timeZone: 'UTC' }) as bigint;
    return new IcebergTableSource(this.io, this.metadata, { asOfTimestampMs: micros / 1000n, useSnapshotSchema: true });
  }

  planFiles(): Promise<ScanPlan> {
    return (this.plan ??= planScan(this.io, this.metadata, this.snapshot?.snapshotId ?? null));
  }

  async *scan(ctx: Pick<ScanContext, 'signal' | 'projection'>): AsyncIterable<Batch> {
    const plan = await this.planFiles();
    const wanted = ctx.projection ?? this.schema.fields.map((_f, i) => i);
    const fields: NestedField[] = wanted.map((i) => this.schema.fields[i]!);
    // equality-delete ids may name fields of any schema version
    const byId = new Map<number, NestedField>();
    for (const s of this.metadata.schemas) for (const [id, f] of indexById(s)) byId.set(id, f);
    for (const [id, f] of indexById(this.schema)) byId.set(id, f);
    const deletes = new DeleteLoader(this.io, (id) => byId.get(id));
    const width = this.schema.fields.length;
    for (const task of plan.tasks) {
      ctx.signal.throwIfAborted();
      for await (const b of readFileScanTask(this.io, task, fields, deletes, ctx.signal)) {
        if (ctx.projection === undefined) {
          yield b;
          continue;
        }
        const columns: (readonly unknown[])[] = Array.from({ length: width }, () => new Array<unknown>(b.length).fill(null));
        wanted.forEach((c, k) => { columns[c] = b.columns[k]!; });
        yield { length: b.length, columns };
      }
    }
  }
}
