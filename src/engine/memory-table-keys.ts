/**
 * PRIMARY KEY and UNIQUE on tables held in memory (session temp tables, `public` tables without a warehouse):
 * the keys come from the relation's catalog entry (RelationInfo.primaryKey / primaryKeyName / unique indexes),
 * so a rolled-back CREATE INDEX or ALTER TABLE leaves no key behind. MemoryTable calls checkMemoryKeys before
 * its new contents replace the old ones: the first new row whose key a kept row or an earlier new row has
 * raises PostgreSQL's 23505, and nothing changes. NULLs never conflict (NULLS DISTINCT). Keys are compared as
 * PostgreSQL's `=` of the column type would: char(n) without trailing blanks, numeric by value, -0 = 0.
 * The same key text finds duplicates for CREATE UNIQUE INDEX / ADD CONSTRAINT (statements/unique-index-build.ts).
 * @see https://www.postgresql.org/docs/15/ddl-constraints.html#DDL-CONSTRAINTS-UNIQUE-CONSTRAINTS
 */
import type { Batch } from '../common/batch.ts';
import { pgError } from '../common/errors.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { textOut } from '../common/pgtypes/text-io.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { RelationInfo } from '../catalog/catalog-view.ts';
import type { ColumnDef } from '../catalog/table-source.ts';
import { noteViolatingRow } from '../iceberg/keys/violating-row.ts';

/** one unique constraint or unique index of a relation, in PostgreSQL's checking order */
export interface RelationKey {
  readonly name: string;
  readonly primary: boolean;
  /** 0-based column positions */
  readonly columns: readonly number[];
}

/** the primary key first, then unique indexes in creation order */
export function relationKeys(rel: RelationInfo): RelationKey[] {
  const keys: RelationKey[] = [];
  if (rel.primaryKey !== undefined && rel.primaryKey.length > 0) {
    keys.push({ name: rel.primaryKeyName ?? `${rel.name}_pkey`.slice(0, 63), primary: true, columns: rel.primaryKey });
  }
  for (const ix of rel.indexes ?? []) if (ix.unique) keys.push({ name: ix.name, primary: false, columns: ix.columns });
  return keys;
}

/** one key column value as text: values `=` calls equal give equal text */
function partText(v: unknown, oid: number): string {
  switch (typeof v) {
    case 'bigint': return v.toString();
    case 'number': return Object.is(v, -0) ? '0' : String(v);
    case 'string': return oid === Oid.bpchar ? v.replace(/ +$/, '') : v;
    case 'boolean': return v ? 't' : 'f';
    default:
      if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
      // numeric keeps its display scale: 1.0 = 1.00
      if (Numeric.isNumeric(v)) return v.toString().replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
      return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x));
  }
}

/** the key of row i of a batch as text, or null when a key column is NULL */
export function keyTextAt(b: Batch, i: number, columns: readonly number[], oids: readonly number[]): string | null {
  let s = '';
  for (let k = 0; k < columns.length; k++) {
    const v = b.columns[columns[k]!]?.[i] ?? null;
    if (v === null) return null;
    s += (k === 0 ? '' : '\u0000') + partText(v, oids[k]!);
  }
  return s;
}

/** `Key (a, b)=(1, x)` as PostgreSQL's DETAIL prints it (BuildIndexValueDescription) */
export function keyDescription(names: readonly string[], oids: readonly number[], values: readonly unknown[]): string {
  const quote = (n: string): string => (/^[a-z_][a-z0-9_$]*$/.test(n) ? n : `"${n.replace(/"/g, '""')}"`);
  return `Key (${names.map(quote).join(', ')})=(${values.map((v, k) => textOut(oids[k]!, v)).join(', ')})`;
}

/**
 * 23505 unless every key of `added` is new to `kept` and to the rows of `added` before it. `known`: the key
 * sets of `kept` from the last check (by key signature), extended in place — after a failure the caller drops
 * them; returns the key sets of `kept` + `added`.
 */
export function checkMemoryKeys(rel: RelationInfo, columns: readonly ColumnDef[], kept: readonly Batch[], added: readonly Batch[], known: Map<string, Set<string>> = new Map()): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const key of relationKeys(rel)) {
    const oids = key.columns.map((c) => columns[c]?.type.oid ?? 0);
    const signature = `${key.columns.join(',')}:${oids.join(',')}`;
    let seen = known.get(signature);
    if (seen === undefined) {
      seen = new Set<string>();
      for (const b of kept) {
        for (let i = 0; i < b.length; i++) {
          const k = keyTextAt(b, i, key.columns, oids);
          if (k !== null) seen.add(k);
        }
      }
    }
    out.set(signature, seen);
    let row = 0;
    for (const b of added) {
      for (let i = 0; i < b.length; i++, row++) {
        const k = keyTextAt(b, i, key.columns, oids);
        if (k === null) continue;
        if (!seen.has(k)) { seen.add(k); continue; }
        const values = key.columns.map((c) => b.columns[c]![i]);
        throw noteViolatingRow(pgError(SqlState.unique_violation, `duplicate key value violates unique constraint "${key.name}"`, {
          detail: `${keyDescription(key.columns.map((c) => columns[c]!.name), oids, values)} already exists.`,
          schema: rel.schema, table: rel.name, constraint: key.name,
        }), row);
      }
    }
  }
  return out;
}
