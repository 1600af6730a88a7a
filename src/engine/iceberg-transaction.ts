/**
 * IcebergTransaction: what makes INSERT / COPY / UPDATE / DELETE on Iceberg tables inside BEGIN … COMMIT
 * (or an extended-protocol pipeline up to Sync) one unit, as PostgreSQL users expect. Inside a transaction
 * block, the tables a session writes commit to a *staging* catalog: each statement still writes its data
 * files and a new metadata file (built on the transaction's own previous one), but the catalog pointer
 * does not move — only this session sees the staged metadata. COMMIT moves every staged pointer from the
 * metadata the transaction started from to its last one, in one catalog transaction when the catalog can
 * (the embedded SQL catalog: several tables all or none); ROLLBACK [TO SAVEPOINT] forgets staged metadata
 * (its files stay as orphans, like a lost commit's).
 * If another writer committed to a staged table meanwhile, COMMIT does what Iceberg's own commit retry
 * does (iceberg/commit/rebase-staged.ts): it re-applies the transaction's snapshots, in order and with
 * their ids, onto the table's current metadata, after Iceberg's validations against what committed since
 * (iceberg/commit/staged-conflicts.ts). So two sessions that INSERT both commit, as in PostgreSQL; a
 * DELETE and a concurrent INSERT both commit (the new rows stay); new PRIMARY KEY / UNIQUE keys commit
 * next to concurrently added ones when file bounds or, failing those, the keys read from the concurrently
 * added files show them distinct (iceberg/keys/staged-keys.ts), and a key both added is 23505 as in
 * PostgreSQL; row changes that collide — a row both deleted or updated, a file the other removed, a
 * deletion vector on the same data file (v3), equality deletes, a changed table definition — are 40001
 * `could not serialize access due to concurrent update` with nothing of the transaction visible (the
 * client retries it: PostgreSQL's REPEATABLE READ answer, as the block's statements saw the old rows). A
 * swap lost during COMMIT re-reads and re-applies again, at once the first time (the winner is complete:
 * iceberg/commit/swap-retry.ts), a bounded number of times. Outside a block the same race is not an error:
 * an autocommit row change re-runs on the new snapshot (engine/autocommit-retry.ts, READ COMMITTED).
 * DDL (CREATE / ALTER / DROP TABLE, COMMENT) still commits at once, so a block that altered a table it
 * wrote, or whose table another session altered, is 40001.
 */
import type { RelationInfo } from '../catalog/catalog-view.ts';
import type { IcebergCatalog, TableIdentifier, TableLocation, TableCommitChange } from '../catalog/iceberg/index.ts';
import { commitConflict } from '../catalog/iceberg/catalog-errors.ts';
import { IcebergTableSource, loadTableMetadata, type IcebergIO, type IcebergWriteIO } from '../iceberg/index.ts';
import { rebaseStagedSnapshots } from '../iceberg/commit/rebase-staged.ts';
import { serializationFailure, withCommitRetries } from '../iceberg/commit/snapshot-commit.ts';
import { catalogSwap, markSwapLost } from '../iceberg/commit/swap-retry.ts';
import { markStagingCatalog } from '../iceberg/commit/commit-turns.ts';

interface Staged {
  readonly id: TableIdentifier;
  /** the pointer when the transaction first wrote the table (what COMMIT swaps from) */
  readonly base: string;
  /** the transaction's latest metadata file */
  readonly current: string;
  /** a source over `current`, writing through the staging catalog */
  readonly source: IcebergTableSource;
}

const keyOf = (id: TableIdentifier): string => `${id.namespace.join('.')}\u0000${id.name}`;

export class IcebergTransaction {
  private staged = new Map<string, Staged>();
  /** mirror source → the same snapshot writing through staging (kept so plan caches stay warm) */
  private readonly rewired = new WeakMap<IcebergTableSource, IcebergTableSource>();
  /** the staging writer of each table this transaction may write, for the sources of staged snapshots */
  private readonly writers = new Map<string, NonNullable<IcebergTableSource['writer']>>();
  readonly staging: IcebergCatalog;

  constructor(
    private readonly real: IcebergCatalog,
    private readonly io: IcebergIO,
    /** after a staged commit: bound plans that hold the older source must be re-bound */
    private readonly onStagedCommit: () => void,
    /** writes the re-applied snapshots of a table that moved (default: the staged table's writer's IO) */
    private readonly writeIO?: IcebergWriteIO,
  ) {
    this.staging = stagingCatalog(real, this);
  }

  get hasWrites(): boolean {
    return this.staged.size > 0;
  }

  stagedLocation(id: TableIdentifier): string | undefined {
    return this.staged.get(keyOf(id))?.current;
  }

  /** a staged statement's commit: checks it builds on what this transaction last saw, then stages `next` */
  async stage(id: TableIdentifier, expected: string, next: string): Promise<void> {
    const key = keyOf(id);
    const prior = this.staged.get(key);
    if (prior !== undefined && prior.current !== expected) throw commitConflict(id, expected);
    if (prior === undefined) {
      // the first write of this table in the transaction: it must start from the committed pointer
      const { metadataLocation } = await this.real.loadTableLocation(id);
      if (metadataLocation !== expected) throw commitConflict(id, expected);
    }
    const metadata = await loadTableMetadata(this.io, next);
    const template = prior?.source.writer ?? this.writers.get(key);
    const source = new IcebergTableSource(this.io, metadata, template === undefined ? {} : { writer: template });
    this.staged.set(key, { id, base: prior?.base ?? expected, current: next, source });
    this.onStagedCommit();
  }

