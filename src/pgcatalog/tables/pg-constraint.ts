/**
 * pg_index, pg_constraint, pg_attrdef and pg_rewrite: the objects PostgreSQL keeps beside a relation.
 * Primary keys (RelationInfo.primaryKey) become a unique btree index plus a contype 'p' constraint, UNIQUE
 * constraints (IndexInfo.constraint) a contype 'u' constraint on their index, foreign keys
 * (RelationInfo.foreignKeys) a contype 'f' constraint; column
 * defaults (ColumnDef.defaultExpr) become pg_attrdef rows whose adbin is the SQL text (pg_get_expr returns it);
 * each view gets its _RETURN rule.
 * @see https://www.postgresql.org/docs/15/catalog-pg-constraint.html
 */
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import type { CatalogRow } from '../system-table.ts';
import { typeFacts } from '../type-facts.ts';
import { attrDefOid, viewRuleOid } from '../well-known-oids.ts';
import { foreignKeyConstraints } from './foreign-key-constraints.ts';
import { pgDomainConstraintRows } from './information-schema-domains.ts';
import { constraintIndexes, constraintTypeOf, relationIndexes } from './relation-indexes.ts';
import { defaultBtreeOpclass } from './static-catalogs.ts';
import { int2Array, int2vector, oidvector } from './vectors.ts';
import { identityOf, shownDefault } from './pg-sequence.ts';

export function* pgIndexRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const pk of relationIndexes(snap)) {
    const cols = snap.columnsOf(pk.rel);
    const types = pk.attnums.map((n) => cols[n - 1]?.type.oid ?? 0);
    yield {
      indexrelid: pk.oid, indrelid: pk.rel.oid, indnatts: pk.attnums.length, indnkeyatts: pk.attnums.length,
      indisunique: pk.unique !== false, indnullsnotdistinct: false, indisprimary: pk.primary !== false, indisexclusion: false, indimmediate: true,
      indisclustered: false, indisvalid: true, indcheckxmin: false, indisready: true, indislive: true,
      indisreplident: false, indkey: int2vector(pk.attnums),
      indcollation: oidvector(types.map((t) => typeFacts(t).typcollation)),
      indclass: oidvector(types.map(defaultBtreeOpclass)), indoption: int2vector(pk.attnums.map(() => 0)),
      indexprs: null, indpred: null,
    };
  }
}

export function* pgConstraintRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const pk of constraintIndexes(snap)) {
    yield {
      oid: pk.constraintOid, conname: pk.name, connamespace: pk.rel.schemaOid, contype: constraintTypeOf(pk), condeferrable: false,
      condeferred: false, convalidated: true, conrelid: pk.rel.oid, contypid: 0, conindid: pk.oid, conparentid: 0,
      confrelid: 0, confupdtype: ' ', confdeltype: ' ', confmatchtype: ' ', conislocal: true, coninhcount: 0,
      connoinherit: true, conkey: int2Array(pk.attnums), confkey: null, conpfeqop: null, conppeqop: null,
      conffeqop: null, confdelsetcols: null, conexclop: null, conbin: null,
    };
  }
  for (const c of foreignKeyConstraints(snap)) {
    yield {
      oid: c.fk.oid, conname: c.fk.name, connamespace: c.rel.schemaOid, contype: 'f', condeferrable: false,
      condeferred: false, convalidated: true, conrelid: c.rel.oid, contypid: 0, conindid: c.indexOid, conparentid: 0,
      confrelid: c.ref.oid, confupdtype: 'a', confdeltype: 'a', confmatchtype: 's', conislocal: true, coninhcount: 0,
      connoinherit: true, conkey: int2Array(c.attnums), confkey: int2Array(c.refAttnums), conpfeqop: null, conppeqop: null,
      conffeqop: null, confdelsetcols: null, conexclop: null, conbin: null,
    };
  }
  yield* pgDomainConstraintRows();
}

export function* pgAttrdefRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const rel of snap.relations) {
    const cols = snap.columnsOf(rel);
    for (let i = 0; i < cols.length; i++) {
      const def = cols[i]!.defaultExpr;
      if (def !== undefined && identityOf(snap, rel, cols[i]!.name) === '') yield { oid: attrDefOid(rel.oid, i + 1), adrelid: rel.oid, adnum: i + 1, adbin: shownDefault(snap, def) };
    }
  }
}

export function* pgRewriteRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const rel of snap.relations) {
    if (rel.kind !== 'v' && rel.kind !== 'm') continue;
    yield {
      oid: viewRuleOid(rel.oid), rulename: '_RETURN', ev_class: rel.oid, ev_type: '1', ev_enabled: 'O',
      is_instead: true, ev_qual: '<>', ev_action: rel.viewDefinition ?? '',
    };
  }
}
