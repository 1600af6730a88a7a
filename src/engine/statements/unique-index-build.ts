/**
 * The check PostgreSQL's unique index build makes (CREATE UNIQUE INDEX, ALTER TABLE ADD PRIMARY KEY / UNIQUE):
 * the table's rows must not hold a key twice, else 23505 `could not create unique index "i"` with DETAIL
 * `Key (a)=(1) is duplicated.` and nothing is created. The key columns are read through the relation's own
 * scan (Iceberg: only those columns; memory tables: their batches) and their keys kept as text
 * (memory-table-keys.ts); rows with a NULL key column never conflict. Keys of int2 / int4 / int8 columns only are
 * kept as doubles and sorted instead (integer-key-check.ts: TPC-H lineitem's 6 M composite keys at SF 1), back to
 * the text Set from the first key that is not exact as a double.
 * @see https://www.postgresql.org/docs/15/sql-createindex.html
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import type { EngineSession } from '../engine-session.ts';
import { keyDescription, keyTextAt } from '../memory-table-keys.ts';
import { IntegerKeyCheck, integerKeyColumns, type DuplicateKey } from './integer-key-check.ts';

/** 23505 when two rows of `rel` share a key over `columns` (0-based positions) */
export async function checkUniqueIndexBuild(session: EngineSession, rel: RelationInfo, columns: readonly number[], indexName: string): Promise<void> {
  const defs = rel.source.columns;
  const oids = columns.map((c) => defs[c]?.type.oid ?? 0);
  const duplicated = (values: readonly unknown[]): never => {
    throw pgError(SqlState.unique_violation, `could not create unique index "${indexName}"`, {
      detail: `${keyDescription(columns.map((c) => defs[c]!.name), oids, values)} is duplicated.`,
      schema: rel.schema, table: rel.name, constraint: indexName,
    });
  };
  let ints = integerKeyColumns(oids) ? new IntegerKeyCheck(columns, oids) : null;
  const seen = new Set<string>();
  const scan = { ...session.execContext([]).scan, projection: columns };
  for await (const b of rel.source.scan(scan)) {
    if (ints !== null) {
      if (ints.add(b)) continue;
      // a key beyond ±2^53: the keys so far join the text Set, in scan order
      const dup = ints.replayAsText(seen, (key) => keyTextOf(key, columns, oids));
      ints = null;
      if (dup !== null) duplicated(dup);
    }
    for (let i = 0; i < b.length; i++) {
      const k = keyTextAt(b, i, columns, oids);
      if (k === null) continue;
      if (!seen.has(k)) { seen.add(k); continue; }
      duplicated(columns.map((c) => b.columns[c]![i]));
    }
  }
  const dup: DuplicateKey | null = ints?.firstDuplicate() ?? null;
  if (dup !== null) duplicated(dup);
}

/** keyTextAt of one key's values (never NULL: the integer check leaves rows with a NULL key column out) */
function keyTextOf(key: DuplicateKey, columns: readonly number[], oids: readonly number[]): string {
  const cols: unknown[][] = [];
  columns.forEach((c, k) => { cols[c] = [key[k]]; });
  return keyTextAt({ length: 1, columns: cols }, 0, columns, oids) ?? '';
}
