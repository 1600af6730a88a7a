/**
 * pg_type: every built-in type of the type registry and PostgreSQL's others (other-types.ts), plus the composite row
 * type of each relation (typtype 'c', typrelid = the relation) as PostgreSQL creates one per table and view. Regproc columns
 * hold OIDs of the PostgreSQL I/O functions (listed in pg_proc too).
 * @see https://www.postgresql.org/docs/15/catalog-pg-type.html
 */
import { readFileSync } from 'node:fs';
import { allTypes, typeInfo, type PgTypeInfo } from '../../common/pgtypes/index.ts';
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import type { CatalogRow } from '../system-table.ts';
import { otherTypeRows } from '../other-types.ts';
import { ioProcOidByName, subscriptHandlerOid } from '../type-facts.ts';
import { BOOTSTRAP_SUPERUSER_OID, rowTypeArrayOid } from '../well-known-oids.ts';

function typanalyze(t: PgTypeInfo): number {
  if (t.typinput === 'array_in') return ioProcOidByName('array_typanalyze');
  if (t.typtype === 'r') return ioProcOidByName('range_typanalyze');
  return 0;
}

function builtinRow(t: PgTypeInfo): CatalogRow {
  return {
    oid: t.oid, typname: t.typname, typnamespace: t.typnamespace, typowner: BOOTSTRAP_SUPERUSER_OID,
    typlen: t.typlen, typbyval: t.typbyval, typtype: t.typtype, typcategory: t.typcategory,
    typispreferred: t.typispreferred, typisdefined: t.typisdefined, typdelim: t.typdelim, typrelid: t.typrelid,
    typsubscript: subscriptHandlerOid(t), typelem: t.typelem, typarray: t.typarray,
    typinput: ioProcOidByName(t.typinput), typoutput: ioProcOidByName(t.typoutput),
    typreceive: ioProcOidByName(t.typreceive), typsend: ioProcOidByName(t.typsend),
    typmodin: ioProcOidByName(t.typmodin), typmodout: ioProcOidByName(t.typmodout), typanalyze: typanalyze(t),
    typalign: t.typalign, typstorage: t.typstorage, typnotnull: t.typnotnull, typbasetype: t.typbasetype,
    typtypmod: t.typtypmod, typndims: t.typndims, typcollation: t.typcollation,
    typdefaultbin: null, typdefault: null, typacl: null,
  };
}

/**
 * pg_type in PostgreSQL's row order: initdb's types as its heap holds them (data/pg-type-order.json, made by
 * testing/generate-pg15-type-order.mjs; clients read pg_type without ORDER BY — pgJDBC's getTypeInfo lists the types
 * in scan order), then the others as made
 */
export function* pgTypeRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const rank = pgTypeRank();
  const rows = [...unorderedTypeRows(snap)];
  const keyed = rows.map((row, i) => ({ row, key: rank.get(row['oid'] as number) ?? rank.size + i }));
  keyed.sort((a, b) => a.key - b.key);
  for (const k of keyed) yield k.row;
}

let typeRank: Map<number, number> | undefined;

function pgTypeRank(): Map<number, number> {
  if (typeRank === undefined) {
    const oids = JSON.parse(readFileSync(new URL('../data/pg-type-order.json', import.meta.url), 'utf8')) as number[];
    typeRank = new Map(oids.map((oid, i) => [oid, i]));
  }
  return typeRank;
}

function* unorderedTypeRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const seen = new Set<number>();
  for (const row of builtinTypeRows()) {
    seen.add(row['oid'] as number);
    yield row;
  }
  for (const rel of snap.relations) {
    // indexes and (since PostgreSQL 14) sequences have no row type
    if (rel.rowTypeOid === 0 || seen.has(rel.rowTypeOid) || rel.kind === 'i' || rel.kind === 'S') continue;
    seen.add(rel.rowTypeOid);
    const typarray = rowTypeArrayOid(rel);
    yield {
      oid: rel.rowTypeOid, typname: rel.name, typnamespace: rel.schemaOid, typowner: BOOTSTRAP_SUPERUSER_OID,
      typlen: -1, typbyval: false, typtype: 'c', typcategory: 'C', typispreferred: false, typisdefined: true,
      typdelim: ',', typrelid: rel.oid, typsubscript: 0, typelem: 0, typarray,
      typinput: ioProcOidByName('record_in'), typoutput: ioProcOidByName('record_out'),
      typreceive: ioProcOidByName('record_recv'), typsend: ioProcOidByName('record_send'),
      typmodin: 0, typmodout: 0, typanalyze: 0, typalign: 'd', typstorage: 'x', typnotnull: false,
      typbasetype: 0, typtypmod: -1, typndims: 0, typcollation: 0, typdefaultbin: null, typdefault: null, typacl: null,
    };
    if (typarray !== 0 && !seen.has(typarray)) {
      seen.add(typarray);
      yield arrayTypeRow(typarray, `_${rel.name}`, rel.schemaOid, rel.rowTypeOid);
    }
  }
}

/** the type registry's types, and the array types it lacks that their typarray names */
export function* builtinTypeRows(): Iterable<CatalogRow> {
  const seen = new Set<number>();
  for (const t of allTypes()) {
    seen.add(t.oid);
    yield builtinRow(t);
  }
  // array types of built-in types the type registry has no array for (regconfig[], jsonpath[], xid8[] …): typarray
  // points at them, as in PostgreSQL
  for (const t of allTypes()) {
    if (t.typarray === 0 || typeInfo(t.typarray) !== undefined || seen.has(t.typarray)) continue;
    seen.add(t.typarray);
    yield { ...arrayTypeRow(t.typarray, `_${t.typname}`, t.typnamespace, t.oid), typalign: t.typalign === 'd' ? 'd' : 'i' };
  }
  // PostgreSQL's other built-in types (point, tsvector, table_am_handler, information_schema's domains …): in the
  // catalog only, so functions and columns that use them print their names
  for (const row of otherTypeRows()) if (!seen.has(row['oid'] as number)) yield row;
}

/** an array type as PostgreSQL's initdb creates it (`_pg_cast`: array_in / array_out, typelem = the element type) */
function arrayTypeRow(oid: number, typname: string, typnamespace: number, typelem: number): CatalogRow {
  return {
    oid, typname, typnamespace, typowner: BOOTSTRAP_SUPERUSER_OID, typlen: -1, typbyval: false, typtype: 'b',
    typcategory: 'A', typispreferred: false, typisdefined: true, typdelim: ',', typrelid: 0,
    typsubscript: ioProcOidByName('array_subscript_handler'), typelem, typarray: 0,
    typinput: ioProcOidByName('array_in'), typoutput: ioProcOidByName('array_out'),
    typreceive: ioProcOidByName('array_recv'), typsend: ioProcOidByName('array_send'), typmodin: 0, typmodout: 0,
    typanalyze: ioProcOidByName('array_typanalyze'), typalign: 'd', typstorage: 'x', typnotnull: false,
    typbasetype: 0, typtypmod: -1, typndims: 0, typcollation: 0, typdefaultbin: null, typdefault: null, typacl: null,
  };
}
