/**
 * IcebergTables: mirrors one database's Iceberg catalog into its DatabaseCatalog — namespaces become
 * schemas, tables become relations whose source is an IcebergTableSource pinned to the table's current
 * metadata file. Refreshed before statements (throttled), so a statement binds to one snapshot per table
 * while writers elsewhere keep committing; a table's metadata is re-read only when its pointer moved.
 */
import type { ForeignKeyInfo, IndexInfo, RelationInfo } from '../catalog/catalog-view.ts';
import type { IcebergCatalog, TableIdentifier } from '../catalog/iceberg/index.ts';
import {
  BrokenTableSource, IcebergTableSource, createIcebergTable, loadTableMetadata, setColumnDoc, setProperty, updateTableMetadata, type IcebergIO, type IcebergWriteIO,
} from '../iceberg/index.ts';
import { createIcebergView, loadIcebergView, replaceIcebergView, setIcebergViewProperty, storesViews, type LoadedView, type ViewDefinition } from '../iceberg/index.ts';
import type { TableSource } from '../catalog/table-source.ts';
import { applySchemaChanges, purgeTableFiles, setPartitioning, type SchemaChange } from '../iceberg/index.ts';
import type { ColumnDef } from '../catalog/table-source.ts';
import type { DatabaseCatalog } from './database-catalog.ts';
import { SqlCatalog } from '../catalog/iceberg/sql-catalog.ts';
import { SqlSequenceStore } from '../catalog/sequences/sql-sequence-store.ts';
import { SequenceSource } from '../catalog/sequences/sequence-source.ts';
import type { StoredSequence } from '../catalog/sequences/sequence-store.ts';
import { primaryKeyName } from '../iceberg/keys/unique-keys.ts';
import { keysVerifiedAt } from '../iceberg/keys/verified-keys.ts';
import { readsSoFar } from '../wire/read-clock.ts';

/** catalogs without a change token (REST, PostgreSQL-backed) are re-listed at most this often */
const REFRESH_INTERVAL_MS = 200;

/** what makes mirrored tables writable (CREATE TABLE, INSERT, COPY FROM commit to the catalog) */
export interface IcebergWriteOptions {
  readonly io: IcebergWriteIO;
  /** warehouse root, for table locations when a namespace has none */
  readonly warehouse?: string;
  /** roll data files at this many (uncompressed) bytes; default 48 MiB (DEFAULT_TARGET_FILE_SIZE) */
  readonly targetFileSizeBytes?: number;
}

/** a foreign key of a lakegate-created Iceberg table, by name (table property `lakegate.foreign-keys`) */
export interface StoredForeignKey {
  readonly name: string;
  readonly columns: readonly string[];
  readonly refSchema: string;
  readonly refTable: string;
  readonly refColumns: readonly string[];
}
const FOREIGN_KEYS_PROPERTY = 'lakegate.foreign-keys';

interface Loaded {
  readonly metadataLocation: string;
  /** its StableOids identity (table-uuid, or the name without one): OIDs of the table, its row type, indexes and foreign keys derive from it */
  readonly identity: string;
  readonly oid: number;
  readonly rowTypeOid: number;
}

/** a CREATE INDEX on a lakegate Iceberg table, kept in the table property `lakegate.indexes` */
export interface StoredIndex {
  readonly name: string;
  readonly columns: readonly string[];
  readonly unique: boolean;
  /** the index of a UNIQUE constraint (IndexInfo.constraint) */
  readonly constraint?: boolean;
}

export const INDEXES_PROPERTY = 'lakegate.indexes';

/** makes the TableSource that runs a view's SQL (the engine binds it; iceberg/ does not know SQL) */
export type ViewSourceFactory = (view: LoadedView, schema: string, name: string) => TableSource;

