/**
 * SqlSequenceStore: the sequences of Iceberg namespaces, in a lakegate-owned table `lakegate_sequences` beside
 * JdbcCatalog's `iceberg_tables` in the embedded catalog database (SQLite or PostgreSQL), keyed like it by
 * (catalog_name, namespace, name). Iceberg Java and PyIceberg ignore the extra table. Every change — a
 * nextval's block included — is one read-modify-write in one write-locked transaction (SQLite BEGIN
 * IMMEDIATE, PostgreSQL's catalog advisory lock), so processes never hand out the same value. Values are
 * stored as text, as JdbcCatalog binds everything, and computed with bigint here. The table is created on
 * first use, the way the catalog creates its own tables.
 *
 * Like PostgreSQL (SEQ_LOG_VALS), a nextval that must write logs LOG_AHEAD more values than it takes: the
 * process hands those out from memory (no write transaction, no fsync) for as long as the catalog
 * database's change token shows nobody else committed, or a plain read shows the row still as this
 * process left it. A crash skips at most LOG_AHEAD values — PostgreSQL's gap after a crash; a clean
 * shutdown writes the unused rest back (`close`).
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

/** values a write logs beyond those it hands out (PostgreSQL's SEQ_LOG_VALS) */
export const LOG_AHEAD = 32;

/** values this process logged in the database but has not handed out */
interface Reserve {
  next: bigint;
  remaining: number;
  readonly increment: bigint;
  /** the row as this process wrote it (toRow, joined): anything else means another writer */
  readonly row: string;
  /** the change token when the row was last seen as `row`; undefined until it is read back once */
  token: number | string | undefined;
}

export class SqlSequenceStore implements SequenceStore {
  readonly persistent = true;
  private tableReady = false;
  private readonly reserves = new Map<string, Reserve>();

  constructor(private readonly dialect: SqlDialect, private readonly catalogName: string) {}

  async list(): Promise<readonly StoredSequence[]> {
    if (!(await this.hasTable())) return [];
    const rows = await withCatalogErrors(this.dialect, 'list sequences', () => this.dialect.query(LIST_SQL, [this.catalogName]));
    return rows.map(fromRow);
  }

  async create(seq: StoredSequence): Promise<boolean> {
    this.reserves.delete(reserveKey(seq.namespace, seq.name));
    await this.ensureTable();
    return withCatalogErrors(this.dialect, 'create a sequence', () => this.dialect.transaction(async (tx) => {
      if ((await tx.query(GET_SQL, [this.catalogName, seq.namespace, seq.name])).length > 0) return false;
      await tx.execute(INSERT_SQL, [this.catalogName, ...toRow(seq)]);
      return true;
    }, { exclusive: true }));
  }

  async drop(namespace: string, name: string): Promise<boolean> {
    this.reserves.delete(reserveKey(namespace, name));
    if (!(await this.hasTable())) return false;
    return (await withCatalogErrors(this.dialect, 'drop a sequence', () => this.dialect.execute(DELETE_SQL, [this.catalogName, namespace, name]))) > 0;
  }