  /**
   * The relation as this session sees it inside the block: the staged snapshot if it wrote the table,
   * else the committed one — either way writing through the staging catalog.
   */
  overlay(info: RelationInfo): RelationInfo {
    const source = info.source;
    if (!(source instanceof IcebergTableSource) || source.writer === undefined) return info;
    const staged = this.staged.get(keyOf(source.writer.id));
    if (staged !== undefined) return { ...info, source: staged.source };
    let rewired = this.rewired.get(source);
    if (rewired === undefined) {
      const writer = { ...source.writer, catalog: this.staging, afterCommit: async () => {} };
      this.writers.set(keyOf(source.writer.id), writer);
      rewired = new IcebergTableSource(source.io, source.metadata, { writer });
      this.rewired.set(source, rewired);
    }
    return { ...info, source: rewired };
  }

  /** savepoints: the staged pointers at that moment */
  mark(): ReadonlyMap<string, Staged> {
    return new Map(this.staged);
  }

  restore(mark: ReadonlyMap<string, Staged>): void {
    this.staged = new Map(mark);
    this.onStagedCommit();
  }

  /**
   * COMMIT: every staged pointer moves, atomically where the catalog can; then forget. A table another
   * writer committed to meanwhile gets the transaction's snapshots re-applied onto its current metadata
   * (iceberg/commit/rebase-staged.ts: validated, else 40001); a lost race re-reads and tries again.
   */
  async commit(): Promise<void> {
    const staged = [...this.staged.values()];
    this.staged = new Map();
    if (staged.length === 0) return;
    const done = new Set<Staged>();
    await withCommitRetries(async (attempt) => {
      const changes: { s: Staged; change: TableCommitChange }[] = [];
      for (const s of staged) {
        if (done.has(s)) continue;
        const id = s.id;
        // the first attempt swaps from the base unread (the usual case: nobody else wrote the table)
        const metadataLocation = attempt === 0 ? s.base : (await this.real.loadTableLocation(id)).metadataLocation;
        const io = s.source.writer?.io ?? this.writeIO;
        // no IO to re-apply with: retrying cannot help, so a final 40001
        if (metadataLocation !== s.base && io === undefined) throw serializationFailure(`Table ${id.name} changed since the transaction wrote it and cannot be re-applied here.`, true);
        const newMetadataLocation = metadataLocation === s.base
          ? s.current
          : await rebaseStagedSnapshots(io!, { name: id.name, schema: id.namespace.join('.'), base: s.base, staged: s.current, current: metadataLocation }, attempt);
        changes.push({ s, change: { id, expectedMetadataLocation: metadataLocation, newMetadataLocation } });
      }
      if (this.real.commitTables !== undefined) {
        // a lost swap: the winner is complete, so the retry re-applies onto it at once (swap-retry.ts)
        await this.real.commitTables(changes.map((c) => c.change)).catch((e: unknown) => { throw markSwapLost(e); });
        return;
      }
      // a catalog without multi-table commits: table by table, a retry redoing only the tables not yet swapped
      for (const { s, change } of changes) {
        await catalogSwap(this.real, change.id, change.expectedMetadataLocation, change.newMetadataLocation);
        done.add(s);
      }
    });
  }

  rollback(): void {
    this.staged = new Map();
  }
}

/** the real catalog, except that commits stage in the transaction and loads see staged pointers */
function stagingCatalog(real: IcebergCatalog, tx: IcebergTransaction): IcebergCatalog {
  // marked: a staged row delta publishes nothing, so it takes no commit turn (commit-turns.ts)
  return markStagingCatalog({
    name: real.name,
    listNamespaces: (parent) => real.listNamespaces(parent),
    createNamespace: (ns, props) => real.createNamespace(ns, props),
    dropNamespace: (ns) => real.dropNamespace(ns),
    namespaceExists: (ns) => real.namespaceExists(ns),
    loadNamespaceProperties: (ns) => real.loadNamespaceProperties(ns),
    updateNamespaceProperties: (ns, removals, updates) => real.updateNamespaceProperties(ns, removals, updates),
    listTables: (ns) => real.listTables(ns),
    tableExists: (id) => real.tableExists(id),
    async loadTableLocation(id): Promise<TableLocation> {
      const staged = tx.stagedLocation(id);
      return staged === undefined ? real.loadTableLocation(id) : { metadataLocation: staged, previousMetadataLocation: null };
    },
    createTable: (id, location) => real.createTable(id, location),
    registerTable: (id, location) => real.registerTable(id, location),
    dropTable: (id) => real.dropTable(id),
    renameTable: (from, to) => real.renameTable(from, to),
    commitTable: (id, expected, next) => tx.stage(id, expected, next),
    close: async () => {},
  });
}