export class IcebergTables {
  private readonly loaded = new Map<string, Loaded>();
  /** Iceberg views mirrored as relations of kind 'v', by the same `schema\0name` key */
  private readonly loadedViews = new Map<string, Loaded>();
  private lastRefresh = 0;
  /** namespaces a refresh listed: a schema the mirror has seen as one leaves when its namespace is gone */
  private listedNamespaces = new Set<string>();
  /** the catalog's change token when the last refresh started (IcebergCatalog.changeToken) */
  private lastToken: number | string | undefined;
  private inFlight: Promise<void> | null = null;
  /** sequences of Iceberg namespaces, in the SQL catalog's database; undefined on a REST catalog */
  readonly sequences: SqlSequenceStore | undefined;
  /** mirrored sequences by `schema\0name`: a signature of their options, their OIDs and source */
  private readonly loadedSequences = new Map<string, { sig: string; identity: string; source: SequenceSource }>();

  constructor(
    private readonly db: DatabaseCatalog,
    readonly catalog: IcebergCatalog,
    readonly io: IcebergIO,
    private readonly onChange: () => void,
    private readonly log: (message: string) => void = (m) => process.stderr.write(`lakegate: ${m}\n`),
    private readonly write?: IcebergWriteOptions,
    /** views are mirrored only with a factory (and a catalog that stores views) */
    private readonly viewSource?: ViewSourceFactory,
  ) {
    this.sequences = catalog instanceof SqlCatalog && write !== undefined ? new SqlSequenceStore(catalog.dialect, catalog.name) : undefined;
  }

  /** CREATE VIEW can persist a view in this catalog (writable, and the catalog stores views) */
  get storesViews(): boolean {
    return this.write !== undefined && this.viewSource !== undefined && storesViews(this.catalog);
  }

  isIcebergView(info: RelationInfo): boolean {
    return info.kind === 'v' && this.loadedViews.has(`${info.schema}\u0000${info.name}`);
  }

  /** CREATE [OR REPLACE] VIEW in an Iceberg namespace: a view metadata file + the catalog pointer (or its swap) */
  async createView(schema: string, name: string, def: ViewDefinition, replace: boolean): Promise<void> {
    const catalog = this.catalog;
    if (this.write === undefined || !storesViews(catalog)) throw new Error('this catalog does not store views');
    const id = { namespace: [schema], name };
    const existing = replace && this.loadedViews.has(`${schema}\u0000${name}`);
    if (existing) await replaceIcebergView(catalog, this.write.io, id, def);
    else await createIcebergView(catalog, this.write.io, id, def, this.write.warehouse);
    await this.refresh(true);
  }

  /** DROP VIEW: the catalog pointer goes (view metadata files stay, as for tables) */
  async dropView(schema: string, name: string): Promise<boolean> {
    const catalog = this.catalog;
    if (!storesViews(catalog)) return false;
    const dropped = await catalog.dropView({ namespace: [schema], name });
    await this.refresh(true);
    return dropped;
  }

  /** COMMENT ON VIEW: the view's `comment` property (Spark's and Trino's convention, as for tables) */
  async commentOnView(schema: string, name: string, comment: string | undefined): Promise<void> {
    const catalog = this.catalog;
    if (this.write === undefined || !storesViews(catalog)) throw new Error('this catalog does not store views');
    await setIcebergViewProperty(catalog, this.write.io, { namespace: [schema], name }, 'comment', comment);
    await this.refresh(true);
  }

  /** ALTER VIEW … RENAME TO / SET SCHEMA */
  async renameView(schema: string, name: string, toSchema: string, toName: string): Promise<void> {
    const catalog = this.catalog;
    if (!storesViews(catalog)) throw new Error('this catalog does not store views');
    await catalog.renameView({ namespace: [schema], name }, { namespace: [toSchema], name: toName });
    await this.refresh(true);
  }

  get writable(): boolean {
    return this.write !== undefined;
  }

  /** the write capability (CALL system.rewrite_data_files), undefined when tables are read-only */
  get writeOptions(): IcebergWriteOptions | undefined {
    return this.write;
  }

