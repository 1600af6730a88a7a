/**
 * pg_type: every built-in type of the type registry, plus the composite row type of each relation
 * (typtype 'c', typrelid = the relation) as PostgreSQL creates one per table and view. Regproc columns
 * hold OIDs of the PostgreSQL I/O functions (listed in pg_proc too).
 * @see https://www.postgresql.org/docs/15/catalog-pg-type.html
 */
import { allTypes, type PgTypeInfo } from '../../common/pgtypes/index.ts';
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import type { CatalogRow } from '../system-table.ts';
import { ioProcOidByName, subscriptHandlerOid } from '../type-facts.ts';
import { BOOTSTRAP_SUPERUSER_OID } from '../well-known-oids.ts';

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

export function* pgTypeRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const seen = new Set<number>();
  for (const t of allTypes()) {
    seen.add(t.oid);
    yield builtinRow(t);
  }
  for (const rel of snap.relations) {
    if (rel.rowTypeOid === 0 || seen.has(rel.rowTypeOid) || rel.kind === 'i') continue;
    seen.add(rel.rowTypeOid);
    yield {
      oid: rel.rowTypeOid, typname: rel.name, typnamespace: rel.schemaOid, typowner: BOOTSTRAP_SUPERUSER_OID,
      typlen: -1, typbyval: false, typtype: 'c', typcategory: 'C', typispreferred: false, typisdefined: true,
      typdelim: ',', typrelid: rel.oid, typsubscript: 0, typelem: 0, typarray: 0,
      typinput: ioProcOidByName('record_in'), typoutput: ioProcOidByName('record_out'),
      typreceive: ioProcOidByName('record_recv'), typsend: ioProcOidByName('record_send'),
      typmodin: 0, typmodout: 0, typanalyze: 0, typalign: 'd', typstorage: 'x', typnotnull: false,
      typbasetype: 0, typtypmod: -1, typndims: 0, typcollation: 0, typdefaultbin: null, typdefault: null, typacl: null,
    };
  }
}
