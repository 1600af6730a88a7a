/**
 * pg_depend: the dependency rows PostgreSQL records for what lakegate has: relation → schema, default →
 * column, primary-key constraint → columns, pk index → constraint, and a view's _RETURN rule → the view and
 * the relations its SELECT reads (column-level detail is not kept: refobjsubid 0).
 * @see https://www.postgresql.org/docs/15/catalog-pg-depend.html
 */
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import type { CatalogRow } from '../system-table.ts';
import { attrDefOid, ClassOid, PLPGSQL_LANGUAGE_OID, viewRuleOid } from '../well-known-oids.ts';
import { PLPGSQL_PROCS } from './pg-proc.ts';
import { constraintIndexes } from './relation-indexes.ts';
import { viewReferences } from './view-references.ts';
import { identityOf, sequenceOwnershipDepends } from './pg-sequence.ts';

/** pg_extension.oid of plpgsql (static-catalogs.ts) */
const PLPGSQL_EXTENSION_OID = 13559;

const dep = (classid: number, objid: number, refclassid: number, refobjid: number, refobjsubid: number, deptype: string): CatalogRow =>
  ({ classid, objid, objsubid: 0, refclassid, refobjid, refobjsubid, deptype });

function isSystem(schemaOid: number): boolean {
  return schemaOid === 11 || schemaOid === 13207;
}

export function* pgDependRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const rel of snap.relations) {
    if (isSystem(rel.schemaOid)) continue;
    yield dep(ClassOid.pg_class, rel.oid, ClassOid.pg_namespace, rel.schemaOid, 0, 'n');
    const cols = snap.columnsOf(rel);
    for (let i = 0; i < cols.length; i++) {
      if (cols[i]!.defaultExpr !== undefined && identityOf(snap, rel, cols[i]!.name) === '') yield dep(ClassOid.pg_attrdef, attrDefOid(rel.oid, i + 1), ClassOid.pg_class, rel.oid, i + 1, 'a');
    }
    if ((rel.kind === 'v' || rel.kind === 'm') && rel.viewDefinition !== undefined) {
      const rule = viewRuleOid(rel.oid);
      yield dep(ClassOid.pg_rewrite, rule, ClassOid.pg_class, rel.oid, 0, 'i');
      yield dep(ClassOid.pg_rewrite, rule, ClassOid.pg_class, rel.oid, 0, 'n');
      const seen = new Set<number>([rel.oid]);
      for (const ref of viewReferences(rel.viewDefinition)) {
        const target = ref.schema === undefined ? snap.lookupRelation(ref.name) : snap.findRelation(ref.schema, ref.name);
        if (target === undefined || seen.has(target.oid)) continue;
        seen.add(target.oid);
        yield dep(ClassOid.pg_rewrite, rule, ClassOid.pg_class, target.oid, 0, 'n');
      }
    }
  }
  // initdb's plpgsql extension: its language and handler functions are members ('e'), which \dx+ lists
  for (const [oid] of PLPGSQL_PROCS) yield dep(ClassOid.pg_proc, oid, ClassOid.pg_extension, PLPGSQL_EXTENSION_OID, 0, 'e');
  yield dep(ClassOid.pg_language, PLPGSQL_LANGUAGE_OID, ClassOid.pg_extension, PLPGSQL_EXTENSION_OID, 0, 'e');
  // OWNED BY: a serial column's sequence goes with it ('a'), an identity's is part of it ('i')
  for (const o of sequenceOwnershipDepends(snap)) yield dep(ClassOid.pg_class, o.seq, ClassOid.pg_class, o.table, o.attnum, o.deptype);
  for (const pk of constraintIndexes(snap)) {
    // initdb's objects (the catalogs' own keys) are pinned: PostgreSQL records no dependencies for them
    if (pk.rel.oid < 16384) continue;
    for (const n of pk.attnums) yield dep(ClassOid.pg_constraint, pk.constraintOid, ClassOid.pg_class, pk.rel.oid, n, 'a');
    yield dep(ClassOid.pg_class, pk.oid, ClassOid.pg_constraint, pk.constraintOid, 0, 'i');
  }
}