  /** CREATE TABLE in an Iceberg namespace: first metadata file + catalog pointer, then the mirror shows it */
  async createTable(schema: string, name: string, columns: readonly ColumnDef[], primaryKey: readonly number[] = [], foreignKeys: readonly StoredForeignKey[] = [], partitioning: readonly string[] = [], formatVersion?: 1 | 2 | 3, properties: Readonly<Record<string, string>> = {}): Promise<void> {
    if (this.write === undefined) throw new Error('Iceberg tables are read-only in this server');
    await createIcebergTable(this.catalog, this.write.io, { namespace: [schema], name }, columns, {
      primaryKey,
      ...(formatVersion === undefined ? {} : { formatVersion }),
      ...(partitioning.length === 0 ? {} : { partitioning }),
      ...(foreignKeys.length === 0 && Object.keys(properties).length === 0 ? {} : { properties: { ...properties, ...(foreignKeys.length === 0 ? {} : { [FOREIGN_KEYS_PROPERTY]: JSON.stringify(foreignKeys) }) } }),
      ...(this.write.warehouse === undefined ? {} : { warehouse: this.write.warehouse }),
    });
    await this.refresh(true);
  }

  /**
   * Brings the mirror up to date; `force` after this process changed the catalog. Otherwise: when the
   * catalog's change token moved (SQLite: another connection committed), so a commit made through another
   * process is seen by the next statement here; catalogs without a token are re-listed every REFRESH_INTERVAL_MS.
   */
  async refresh(force = false): Promise<void> {
    if (!force && this.upToDate()) return;
    // a refresh already running may have listed the catalog before the change this caller must see
    if (this.inFlight !== null) {
      await this.inFlight;
      if (!force && this.upToDate()) return;
    }
    this.inFlight ??= this.doRefresh().finally(() => {
      this.inFlight = null;
    });
    await this.inFlight;
  }

  /**
   * refresh() without a promise in the usual case: undefined when the mirror is up to date (nothing to await).
   * `readMark`: the read clock's number of the latest socket read of the asking session (HandlerSession.readMark):
   * when a change token check found the mirror current after that read, no new check is needed.
   */
  refreshIfStale(readMark?: number): Promise<void> | undefined {
    if (readMark !== undefined && readMark <= this.checkedAfterRead) return undefined;
    return this.upToDate() ? undefined : this.refresh();
  }

  /** readsSoFar() when a change token check last found nothing committed elsewhere (no refresh running) */
  private checkedAfterRead = 0;

  /**
   * nothing committed elsewhere since the last refresh started: by the change token, or (without one) recently
   * listed. Never while a refresh runs: its token is new but its listing is not done (the caller awaits it).
   */
  private upToDate(): boolean {
    if (this.inFlight !== null) return false;
    const catalog = this.catalog;
    // known unchanged without a read (a quiet -wal watch): covers this statement, not every read so far
    // (checkedAfterRead stays: a read of the current poll phase may come before its commit's watch event)
    const quiet = catalog.quietChangeToken?.();
    if (quiet !== undefined && quiet === this.lastToken) return true;
    const token = catalog.changeToken?.();
    if (token !== undefined) {
      if (token !== this.lastToken) return false;
      // every message read so far was sent before this check: it covers them
      this.checkedAfterRead = readsSoFar();
      return true;
    }
    return Date.now() - this.lastRefresh < REFRESH_INTERVAL_MS;
  }

  isIcebergRelation(info: RelationInfo): boolean {
    return info.source instanceof IcebergTableSource;
  }

