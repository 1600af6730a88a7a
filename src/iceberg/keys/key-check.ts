/**
 * KeyCheck: PRIMARY KEY and UNIQUE enforcement for one statement's new rows on an Iceberg table (INSERT,
 * COPY FROM, and the new rows of UPDATE / MERGE / ON CONFLICT DO UPDATE). The writer hands it every batch
 * before writing it (observe); at commit time, on the metadata the commit is built on, validate() looks
 * the new keys up among the live rows (existing-keys.ts: pruned by bounds and statistics, key columns
 * only) minus the rows the statement deletes, and raises PostgreSQL's 23505 for the first new row whose
 * key an earlier new row or a live row has. The commit loops call validate() again on every attempt whose
 * table moved (another writer's files — append-commit.ts / row-delta-commit.ts), so of two sessions adding
 * one key at once, the later commit fails. Checked at statement end, as the SQL standard's immediate
 * constraints (PostgreSQL checks row by row: an UPDATE swapping keys may fail there and succeed here).
 * @see https://www.postgresql.org/docs/15/ddl-constraints.html#DDL-CONSTRAINTS-UNIQUE-CONSTRAINTS
 */
import type { Batch } from '../../common/batch.ts';
import { pgError } from '../../common/errors.ts';
import { textOut } from '../../common/pgtypes/text-io.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { IcebergIO } from '../io.ts';
import type { Schema } from '../spec/schema.ts';
import { findSnapshot, type TableMetadata } from '../spec/table-metadata.ts';
import { KeyCollector } from './key-collector.ts';
import { probeExistingKeys, type KeyProbeStats, type ProbeOptions } from './existing-keys.ts';
import { uniqueKeysOf } from './unique-keys.ts';
import { noteViolatingRow } from './violating-row.ts';

export class KeyCheck {
  private readonly collectors: KeyCollector[];
  /** the snapshot the last validate() read (undefined: none yet); null = the table had none */
  private validatedSnapshot: bigint | null | undefined = undefined;
  /** what the last probe read */
  lastProbe: KeyProbeStats | null = null;

  private constructor(private readonly io: IcebergIO, private readonly relation: { readonly schema: string; readonly name: string }, collectors: KeyCollector[]) {
    this.collectors = collectors;
  }

  /** a check for the table's keys, or null when it has none (then nothing is collected or read) */
  static of(io: IcebergIO, md: TableMetadata, schema: Schema, relation: { readonly schema: string; readonly name: string }): KeyCheck | null {
    const keys = uniqueKeysOf(md, schema, relation.name);
    return keys.length === 0 ? null : new KeyCheck(io, relation, keys.map((k) => new KeyCollector(k)));
  }

  /** a batch of new table rows (columns in schema order), before it is written */
  observe(b: Batch): void {
    for (const c of this.collectors) c.add(b);
  }

  /**
   * 23505 unless every new key is new to the statement and to `md`'s current snapshot (minus `deleted` rows);
   * a snapshot validated already is not read again
   */
  async validate(md: TableMetadata, options: ProbeOptions = {}): Promise<void> {
    const snapshotId = findSnapshot(md, null)?.snapshotId ?? null;
    if (this.validatedSnapshot === snapshotId) return;
    this.lastProbe = await probeExistingKeys(this.io, md, this.collectors, options);
    this.validatedSnapshot = snapshotId;
    let worst: { row: number; keys: KeyCollector } | null = null;
    for (const c of this.collectors) {
      const row = c.firstViolation();
      if (row >= 0 && (worst === null || row < worst.row)) worst = { row, keys: c };
    }
    if (worst !== null) throw noteViolatingRow(uniqueViolation(this.relation, worst.keys, worst.row), worst.row);
  }
}

/** a column name as pg_get_indexdef_columns prints it (quoted unless a plain lower-case identifier) */
function quoteIdent(name: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

/** PostgreSQL's _bt_check_unique error: `Key (a, b)=(1, x) already exists.` (also staged-keys.ts) */
export function uniqueViolation(relation: { readonly schema: string; readonly name: string }, keys: KeyCollector, row: number): Error {
  const cols = keys.key.columns;
  const values = keys.valuesAt(row);
  const text = values.map((v, k) => textOut(cols[k]!.sqlType.oid, v)).join(', ');
  return pgError(SqlState.unique_violation, `duplicate key value violates unique constraint "${keys.key.name}"`, {
    detail: `Key (${cols.map((c) => quoteIdent(c.field.name)).join(', ')})=(${text}) already exists.`,
    schema: relation.schema, table: relation.name, constraint: keys.key.name,
  });
}
