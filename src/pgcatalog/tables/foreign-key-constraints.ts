/**
 * Foreign keys (RelationInfo.foreignKeys, metadata only) as the catalogs show them: pg_constraint rows of
 * contype 'f' and pg_get_constraintdef's `FOREIGN KEY (a) REFERENCES s.t(b)`. A key whose referenced relation
 * was dropped is not shown.
 */
import type { ForeignKeyInfo, RelationInfo } from '../../catalog/catalog-view.ts';
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import { primaryKeyOf } from './relation-indexes.ts';

export interface ForeignKeyConstraint {
  readonly fk: ForeignKeyInfo;
  readonly rel: RelationInfo;
  readonly ref: RelationInfo;
  /** 1-based */
  readonly attnums: readonly number[];
  readonly refAttnums: readonly number[];
  /** the referenced relation's primary key index when the key references it, else 0 */
  readonly indexOid: number;
  /** the referenced primary key constraint's name and OID (information_schema.referential_constraints) */
  readonly uniqueConstraint: { readonly oid: number; readonly name: string } | null;
}

export function foreignKeyConstraints(snap: CatalogSnapshot): ForeignKeyConstraint[] {
  const out: ForeignKeyConstraint[] = [];
  for (const rel of snap.relations) {
    for (const fk of rel.foreignKeys ?? []) {
      const ref = snap.relationByOid(fk.refRelationOid);
      if (ref === undefined) continue;
      const pk = primaryKeyOf(ref);
      const matchesPk = pk !== undefined && pk.attnums.length === fk.refColumns.length && fk.refColumns.every((c) => pk.attnums.includes(c + 1));
      out.push({
        fk,
        rel,
        ref,
        attnums: fk.columns.map((c) => c + 1),
        refAttnums: fk.refColumns.map((c) => c + 1),
        indexOid: matchesPk ? pk.oid : 0,
        uniqueConstraint: matchesPk ? { oid: pk.constraintOid, name: pk.name } : null,
      });
    }
  }
  return out;
}

/** pg_get_constraintdef: FOREIGN KEY (a, b) REFERENCES t(x, y), the table qualified unless visible on the search_path */
export function foreignKeyDefinition(c: ForeignKeyConstraint, snap: CatalogSnapshot, quote: (s: string) => string): string {
  const cols = snap.columnsOf(c.rel);
  const refCols = snap.columnsOf(c.ref);
  const local = c.attnums.map((n) => quote(cols[n - 1]?.name ?? `?${n}`)).join(', ');
  const remote = c.refAttnums.map((n) => quote(refCols[n - 1]?.name ?? `?${n}`)).join(', ');
  const table = snap.isRelationVisible(c.ref) ? quote(c.ref.name) : `${quote(c.ref.schema)}.${quote(c.ref.name)}`;
  return `FOREIGN KEY (${local}) REFERENCES ${table}(${remote})`;
}
