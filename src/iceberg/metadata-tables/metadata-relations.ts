/**
 * Name resolution for metadata tables: `"t$files"` is not a catalog relation (pg_class and \dt never list
 * it); a CatalogView synthesizes a RelationInfo on lookup when the base `t` is an Iceberg table. OIDs are
 * allocated once per (base relation OID, kind) — by the caller's function of that key — and kept for the database's lifetime, so `'"t$files"'::regclass`
 * and the binder's column table OIDs stay stable across statements and sessions.
 */
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import { IcebergTableSource } from '../iceberg-table-source.ts';
import { METADATA_TABLE_KINDS, MetadataTableSource, splitMetadataTableName, type MetadataTableKind } from './metadata-table-source.ts';

interface Allocated {
  readonly oid: number;
  readonly rowTypeOid: number;
  readonly baseOid: number;
  readonly kind: MetadataTableKind;
}

export class MetadataTableOids {
  private readonly byKey = new Map<string, Allocated>();
  private readonly byOid = new Map<number, Allocated>();

  /** `allocOid(key)`: key is `<baseOid>$<kind>` for the table, with `/rowtype` appended for its row type */
  constructor(private readonly allocOid: (key: string) => number) {}

  get(baseOid: number, kind: MetadataTableKind): Allocated {
    const key = `${baseOid}$${kind}`;
    let a = this.byKey.get(key);
    if (a === undefined) {
      a = { oid: this.allocOid(key), rowTypeOid: this.allocOid(`${key}/rowtype`), baseOid, kind };
      this.byKey.set(key, a);
      this.byOid.set(a.oid, a);
    }
    return a;
  }

  /** an OID handed out earlier, or undefined */
  lookup(oid: number): Allocated | undefined {
    return this.byOid.get(oid);
  }
}

const registries = new WeakMap<object, MetadataTableOids>();

/** the OID registry of one database (keyed by its catalog object) */
export function metadataTableOids(database: object, allocOid: (key: string) => number): MetadataTableOids {
  let r = registries.get(database);
  if (r === undefined) {
    r = new MetadataTableOids(allocOid);
    registries.set(database, r);
  }
  return r;
}

/** A RelationInfo for `base$kind`, or undefined when `base` is not an Iceberg table. */
export function metadataRelation(base: RelationInfo, kind: MetadataTableKind, oids: MetadataTableOids): RelationInfo | undefined {
  if (!(base.source instanceof IcebergTableSource)) return undefined;
  const { oid, rowTypeOid } = oids.get(base.oid, kind);
  return {
    oid, rowTypeOid, schema: base.schema, schemaOid: base.schemaOid, name: `${base.name}$${kind}`, kind: 'r', persistence: 'p',
    source: new MetadataTableSource(kind, base.source),
    comment: `Iceberg ${kind} metadata of ${base.schema}.${base.name}`,
  };
}

/**
 * findRelation's fallback: `name` = `<base>$<kind>` whose base resolves through `find` in the same schema.
 */
export function findMetadataRelation(
  schema: string, name: string, find: (schema: string, name: string) => RelationInfo | undefined, oids: MetadataTableOids,
): RelationInfo | undefined {
  const split = splitMetadataTableName(name);
  if (split === null) return undefined;
  const base = find(schema, split.base);
  return base === undefined ? undefined : metadataRelation(base, split.kind, oids);
}

/**
 * relationByOid's fallback for OIDs handed out by `oids`; with `candidates` (when OIDs derive from the base
 * OID and kind, so another process may have handed this one out) also the metadata tables of those relations.
 */
export function metadataRelationByOid(
  oid: number, byOid: (oid: number) => RelationInfo | undefined, oids: MetadataTableOids, candidates?: () => Iterable<RelationInfo>,
): RelationInfo | undefined {
  let a = oids.lookup(oid);
  if (a === undefined && candidates !== undefined) {
    for (const base of candidates()) {
      if (!(base.source instanceof IcebergTableSource)) continue;
      for (const kind of METADATA_TABLE_KINDS) oids.get(base.oid, kind);
    }
    a = oids.lookup(oid);
  }
  if (a === undefined) return undefined;
  const base = byOid(a.baseOid);
  return base === undefined ? undefined : metadataRelation(base, a.kind, oids);
}