  /**
   * Removals first, then tables in (schema, name) order: OID collisions are then resolved alike by every
   * process that sees the same catalog, whatever order it saw the changes in (stable-oids.ts).
   */
  private async doRefresh(): Promise<void> {
    this.lastRefresh = Date.now();
    // read before listing: a commit landing during the listing moves it again and triggers another refresh
    this.lastToken = this.catalog.changeToken?.();
    let changed = false;
    const found: { schema: string; id: TableIdentifier; key: string }[] = [];
    const foundViews: { schema: string; id: TableIdentifier; key: string }[] = [];
    const namespaces = new Set<string>();
    const catalog = this.catalog;
    const withViews = this.viewSource !== undefined && storesViews(catalog);
    for (const namespace of await catalog.listNamespaces()) {
      const schema = namespace.join('.');
      namespaces.add(schema);
      if (this.db.schema(schema) === undefined) {
        this.db.createSchema(schema, 'lakegate', true);
        changed = true;
      }
      for (const id of await catalog.listTables(namespace)) found.push({ schema, id, key: `${schema}\u0000${id.name}` });
      if (withViews) for (const id of await catalog.listViews(namespace)) foundViews.push({ schema, id, key: `${schema}\u0000${id.name}` });
    }
    for (const [entries, loaded] of [[found, this.loaded], [foundViews, this.loadedViews]] as const) {
      const seen = new Set(entries.map((f) => f.key));
      for (const key of [...loaded.keys()]) {
        if (seen.has(key)) continue;
        const [schema, name] = key.split('\u0000') as [string, string];
        this.db.removeRelation(schema, name);
        this.forget(key, loaded);
        changed = true;
      }
    }
    if (await this.refreshSequences(namespaces)) changed = true;
    // a namespace dropped through another process or engine: its schema leaves once nothing of it is left
    // here (only schemas listed before: one whose CREATE SCHEMA is still creating its namespace stays)
    for (const name of this.listedNamespaces) {
      if (namespaces.has(name) || name === 'public' || this.db.schema(name) === undefined) continue;
      if (this.db.relations().some((r) => r.schema === name)) continue;
      this.db.dropSchema(name, true, false);
      changed = true;
    }
    this.listedNamespaces = namespaces;
    const byKey = (a: { key: string }, b: { key: string }): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
    found.sort(byKey);
    foundViews.sort(byKey);
    for (const { schema, id, key } of found) if (await this.refreshTable(schema, id, key)) changed = true;
    for (const { schema, id, key } of foundViews) if (await this.refreshView(schema, id, key)) changed = true;
    if (changed) this.onChange();
  }

