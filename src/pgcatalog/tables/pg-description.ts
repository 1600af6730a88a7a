/**
 * pg_description (comments on relations — objsubid 0 — and their columns — objsubid = attnum —, schemas and
 * registry routines) and pg_shdescription (databases).
 * @see https://www.postgresql.org/docs/15/catalog-pg-description.html
 */
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import { routineOid } from '../routine-oids.ts';
import type { CatalogRow } from '../system-table.ts';
import { ClassOid } from '../well-known-oids.ts';
import { registryRoutines } from './pg-proc.ts';

export function* pgDescriptionRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const s of snap.schemas) {
    if (s.comment !== undefined) yield { objoid: s.oid, classoid: ClassOid.pg_namespace, objsubid: 0, description: s.comment };
  }
  for (const rel of snap.relations) {
    if (rel.comment !== undefined) yield { objoid: rel.oid, classoid: ClassOid.pg_class, objsubid: 0, description: rel.comment };
    const cols = snap.columnsOf(rel);
    for (let i = 0; i < cols.length; i++) {
      const c = cols[i]!.comment;
      if (c !== undefined) yield { objoid: rel.oid, classoid: ClassOid.pg_class, objsubid: i + 1, description: c };
    }
  }
  // the built-in extension and language, as initdb comments them
  yield { objoid: 13559, classoid: ClassOid.pg_extension, objsubid: 0, description: 'PL/pgSQL procedural language' };
  yield { objoid: 13563, classoid: ClassOid.pg_language, objsubid: 0, description: 'PL/pgSQL procedural language' };
  const seen = new Set<number>();
  for (const def of registryRoutines(snap)) {
    const oid = routineOid(def, snap.functions);
    if (def.description === undefined || seen.has(oid)) continue;
    seen.add(oid);
    yield { objoid: oid, classoid: ClassOid.pg_proc, objsubid: 0, description: def.description };
  }
}

export function* pgShdescriptionRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const db of snap.databases()) {
    yield { objoid: db.oid, classoid: ClassOid.pg_database, description: 'default administrative connection database' };
  }
}

/** The comment of an object, as obj_description / col_description look it up. */
export function findDescription(snap: CatalogSnapshot, objoid: number, classoid: number | undefined, objsubid: number): string | null {
  for (const row of pgDescriptionRows(snap)) {
    if (row['objoid'] === objoid && row['objsubid'] === objsubid && (classoid === undefined || row['classoid'] === classoid)) {
      return row['description'] as string;
    }
  }
  return null;
}
