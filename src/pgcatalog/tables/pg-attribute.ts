/**
 * pg_attribute: the columns of every relation (attnum 1..n), the system columns of tables (ctid … tableoid,
 * negative attnum, as PostgreSQL stores them), and the key columns of primary-key indexes.
 * @see https://www.postgresql.org/docs/15/catalog-pg-attribute.html
 */
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import type { ColumnDef } from '../../catalog/table-source.ts';
import { Oid } from '../../common/pgtypes/index.ts';
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import type { CatalogRow } from '../system-table.ts';
import { domainColumnType } from '../other-types.ts';
import { typeFacts } from '../type-facts.ts';
import { NamespaceOid } from '../well-known-oids.ts';
import { relationIndexes } from './relation-indexes.ts';
import { systemAttributeFactsOf } from '../system-attribute-facts.ts';
import { identityOf } from './pg-sequence.ts';

/** name, attnum, type: PostgreSQL's system columns, in the order pg_attribute lists them */
const SYSTEM_COLUMNS: readonly (readonly [string, number, number])[] = [
  ['tableoid', -6, Oid.oid], ['cmax', -5, Oid.cid], ['xmax', -4, Oid.xid],
  ['cmin', -3, Oid.cid], ['xmin', -2, Oid.xid], ['ctid', -1, Oid.tid],
];

function attributeRow(relOid: number, name: string, attnum: number, typeOid: number, typmod: number, notNull: boolean, hasDef: boolean): CatalogRow {
  const t = typeFacts(typeOid);
  return {
    attrelid: relOid,
    attname: name,
    atttypid: typeOid,
    attstattarget: attnum > 0 ? -1 : 0,
    attlen: t.typlen,
    attnum,
    attndims: t.isArray ? 1 : 0,
    attcacheoff: -1,
    atttypmod: typmod,
    attbyval: t.typbyval,
    attalign: t.typalign,
    attstorage: t.typstorage,
    attcompression: '',
    attnotnull: notNull,
    atthasdef: hasDef,
    atthasmissing: false,
    attidentity: '',
    attgenerated: '',
    attisdropped: false,
    attislocal: true,
    attinhcount: 0,
    attcollation: t.typcollation,
    attacl: null,
    attoptions: null,
    attfdwoptions: null,
    attmissingval: null,
  };
}

function columnRow(relOid: number, col: ColumnDef, attnum: number): CatalogRow {
  return attributeRow(relOid, col.name, attnum, col.type.oid, col.type.typmod, !col.nullable, col.defaultExpr !== undefined);
}

function hasSystemColumns(rel: RelationInfo): boolean {
  return rel.kind === 'r' || rel.kind === 'm' || rel.kind === 'p' || rel.kind === 'S';
}

const systemRows = new WeakMap<RelationInfo, readonly CatalogRow[]>();

function* relationAttributes(snap: CatalogSnapshot, rel: RelationInfo): Iterable<CatalogRow> {
  if (hasSystemColumns(rel)) {
    for (const [name, attnum, typeOid] of SYSTEM_COLUMNS) yield attributeRow(rel.oid, name, attnum, typeOid, -1, true, false);
  }
  const cols = snap.columnsOf(rel);
  const facts = systemAttributeFactsOf(rel.oid);
  for (let i = 0; i < cols.length; i++) {
    let row = columnRow(rel.oid, cols[i]!, i + 1);
    const identity = rel.kind === 'r' ? identityOf(snap, rel, cols[i]!.name) : '';
    if (identity !== '') row = { ...row, attidentity: identity, atthasdef: false };
    if (facts !== undefined) {
      // information_schema's columns are typed with its domains (sql_identifier …), values of their base types
      const domain = rel.schemaOid === NamespaceOid.information_schema ? domainColumnType(rel.oid, i + 1) : undefined;
      yield { ...row, attcollation: facts.collations[i] ?? 0, attndims: facts.ndims[i] ?? 0, ...(domain === undefined ? {} : { atttypid: domain }) };
    }
    else yield rel.kind === 'v' ? { ...row, attndims: 0 } : row;
  }
}

export function* pgAttributeRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const rel of snap.relations) {
    const cached = systemRows.get(rel);
    if (cached !== undefined) {
      yield* cached;
      continue;
    }
    const rows = [...relationAttributes(snap, rel)];
    // system relations never change: keep their rows (keyed by the RelationInfo object itself)
    if (systemAttributeFactsOf(rel.oid) !== undefined) systemRows.set(rel, rows);
    yield* rows;
  }
  for (const pk of relationIndexes(snap)) {
    const cols = snap.columnsOf(pk.rel);
    for (let i = 0; i < pk.attnums.length; i++) {
      const col = cols[pk.attnums[i]! - 1];
      if (col === undefined) continue;
      // an index's attributes are never NOT NULL; name_ops keys are stored as cstring (its opckeytype)
      const row = { ...columnRow(pk.oid, col, i + 1), atthasdef: false, attstattarget: -1, attnotnull: false };
      yield col.type.oid === Oid.name ? { ...row, atttypid: Oid.cstring, attlen: -2 } : row;
    }
  }
}