  /**
   * Sequences of the listed namespaces become relations of kind 'S' (one query per refresh); a sequence keeps
   * its SequenceSource and its OIDs (identity: its name) while it exists, and its latest state is noted.
   */
  private async refreshSequences(namespaces: ReadonlySet<string>): Promise<boolean> {
    const store = this.sequences;
    if (store === undefined) return false;
    let list: readonly StoredSequence[];
    try {
      list = await store.list();
    } catch (e) {
      this.log(`cannot list sequences: ${e instanceof Error ? e.message : String(e)}`);
      return false;
    }
    let changed = false;
    const seen = new Set<string>();
    const keyOf = (s: StoredSequence): string => `${s.namespace}\u0000${s.name}`;
    for (const s of [...list].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0))) {
      const schemaInfo = this.db.schema(s.namespace);
      if (!namespaces.has(s.namespace) || schemaInfo === undefined) continue;
      const key = keyOf(s);
      seen.add(key);
      const o = s.options;
      const sig = [o.dataType, o.start, o.increment, o.min, o.max, o.cache, o.cycle, JSON.stringify(s.ownedBy ?? null)].join('/');
      const previous = this.loadedSequences.get(key);
      if (previous !== undefined) previous.source.latest = s;
      if (previous?.sig === sig && this.db.findRelation(s.namespace, s.name)?.source === previous.source) continue;
      const identity = previous?.identity ?? `sequence:${s.namespace}.${s.name}`;
      const source = previous?.source ?? new SequenceSource(store, s);
      this.db.replaceRelation({
        oid: this.db.stableOids.assign(identity), schema: s.namespace, schemaOid: schemaInfo.oid, name: s.name, kind: 'S', persistence: 'p',
        rowTypeOid: this.db.stableOids.assign(`${identity}/rowtype`), source,
      });
      this.loadedSequences.set(key, { sig, identity, source });
      changed = true;
    }
    for (const [key, gone] of [...this.loadedSequences]) {
      if (seen.has(key)) continue;
      const [schema, name] = key.split('\u0000') as [string, string];
      if (this.db.findRelation(schema, name)?.source === gone.source) this.db.removeRelation(schema, name);
      this.loadedSequences.delete(key);
      this.db.stableOids.release(gone.identity);
      this.db.stableOids.releasePrefix(`${gone.identity}/`);
      changed = true;
    }
    return changed;
  }

  /** loads a view when its pointer moved; a view whose metadata cannot be read is logged and left out */
  private async refreshView(schema: string, id: TableIdentifier, key: string): Promise<boolean> {
    const catalog = this.catalog;
    if (this.viewSource === undefined || !storesViews(catalog)) return false;
    try {
      const { metadataLocation } = await catalog.loadViewLocation(id);
      const previous = this.loadedViews.get(key);
      if (previous?.metadataLocation === metadataLocation) return false;
      const view = await loadIcebergView(this.io, metadataLocation);
      const identity = this.oidsOf(key, schema, id.name, view.uuid, this.loadedViews, 'view');
      const oid = this.db.stableOids.assign(identity);
      const rowTypeOid = this.db.stableOids.assign(`${identity}/rowtype`);
      this.db.replaceRelation({
        oid, schema, schemaOid: this.db.schema(schema)!.oid, name: id.name, kind: 'v', persistence: 'p', rowTypeOid,
        source: this.viewSource(view, schema, id.name),
        ...(view.sql === undefined ? {} : { viewDefinition: ` ${view.sql};` }),
        ...(view.comment === undefined ? {} : { comment: view.comment }),
      });
      this.loadedViews.set(key, { metadataLocation, identity, oid, rowTypeOid });
      return true;
    } catch (e) {
      this.log(`cannot load Iceberg view ${schema}.${id.name}: ${e instanceof Error ? e.message : String(e)}`);
      return false;
    }
  }

  /** drops a table (or view) from the mirror's bookkeeping and frees its OID slots */
  private forget(key: string, loaded: Map<string, Loaded> = this.loaded): void {
    const gone = loaded.get(key);
    if (gone === undefined) return;
    loaded.delete(key);
    this.db.stableOids.release(gone.identity);
    this.db.stableOids.releasePrefix(`${gone.identity}/`);
  }

  /**
   * The table's (or view's) identity and OIDs: kept while the identity holds (a new snapshot, a schema change), new
   * when another table now has the name (dropped and re-created elsewhere). Two catalog entries sharing a
   * uuid (register-table of the same metadata) are told apart by name.
   */
  private oidsOf(key: string, schema: string, name: string, uuid: string | null, loaded: Map<string, Loaded> = this.loaded, kind = 'table'): Loaded['identity'] {
    const previous = loaded.get(key);
    let identity = uuid === null ? `${kind}-name:${schema}.${name}` : `${kind}:${uuid}`;
    if (previous?.identity === identity) return identity;
    if (previous !== undefined) this.forget(key, loaded);
    if (this.db.stableOids.has(identity)) identity = `${identity}@${schema}.${name}`;
    return identity;
  }

  /** COMMENT ON TABLE: the `comment` table property (null/undefined removes it) */
  async commentOnTable(schema: string, name: string, comment: string | undefined): Promise<void> {
    if (this.write === undefined) throw new Error('Iceberg tables are read-only in this server');
    await updateTableMetadata(this.catalog, this.write.io, { namespace: [schema], name }, setProperty('comment', comment));
    await this.refresh(true);
  }

  /** CREATE / DROP INDEX on an Iceberg table: the metadata-only index list lives in a table property */
  async setIndexes(schema: string, name: string, indexes: readonly StoredIndex[]): Promise<void> {
    if (this.write === undefined) throw new Error('Iceberg tables are read-only in this server');
    await updateTableMetadata(this.catalog, this.write.io, { namespace: [schema], name }, setProperty(INDEXES_PROPERTY, indexes.length === 0 ? undefined : JSON.stringify(indexes)));
    await this.refresh(true);
  }

  /** stored indexes → IndexInfo; ones naming columns that are gone are left out */
  private indexes(text: string | undefined, columnNames: readonly string[], identity: string): IndexInfo[] {
    if (text === undefined) return [];
    const out: IndexInfo[] = [];
    for (const ix of JSON.parse(text) as StoredIndex[]) {
      const columns = ix.columns.map((n) => columnNames.indexOf(n));
      if (columns.some((i) => i < 0)) continue;
      out.push({ oid: this.db.stableOids.assign(`${identity}/index/${ix.name}`), name: ix.name, columns, unique: ix.unique, ...(ix.constraint === true ? { constraint: true } : {}) });
    }
    return out;
  }

  /**
   * ALTER TABLE column changes: one metadata commit with a new current schema; returns "skipping" notices.
   * `partitioning` (SET (partitioning = …) / RESET (partitioning)): the new default partition spec, in the
   * same commit, after the column changes.
   */
  /** schema changes, a new partitioning and table properties (undefined = remove) of one ALTER TABLE: one commit */
  async alterSchema(schema: string, name: string, changes: readonly SchemaChange[], partitioning?: readonly string[], properties: ReadonlyMap<string, string | undefined> = new Map()): Promise<string[]> {
    if (this.write === undefined) throw new Error('Iceberg tables are read-only in this server');
    const notices: string[] = [];
    const columns = applySchemaChanges(name, changes, notices);
    const spec = partitioning === undefined ? undefined : setPartitioning(partitioning);
    await updateTableMetadata(this.catalog, this.write.io, { namespace: [schema], name }, (doc) => {
      let next = changes.length === 0 ? doc : columns(doc);
      for (const [key, value] of properties) next = setProperty(key, value)(next);
      return spec === undefined ? next : spec(next);
    });
    await this.refresh(true);
    return notices;
  }

  /**
   * DROP TABLE: the catalog pointer goes; the files stay (Iceberg's default for catalogs that do not own
   * the storage) unless `purge`, which then deletes every file the table's metadata references. Returns
   * false when the table does not exist.
   */
  async dropTable(schema: string, name: string, purge = false): Promise<boolean> {
    const id = { namespace: [schema], name };
    let purgeFrom: { md: Awaited<ReturnType<typeof loadTableMetadata>>; location: string } | null = null;
    if (purge) {
      if (this.write === undefined) throw new Error('Iceberg tables are read-only in this server');
      if (!(await this.catalog.tableExists(id))) return false;
      const { metadataLocation } = await this.catalog.loadTableLocation(id);
      purgeFrom = { md: await loadTableMetadata(this.io, metadataLocation), location: metadataLocation };
    }
    const dropped = await this.catalog.dropTable(id);
    if (dropped && purgeFrom !== null && this.write !== undefined) await purgeTableFiles(this.write.io, purgeFrom.md, purgeFrom.location);
    await this.refresh(true);
    return dropped;
  }

  /** ALTER TABLE … RENAME TO / SET SCHEMA: the catalog moves the pointer; files and location stay */
  async renameTable(schema: string, name: string, toSchema: string, toName: string): Promise<void> {
    if (this.write === undefined) throw new Error('Iceberg tables are read-only in this server');
    await this.catalog.renameTable({ namespace: [schema], name }, { namespace: [toSchema], name: toName });
    await this.refresh(true);
  }

  /** COMMENT ON COLUMN: the field's doc, in a new current schema */
  async commentOnColumn(schema: string, name: string, column: string, comment: string | undefined): Promise<void> {
    if (this.write === undefined) throw new Error('Iceberg tables are read-only in this server');
    await updateTableMetadata(this.catalog, this.write.io, { namespace: [schema], name }, setColumnDoc(column, comment));
    await this.refresh(true);
  }

  /** stored foreign keys → ForeignKeyInfo; ones whose referenced table or columns are gone are left out */
  private foreignKeys(text: string | undefined, columnNames: readonly string[], identity: string): ForeignKeyInfo[] {
    if (text === undefined) return [];
    const out: ForeignKeyInfo[] = [];
    for (const fk of JSON.parse(text) as StoredForeignKey[]) {
      const ref = this.db.findRelation(fk.refSchema, fk.refTable);
      if (ref === undefined) continue;
      const columns = fk.columns.map((n) => columnNames.indexOf(n));
      const refColumns = fk.refColumns.map((n) => ref.source.columns.findIndex((c) => c.name === n));
      if ([...columns, ...refColumns].some((i) => i < 0)) continue;
      out.push({ oid: this.db.stableOids.assign(`${identity}/fk/${fk.name}`), name: fk.name, columns, refRelationOid: ref.oid, refColumns });
    }
    return out;
  }

  /** loads the table when its metadata pointer moved; a broken table is logged, not fatal: left out, or a BrokenTableSource when its metadata file is missing/damaged */
  private async refreshTable(schema: string, id: TableIdentifier, key: string): Promise<boolean> {
    let location: string | undefined;
    try {
      const { metadataLocation } = await this.catalog.loadTableLocation(id);
      location = metadataLocation;
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
      const identity = this.oidsOf(key, schema, id.name, source.metadata.tableUuid);
      const oid = this.db.stableOids.assign(identity);
      const rowTypeOid = this.db.stableOids.assign(`${identity}/rowtype`);
      // identifier fields (lakegate writes a PRIMARY KEY as them) show as the primary key
      const pk = source.schema.identifierFieldIds.map((fid) => source.schema.fields.findIndex((f) => f.id === fid));
      const fks = this.foreignKeys(source.metadata.properties[FOREIGN_KEYS_PROPERTY], source.columns.map((c) => c.name), identity);
      const indexes = this.indexes(source.metadata.properties[INDEXES_PROPERTY], source.columns.map((c) => c.name), identity);
      const info: RelationInfo = {
        oid, schema, schemaOid: this.db.schema(schema)!.oid, name: id.name, kind: 'r', persistence: 'p', rowTypeOid, source,
        ...(pk.length > 0 && pk.every((i) => i >= 0) ? {
          primaryKey: pk, primaryKeyName: primaryKeyName(source.metadata, id.name),
          ...(keysVerifiedAt(source.metadata, source.schema, source.snapshot) ? {} : { primaryKeyUnverified: true }),
        } : {}),
        ...(fks.length > 0 ? { foreignKeys: fks } : {}),
        ...(indexes.length > 0 ? { indexes } : {}),
        ...(source.metadata.properties['comment'] === undefined ? {} : { comment: source.metadata.properties['comment'] }),
      };
      this.db.replaceRelation(info);
      this.loaded.set(key, { metadataLocation, identity, oid, rowTypeOid });
      return true;
    } catch (e) {
      this.log(`cannot load Iceberg table ${schema}.${id.name}: ${e instanceof Error ? e.message : String(e)}`);
      // a missing or damaged metadata file: keep the table listed; reading it raises the error naming the file
      if (location === undefined || !BrokenTableSource.isFileFailure(e)) return false;
      // without readable metadata there is no uuid: a table seen before keeps its identity, a new one goes by name
      const identity = this.loaded.get(key)?.identity ?? this.oidsOf(key, schema, id.name, null);
      const oid = this.db.stableOids.assign(identity);
      const rowTypeOid = this.db.stableOids.assign(`${identity}/rowtype`);
      this.db.replaceRelation({ oid, schema, schemaOid: this.db.schema(schema)!.oid, name: id.name, kind: 'r', persistence: 'p', rowTypeOid, source: new BrokenTableSource(e) });
      this.loaded.set(key, { metadataLocation: location, identity, oid, rowTypeOid });
      return true;
    }
  }
}
