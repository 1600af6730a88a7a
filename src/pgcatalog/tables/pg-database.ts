/**
 * pg_database (one row per served database, UTF8, C.UTF-8) and the role catalogs pg_authid, pg_roles,
 * pg_user and pg_auth_members. The session user is the bootstrap superuser (OID 10), so it owns everything.
 * @see https://www.postgresql.org/docs/15/catalog-pg-database.html
 */
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import type { CatalogRow } from '../system-table.ts';
import { BOOTSTRAP_SUPERUSER_OID, DEFAULT_TABLESPACE_OID, UTF8_ENCODING } from '../well-known-oids.ts';

export function* pgDatabaseRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const db of snap.databases()) {
    yield {
      oid: db.oid, datname: db.name, datdba: BOOTSTRAP_SUPERUSER_OID, encoding: UTF8_ENCODING, datlocprovider: 'c',
      datistemplate: false, datallowconn: true, datconnlimit: -1, datfrozenxid: 716, datminmxid: 1,
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
