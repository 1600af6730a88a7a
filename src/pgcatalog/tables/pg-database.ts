/**
 * pg_database (one row per served database, UTF8, C.UTF-8) and the role catalogs pg_authid, pg_roles,
 * pg_user and pg_auth_members. The session user is the bootstrap superuser (OID 10), so it owns everything.
 * @see https://www.postgresql.org/docs/15/catalog-pg-database.html
 */
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import type { CatalogRow } from '../system-table.ts';
import { BOOTSTRAP_SUPERUSER_OID, DEFAULT_TABLESPACE_OID, UTF8_ENCODING } from '../well-known-oids.ts';

/**
 * datfrozenxid / relfrozenxid: lakegate has no tuples to freeze, so every database and table counts as frozen up
 * to the current transaction, and age(datfrozenxid) is 0 (PostgreSQL's fresh cluster shows a few dozen). A fixed
 * xid would give pgAdmin's and DataGrip's age() an arbitrary value: lakegate's transaction ids come from the clock
 * (2^20 per millisecond), so their low 32 bits, the xid, wrap every few seconds.
 */
export function frozenXid(snap: CatalogSnapshot): number {
  const xid = Number(snap.session.currentTransactionId() & 0xffffffffn);
  // FirstNormalTransactionId: 0, 1 and 2 are not transaction ids
  return xid < 3 ? 3 : xid;
}

export function* pgDatabaseRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const datfrozenxid = frozenXid(snap);
  for (const db of snap.databases()) {
    yield {
      oid: db.oid, datname: db.name, datdba: BOOTSTRAP_SUPERUSER_OID, encoding: UTF8_ENCODING, datlocprovider: 'c',
      datistemplate: false, datallowconn: true, datconnlimit: -1, datfrozenxid, datminmxid: 1,
      dattablespace: DEFAULT_TABLESPACE_OID, datcollate: 'C.UTF-8', datctype: 'C.UTF-8', daticulocale: null,
      datcollversion: null, datacl: null,
    };
  }
}

export function* pgAuthidRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const r of snap.roles()) {
    yield {
      oid: r.oid, rolname: r.name, rolsuper: r.superuser, rolinherit: true, rolcreaterole: r.superuser,
      rolcreatedb: r.superuser, rolcanlogin: true, rolreplication: r.superuser, rolbypassrls: r.superuser,
      rolconnlimit: -1, rolpassword: null, rolvaliduntil: null,
    };
  }
}

export function* pgRolesRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const r of pgAuthidRows(snap)) {
    const { rolpassword: _p, ...rest } = r;
    yield { ...rest, rolpassword: '********', rolconfig: null };
  }
}

export function* pgUserRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const r of snap.roles()) {
    yield {
      usename: r.name, usesysid: r.oid, usecreatedb: r.superuser, usesuper: r.superuser, userepl: r.superuser,
      usebypassrls: r.superuser, passwd: '********', valuntil: null, useconfig: null,
    };
  }
}