  async update(namespace: string, name: string, fn: (seq: StoredSequence) => StoredSequence): Promise<StoredSequence> {
    // setval / ALTER / RENAME start from the value last handed out, as PostgreSQL's do (log_cnt back to 0)
    const r = this.reserves.get(reserveKey(namespace, name));
    this.reserves.delete(reserveKey(namespace, name));
    await this.ensureTable();
    return withCatalogErrors(this.dialect, 'alter a sequence', () => this.dialect.transaction(async (tx) => {
      const next = fn(asHandedOut(await this.get(tx, namespace, name), r));
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

  /** the row; its last value the one last handed out when this process holds values logged ahead */
  async read(namespace: string, name: string): Promise<StoredSequence> {
    await this.ensureTable();
    const seq = await withCatalogErrors(this.dialect, 'read a sequence', () => this.get(this.dialect, namespace, name));
    return asHandedOut(seq, this.reserves.get(reserveKey(namespace, name)));
  }

  /** from this process's logged-ahead values when they are still valid (synchronously), else one write */
  allocate(namespace: string, name: string, count: number): SequenceAllocation | Promise<SequenceAllocation> {
    const key = reserveKey(namespace, name);
    const r = this.reserves.get(key);
    if (r === undefined) return this.allocateLogged(namespace, name, count);
    const token = this.dialect.changeToken?.();
    if (token !== undefined && token === r.token) return takeReserved(this.reserves, key, r, count);
    return this.stillOurs(namespace, name, r, token).then((ours) => {
      // `r` may have been used up or dropped meanwhile by another session's nextval
      if (ours && this.reserves.get(key) === r) return takeReserved(this.reserves, key, r, count);
      if (this.reserves.get(key) === r) this.reserves.delete(key);
      return this.allocateLogged(namespace, name, count);
    });
  }

  /** values logged ahead and not handed out (the `log_cnt` column of `SELECT * FROM s`) */
  loggedAhead(namespace: string, name: string): number {
    return this.reserves.get(reserveKey(namespace, name))?.remaining ?? 0;
  }

  /** a clean shutdown: the unused logged values go back, so the next server continues without a gap */
  async close(): Promise<void> {
    const reserves = [...this.reserves.entries()];
    this.reserves.clear();
    for (const [key, r] of reserves) {
      const [namespace, name] = key.split('\u0000') as [string, string];
      await withCatalogErrors(this.dialect, 'give back sequence values', () => this.dialect.transaction(async (tx) => {
        const row = (await tx.query(GET_SQL, [this.catalogName, namespace, name]))[0];
        // only a row nobody changed since this process wrote it
        if (row === undefined || rowText(fromRow(row)) !== r.row) return;
        await tx.execute(SET_STATE_SQL, [String(r.next - r.increment), 'true', this.catalogName, namespace, name]);
      }, { exclusive: true })).catch(() => undefined);
    }
  }

  /** the row still as this process wrote it: then `token` (read before the row) marks the reserve valid */
  private async stillOurs(namespace: string, name: string, r: Reserve, token: number | string | undefined): Promise<boolean> {
    if (token === undefined) return false;
    const row = (await withCatalogErrors(this.dialect, 'read a sequence', () => this.dialect.query(GET_SQL, [this.catalogName, namespace, name])))[0];
    if (row === undefined || rowText(fromRow(row)) !== r.row) return false;
    r.token = token;
    return true;
  }

  private async allocateLogged(namespace: string, name: string, count: number): Promise<SequenceAllocation> {
    await this.ensureTable();
    // without a change token every nextval would have to read the row anyway: no values logged ahead
    const ahead = this.dialect.changeToken === undefined ? 0 : LOG_AHEAD;
    const key = reserveKey(namespace, name);
    const { allocation, row } = await withCatalogErrors(this.dialect, 'advance a sequence', () => this.dialect.transaction(async (tx) => {
      const seq = await this.get(tx, namespace, name);
      const { allocation, state } = allocateValues(name, seq.options, seq.state, count + ahead);
      await tx.execute(SET_STATE_SQL, [String(state.lastValue), String(state.isCalled), this.catalogName, namespace, name]);
      return { allocation, row: rowText({ ...seq, state }) };
    }, { exclusive: true }));
    const handed = Math.min(count, allocation.count);
    if (allocation.count > handed) {
      this.reserves.set(key, {
        next: allocation.first + BigInt(handed) * allocation.increment,
        remaining: allocation.count - handed,
        increment: allocation.increment,
        row,
        token: undefined,
      });
    } else this.reserves.delete(key);
    return { first: allocation.first, count: handed, increment: allocation.increment };
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

const reserveKey = (namespace: string, name: string): string => `${namespace}\u0000${name}`;

/** up to `count` values from the reserve (at least one: a reserve is never empty) */
function takeReserved(reserves: Map<string, Reserve>, key: string, r: Reserve, count: number): SequenceAllocation {
  const n = Math.min(count, r.remaining);
  const first = r.next;
  r.next += BigInt(n) * r.increment;
  r.remaining -= n;
  if (r.remaining === 0) reserves.delete(key);
  return { first, count: n, increment: r.increment };
}

/** `seq` as PostgreSQL shows it: last_value the last value handed out, when the row is as this process logged it */
function asHandedOut(seq: StoredSequence, r: Reserve | undefined): StoredSequence {
  if (r === undefined || rowText(seq) !== r.row) return seq;
  return { ...seq, state: { lastValue: r.next - r.increment, isCalled: true } };
}

/** the stored row as one string: what a reserve compares to tell whether another writer changed it */
const rowText = (s: StoredSequence): string => toRow(s).join('\u0000');

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
