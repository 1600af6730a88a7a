/**
 * IcebergTables: mirrors one database's Iceberg catalog into its DatabaseCatalog — namespaces become
 * schemas, tables become relations whose source is an IcebergTableSource pinned to the table's current
 * metadata file. Refreshed before statements (throttled), so a statement binds to one snapshot per table
 * while writers elsewhere keep committing; a table's metadata is re-read only when its pointer moved.
 */
import type { RelationInfo } from '../catalog/catalog-view.ts';
import type { IcebergCatalog, TableIdentifier } from '../catalog/iceberg/index.ts';
import { IcebergTableSource, createIcebergTable, loadTableMetadata, type IcebergIO, type IcebergWriteIO } from '../iceberg/index.ts';
import type { ColumnDef } from '../catalog/table-source.ts';
import type { DatabaseCatalog } from './database-catalog.ts';

const REFRESH_INTERVAL_MS = 200;

/** what makes mirrored tables writable (CREATE TABLE, INSERT, COPY FROM commit to the catalog) */
export interface IcebergWriteOptions {
  readonly io: IcebergWriteIO;
  /** warehouse root, for table locations when a namespace has none */
  readonly warehouse?: string;
  /** roll data files at this many (uncompressed) bytes; default 128 MiB */
  readonly targetFileSizeBytes?: number;
}

interface Loaded {
  readonly metadataLocation: string;
  readonly oid: number;
  readonly rowTypeOid: number;
}

export class IcebergTables {
  private readonly loaded = new Map<string, Loaded>();
  private lastRefresh = 0;
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly db: DatabaseCatalog,
    readonly catalog: IcebergCatalog,
    readonly io: IcebergIO,
    private readonly onChange: () => void,
    private readonly log: (message: string) => void = (m) => process.stderr.write(`lakegate: ${m}\n`),
    private readonly write?: IcebergWriteOptions,
  ) {}

  get writable(): boolean {
    return this.write !== undefined;
  }

  /** CREATE TABLE in an Iceberg namespace: first metadata file + catalog pointer, then the mirror shows it */
  async createTable(schema: string, name: string, columns: readonly ColumnDef[]): Promise<void> {
    if (this.write === undefined) throw new Error('Iceberg tables are read-only in this server');
    await createIcebergTable(this.catalog, this.write.io, { namespace: [schema], name }, columns, this.write.warehouse === undefined ? {} : { warehouse: this.write.warehouse });
    await this.refresh(true);
  }

  /** brings the mirror up to date; `force` after this process changed the catalog */
  async refresh(force = false): Promise<void> {
    if (!force && Date.now() - this.lastRefresh < REFRESH_INTERVAL_MS) return;
    this.inFlight ??= this.doRefresh().finally(() => {
      this.inFlight = null;
    });
    await this.inFlight;
  }

  isIcebergRelation(info: RelationInfo): boolean {
    return info.source instanceof IcebergTableSource;
  }

  private async doRefresh(): Promise<void> {
    this.lastRefresh = Date.now();
    let changed = false;
    const seen = new Set<string>();
    for (const namespace of await this.catalog.listNamespaces()) {
      const schema = namespace.join('.');
      if (this.db.schema(schema) === undefined) {
        this.db.createSchema(schema, 'lakegate', true);
        changed = true;
      }
      for (const id of await this.catalog.listTables(namespace)) {
        const key = `${schema}\u0000${id.name}`;
        seen.add(key);
        if (await this.refreshTable(schema, id, key)) changed = true;
      }
    }
    for (const key of [...this.loaded.keys()]) {
      if (seen.has(key)) continue;
      const [schema, name] = key.split('\u0000') as [string, string];
      this.db.removeRelation(schema, name);
      this.loaded.delete(key);
      changed = true;
    }
    if (changed) this.onChange();
  }

  /** loads the table when its metadata pointer moved; a broken table is logged and left out, not fatal */
  private async refreshTable(schema: string, id: TableIdentifier, key: string): Promise<boolean> {
    try {
      const { metadataLocation } = await this.catalog.loadTableLocation(id);
      const previous = this.loaded.get(key);
      if (previous?.metadataLocation === metadataLocation) return false;
      const write = this.write;
      const source = new IcebergTableSource(this.io, await loadTableMetadata(this.io, metadataLocation), write === undefined ? {} : {
        writer: {
          catalog: this.catalog,
          io: write.io,
          id,
          afterCommit: () => this.refresh(true),
          ...(write.targetFileSizeBytes === undefined ? {} : { targetFileSizeBytes: write.targetFileSizeBytes }),
        },
      });
      const oid = previous?.oid ?? this.db.allocOid();
      const rowTypeOid = previous?.rowTypeOid ?? this.db.allocOid();
      const info: RelationInfo = { oid, schema, schemaOid: this.db.schema(schema)!.oid, name: id.name, kind: 'r', persistence: 'p', rowTypeOid, source };
      this.db.replaceRelation(info);
      this.loaded.set(key, { metadataLocation, oid, rowTypeOid });
      return true;
    } catch (e) {
      this.log(`cannot load Iceberg table ${schema}.${id.name}: ${e instanceof Error ? e.message : String(e)}`);
      return false;
    }
  }
}
