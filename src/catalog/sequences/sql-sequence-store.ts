/**
 * SqlSequenceStore: the sequences of Iceberg namespaces, in a lakegate-owned table `lakegate_sequences` beside
 * JdbcCatalog's `iceberg_tables` in the embedded catalog database (SQLite or PostgreSQL), keyed like it by
 * (catalog_name, namespace, name). Iceberg Java and PyIceberg ignore the extra table. Every change — a
 * nextval's block included — is one read-modify-write in one write-locked transaction (SQLite BEGIN
 * IMMEDIATE, PostgreSQL's catalog advisory lock), so processes never hand out the same value. Values are
 * stored as text, as JdbcCatalog binds everything, and computed with bigint here. The table is created on
 * first use, the way the catalog creates its own tables.
 */
import { pgError } from '../../common/errors.ts';
import { withCatalogErrors } from '../iceberg/catalog-errors.ts';
import type { SqlDialect, SqlExecutor, SqlRow } from '../iceberg/sql-dialect.ts';
import { allocateValues, type SequenceAllocation, type SequenceDataType } from './sequence-options.ts';
import type { SequenceOwner, SequenceStore, StoredSequence } from './sequence-store.ts';

export const SEQUENCES_TABLE_NAME = 'lakegate_sequences';

const CREATE_SQL = `CREATE TABLE ${SEQUENCES_TABLE_NAME} (
  catalog_name VARCHAR(255) NOT NULL,
  sequence_namespace VARCHAR(255) NOT NULL,
  sequence_name VARCHAR(255) NOT NULL,
  data_type VARCHAR(16) NOT NULL,
  start_value VARCHAR(24) NOT NULL,
  increment_by VARCHAR(24) NOT NULL,
  min_value VARCHAR(24) NOT NULL,
  max_value VARCHAR(24) NOT NULL,
  cache_size VARCHAR(24) NOT NULL,
  cycle VARCHAR(5) NOT NULL,
  last_value VARCHAR(24) NOT NULL,
  is_called VARCHAR(5) NOT NULL,
  owned_by VARCHAR(1000),
  PRIMARY KEY (catalog_name, sequence_namespace, sequence_name))`;
