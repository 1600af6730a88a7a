/**
 * StableOids: OIDs for Iceberg objects (namespaces as schemas, tables, their row types, indexes and foreign
 * keys) derived from the object's identity instead of a per-process counter, so every lakegate process
 * serving the same warehouse — and the same process after a restart — reports the same pg_class /
 * pg_namespace / pg_type OIDs and RowDescription table OIDs. Drivers (pgJDBC, psqlODBC, Npgsql) cache
 * OIDs across connections; with one process per core the next connection may land elsewhere.
 *
 * Identity: a table is its Iceberg `table-uuid` (so RENAME and SET SCHEMA keep the OID and DROP + CREATE of
 * the same name gives a new one, as in PostgreSQL; a v1 table without a uuid falls back to its name); a
 * namespace is its name. The OID is FNV-1a of the identity folded into [STABLE_OID_BASE, +STABLE_OID_SPAN),
 * below 2^31 (RowDescription carries the table OID as an Int32) and clear of the other synthetic ranges in
 * pgcatalog/well-known-oids.ts. The span is 250 M so that primaryKeyIndexOid (relOid·2 mod 500 M) stays
 * distinct for distinct relation OIDs.
 *
 * Collisions (two identities, one slot) probe `identity#1`, `identity#2`… The holder keeps its slot, so
 * which identity probes depends on who was seen first: the mirror assigns in a fixed order (removals
 * first, then tables sorted by schema and name), which makes every process that sees the same catalog
 * agree. Only a collision whose first holder was dropped before a restart can move the prober's OID.
 */
import { stableHash } from '../pgcatalog/well-known-oids.ts';

export const STABLE_OID_BASE = 1_600_000_000;
export const STABLE_OID_SPAN = 250_000_000;

/** the un-probed slot of an identity (probe n > 0 hashes `identity#n`) */
export function stableOidSlot(identity: string, probe = 0): number {
  return STABLE_OID_BASE + (stableHash(probe === 0 ? identity : `${identity}#${probe}`) % STABLE_OID_SPAN);
}

export class StableOids {
  private readonly byIdentity = new Map<string, number>();
  private readonly byOid = new Map<number, string>();

  constructor(private readonly onCollision: (identity: string, holder: string) => void = () => {}) {}

  /** the OID of `identity`, assigning it (with probing) on first use */
  assign(identity: string): number {
    const held = this.byIdentity.get(identity);
    if (held !== undefined) return held;
    for (let probe = 0; ; probe++) {
      const oid = stableOidSlot(identity, probe);
      const holder = this.byOid.get(oid);
      if (holder === undefined) {
        this.byIdentity.set(identity, oid);
        this.byOid.set(oid, identity);
        return oid;
      }
      if (probe === 0) this.onCollision(identity, holder);
    }
  }

  has(identity: string): boolean {
    return this.byIdentity.has(identity);
  }

  /** frees the identity's slot (the object is gone), so a fresh process and this one probe alike */
  release(identity: string): void {
    const oid = this.byIdentity.get(identity);
    if (oid === undefined) return;
    this.byIdentity.delete(identity);
    this.byOid.delete(oid);
  }

  /** releases every identity starting with `prefix` (a table's row type, indexes and foreign keys) */
  releasePrefix(prefix: string): void {
    for (const identity of [...this.byIdentity.keys()]) if (identity.startsWith(prefix)) this.release(identity);
  }
}

const METADATA_OID_BASE = 1_850_000_000;
const METADATA_OID_PAIRS = 75_000_000;

/**
 * OIDs of Iceberg metadata tables (`"t$files"`): a pure function of `<baseOid>$<kind>` (`/rowtype` appended
 * for the row type) in a range of their own, so any process resolves one another handed out. Pairs (even:
 * relation, odd: row type); two metadata tables sharing a pair is left unresolved (~n²/1.5e8 for n in use).
 */
export function metadataTableOid(key: string): number {
  const rowType = key.endsWith('/rowtype');
  const base = rowType ? key.slice(0, -'/rowtype'.length) : key;
  return METADATA_OID_BASE + 2 * (stableHash(base) % METADATA_OID_PAIRS) + (rowType ? 1 : 0);
}

export function isMetadataTableOid(oid: number): boolean {
  return oid >= METADATA_OID_BASE && oid < METADATA_OID_BASE + 2 * METADATA_OID_PAIRS;
}
