/**
 * pg_description (comments on relations — objsubid 0 — and their columns — objsubid = attnum —, schemas and
 * registry routines) and pg_shdescription (databases).
 * @see https://www.postgresql.org/docs/15/catalog-pg-description.html
 */
import { builtinDescription, builtinDescriptionRows } from '../builtin-descriptions.ts';
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import { routineOid } from '../routine-oids.ts';
import type { CatalogRow } from '../system-table.ts';
import { ClassOid } from '../well-known-oids.ts';
import { registryRoutines } from './pg-proc.ts';
import { textSearchDescriptionRows } from './text-search-catalogs.ts';

export function* pgDescriptionRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  // objects commented here; PostgreSQL's built-in comment on the same object is not listed twice
  const own = new Set<string>();
  for (const row of ownDescriptionRows(snap)) {
    own.add(`${row['classoid'] as number}:${row['objoid'] as number}`);
    yield row;
  }
  yield* builtinDescriptionRows(snap, own);
}

/**
 * comments lakegate's own objects carry: COMMENT ON schemas, relations and columns, registry routines; only those
 * of catalog `classoid` when given (obj_description asks per row: no walk over every column for a function)
 */
function* ownDescriptionRows(snap: CatalogSnapshot, classoid?: number): Iterable<CatalogRow> {
  const wants = (c: number): boolean => classoid === undefined || classoid === c;
  if (wants(ClassOid.pg_namespace)) {
    for (const s of snap.schemas) {
      if (s.comment !== undefined) yield { objoid: s.oid, classoid: ClassOid.pg_namespace, objsubid: 0, description: s.comment };
    }
  }
  if (wants(ClassOid.pg_class)) {
    for (const rel of snap.relations) {
      if (rel.comment !== undefined) yield { objoid: rel.oid, classoid: ClassOid.pg_class, objsubid: 0, description: rel.comment };
      const cols = snap.columnsOf(rel);
      for (let i = 0; i < cols.length; i++) {
        const c = cols[i]!.comment;
        if (c !== undefined) yield { objoid: rel.oid, classoid: ClassOid.pg_class, objsubid: i + 1, description: c };
      }
    }
  }
  // the built-in extension and language, as initdb comments them
  if (wants(ClassOid.pg_extension)) yield { objoid: 13559, classoid: ClassOid.pg_extension, objsubid: 0, description: 'PL/pgSQL procedural language' };
  if (wants(ClassOid.pg_language)) {
    for (const [objoid, description] of LANGUAGE_DESCRIPTIONS) yield { objoid, classoid: ClassOid.pg_language, objsubid: 0, description };
  }
  yield* textSearchDescriptionRows(wants);
  if (!wants(ClassOid.pg_proc)) return;
  const seen = new Set<number>();
  for (const def of registryRoutines(snap)) {
    if (def.description === undefined) continue;
    const oid = routineOid(def, snap.functions);
    if (seen.has(oid)) continue;
    seen.add(oid);
    yield { objoid: oid, classoid: ClassOid.pg_proc, objsubid: 0, description: def.description };
  }
}

/** initdb's comments on the languages (psql \dLS shows them) */
const LANGUAGE_DESCRIPTIONS: readonly (readonly [number, string])[] = [
  [12, 'built-in functions'], [13, 'dynamically-loaded C functions'], [14, 'SQL-language functions'],
  [13563, 'PL/pgSQL procedural language'],
];

export function* pgShdescriptionRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const db of snap.databases()) {
    yield { objoid: db.oid, classoid: ClassOid.pg_database, description: 'default administrative connection database' };
  }
}

/** The comment of an object, as obj_description / col_description look it up: its own, else PostgreSQL's built-in one. */
export function findDescription(snap: CatalogSnapshot, objoid: number, classoid: number | undefined, objsubid: number): string | null {
  const own = ownDescriptions(snap, classoid);
  const found = classoid === undefined
    ? [...own.values()].find((byKey) => byKey.has(`${objoid}:${objsubid}`))?.get(`${objoid}:${objsubid}`)
    : own.get(classoid)?.get(`${objoid}:${objsubid}`);
  if (found !== undefined) return found;
  return objsubid === 0 ? builtinDescription(objoid, classoid) ?? null : null;
}

/**
 * own comments by catalog, then `objoid:objsubid`, gathered once per snapshot (one statement) and catalog asked
 * for: obj_description runs per row, and walking the registry's ~1,600 routines per call cost ~90 µs
 */
const ownMemo = new WeakMap<CatalogSnapshot, Map<string, Map<number, Map<string, string>>>>();

function ownDescriptions(snap: CatalogSnapshot, classoid: number | undefined): Map<number, Map<string, string>> {
  let bySnap = ownMemo.get(snap);
  if (bySnap === undefined) ownMemo.set(snap, bySnap = new Map());
  const key = String(classoid ?? 'all');
  let found = bySnap.get(key);
  if (found === undefined) {
    found = new Map();
    for (const row of ownDescriptionRows(snap, classoid)) {
      const cls = row['classoid'] as number;
      let byKey = found.get(cls);
      if (byKey === undefined) found.set(cls, byKey = new Map());
      const k = `${row['objoid'] as number}:${row['objsubid'] as number}`;
      if (!byKey.has(k)) byKey.set(k, row['description'] as string);
    }
    bySnap.set(key, found);
  }
  return found;
}