const COLUMNS = 'sequence_namespace, sequence_name, data_type, start_value, increment_by, min_value, max_value, cache_size, cycle, last_value, is_called, owned_by';
const LIST_SQL = `SELECT ${COLUMNS} FROM ${SEQUENCES_TABLE_NAME} WHERE catalog_name = ?`;
const GET_SQL = `SELECT ${COLUMNS} FROM ${SEQUENCES_TABLE_NAME} WHERE catalog_name = ? AND sequence_namespace = ? AND sequence_name = ?`;
const INSERT_SQL = `INSERT INTO ${SEQUENCES_TABLE_NAME} (catalog_name, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const DELETE_SQL = `DELETE FROM ${SEQUENCES_TABLE_NAME} WHERE catalog_name = ? AND sequence_namespace = ? AND sequence_name = ?`;
const SET_STATE_SQL = `UPDATE ${SEQUENCES_TABLE_NAME} SET last_value = ?, is_called = ? WHERE catalog_name = ? AND sequence_namespace = ? AND sequence_name = ?`;

export class SqlSequenceStore implements SequenceStore {
  readonly persistent = true;
  private tableReady = false;

  constructor(private readonly dialect: SqlDialect, private readonly catalogName: string) {}

  async list(): Promise<readonly StoredSequence[]> {
    if (!(await this.hasTable())) return [];
    const rows = await withCatalogErrors(this.dialect, 'list sequences', () => this.dialect.query(LIST_SQL, [this.catalogName]));
    return rows.map(fromRow);
  }

  async create(seq: StoredSequence): Promise<boolean> {
    await this.ensureTable();
    return withCatalogErrors(this.dialect, 'create a sequence', () => this.dialect.transaction(async (tx) => {
      if ((await tx.query(GET_SQL, [this.catalogName, seq.namespace, seq.name])).length > 0) return false;
      await tx.execute(INSERT_SQL, [this.catalogName, ...toRow(seq)]);
      return true;
    }, { exclusive: true }));
  }

  async drop(namespace: string, name: string): Promise<boolean> {
    if (!(await this.hasTable())) return false;
    return (await withCatalogErrors(this.dialect, 'drop a sequence', () => this.dialect.execute(DELETE_SQL, [this.catalogName, namespace, name]))) > 0;
  }

  async update(namespace: string, name: string, fn: (seq: StoredSequence) => StoredSequence): Promise<StoredSequence> {
    await this.ensureTable();
    return withCatalogErrors(this.dialect, 'alter a sequence', () => this.dialect.transaction(async (tx) => {
      const next = fn(await this.get(tx, namespace, name));
      if (next.namespace !== namespace || next.name !== name) {
        if ((await tx.query(GET_SQL, [this.catalogName, next.namespace, next.name])).length > 0) {
          throw pgError('42P07', `relation "${next.name}" already exists`);
        }
      }
      await tx.execute(DELETE_SQL, [this.catalogName, namespace, name]);
      await tx.execute(INSERT_SQL, [this.catalogName, ...toRow(next)]);
      return next;
    }, { exclusive: true }));
  }

  async read(namespace: string, name: string): Promise<StoredSequence> {
    await this.ensureTable();
    return withCatalogErrors(this.dialect, 'read a sequence', () => this.get(this.dialect, namespace, name));
  }

  async allocate(namespace: string, name: string, count: number): Promise<SequenceAllocation> {
    await this.ensureTable();
    return withCatalogErrors(this.dialect, 'advance a sequence', () => this.dialect.transaction(async (tx) => {
      const seq = await this.get(tx, namespace, name);
      const { allocation, state } = allocateValues(name, seq.options, seq.state, count);
      await tx.execute(SET_STATE_SQL, [String(state.lastValue), String(state.isCalled), this.catalogName, namespace, name]);
      return allocation;
    }, { exclusive: true }));
  }

  private async get(tx: SqlExecutor, namespace: string, name: string): Promise<StoredSequence> {
    const row = (await tx.query(GET_SQL, [this.catalogName, namespace, name]))[0];
    // dropped through another process since this one listed it
    if (row === undefined) throw pgError('42P01', `relation "${namespace}.${name}" does not exist`);
    return fromRow(row);
  }

  private async hasTable(): Promise<boolean> {
    if (this.tableReady) return true;
    this.tableReady = (await withCatalogErrors(this.dialect, 'look up the sequences table', () => this.dialect.tableColumns(SEQUENCES_TABLE_NAME))) !== null;
    return this.tableReady;
  }

  private async ensureTable(): Promise<void> {
    if (this.tableReady) return;
    await withCatalogErrors(this.dialect, 'create the sequences table', () => this.dialect.transaction(async (tx) => {
      if ((await this.dialect.tableColumns(SEQUENCES_TABLE_NAME, tx)) === null) await tx.execute(CREATE_SQL);
    }, { exclusive: true }));
    this.tableReady = true;
  }
}

function toRow(s: StoredSequence): (string | null)[] {
  const o = s.options;
  return [
    s.namespace, s.name, o.dataType, String(o.start), String(o.increment), String(o.min), String(o.max), String(o.cache), String(o.cycle),
    String(s.state.lastValue), String(s.state.isCalled), s.ownedBy === undefined ? null : JSON.stringify(s.ownedBy),
  ];
}

function fromRow(r: SqlRow): StoredSequence {
  const owned = r.owned_by === null || r.owned_by === undefined ? undefined : (JSON.parse(String(r.owned_by)) as SequenceOwner);
  return {
    namespace: String(r.sequence_namespace),
    name: String(r.sequence_name),
    options: {
      dataType: String(r.data_type) as SequenceDataType,
      start: BigInt(String(r.start_value)),
      increment: BigInt(String(r.increment_by)),
      min: BigInt(String(r.min_value)),
      max: BigInt(String(r.max_value)),
      cache: BigInt(String(r.cache_size)),
      cycle: String(r.cycle) === 'true',
    },
    state: { lastValue: BigInt(String(r.last_value)), isCalled: String(r.is_called) === 'true' },
    ...(owned === undefined ? {} : { ownedBy: owned }),
  };
}
