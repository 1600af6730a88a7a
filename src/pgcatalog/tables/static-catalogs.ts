/**
 * Catalogs whose rows are fixed facts of a PostgreSQL 15 cluster: pg_am, pg_tablespace, pg_collation (default,
 * C, POSIX), pg_language, pg_extension (plpgsql), pg_available_extensions, pg_range (built-in ranges),
 * pg_opclass and pg_opfamily (all of PostgreSQL's; the default btree classes are what pg_index.indclass refers to).
 * Values copied from PG 15.
 */
import { readFileSync } from 'node:fs';
import type { CatalogRow } from '../system-table.ts';
import { BOOTSTRAP_SUPERUSER_OID, NamespaceOid } from '../well-known-oids.ts';

export function* pgAmRows(): Iterable<CatalogRow> {
  const ams: readonly (readonly [number, string, number, string])[] = [
    [2, 'heap', 3, 't'], [403, 'btree', 330, 'i'], [405, 'hash', 331, 'i'], [783, 'gist', 332, 'i'],
    [2742, 'gin', 333, 'i'], [4000, 'spgist', 334, 'i'], [3580, 'brin', 335, 'i'],
  ];
  for (const [oid, amname, amhandler, amtype] of ams) yield { oid, amname, amhandler, amtype };
}

export function* pgTablespaceRows(): Iterable<CatalogRow> {
  yield { oid: 1663, spcname: 'pg_default', spcowner: BOOTSTRAP_SUPERUSER_OID, spcacl: null, spcoptions: null };
  yield { oid: 1664, spcname: 'pg_global', spcowner: BOOTSTRAP_SUPERUSER_OID, spcacl: null, spcoptions: null };
}

export function* pgCollationRows(): Iterable<CatalogRow> {
  const base = { collnamespace: NamespaceOid.pg_catalog, collowner: BOOTSTRAP_SUPERUSER_OID, collisdeterministic: true, collencoding: -1, colliculocale: null, collversion: null };
  yield { ...base, oid: 100, collname: 'default', collprovider: 'd', collcollate: null, collctype: null };
  yield { ...base, oid: 950, collname: 'C', collprovider: 'c', collcollate: 'C', collctype: 'C' };
  yield { ...base, oid: 951, collname: 'POSIX', collprovider: 'c', collcollate: 'POSIX', collctype: 'POSIX' };
}

export function* pgLanguageRows(): Iterable<CatalogRow> {
  const base = { lanowner: BOOTSTRAP_SUPERUSER_OID, lanacl: null };
  yield { ...base, oid: 12, lanname: 'internal', lanispl: false, lanpltrusted: false, lanplcallfoid: 0, laninline: 0, lanvalidator: 2246 };
  yield { ...base, oid: 13, lanname: 'c', lanispl: false, lanpltrusted: false, lanplcallfoid: 0, laninline: 0, lanvalidator: 2247 };
  yield { ...base, oid: 14, lanname: 'sql', lanispl: false, lanpltrusted: true, lanplcallfoid: 0, laninline: 0, lanvalidator: 2248 };
  yield { ...base, oid: 13563, lanname: 'plpgsql', lanispl: true, lanpltrusted: true, lanplcallfoid: 13560, laninline: 13561, lanvalidator: 13562 };
}

export function* pgExtensionRows(): Iterable<CatalogRow> {
  yield {
    oid: 13559, extname: 'plpgsql', extowner: BOOTSTRAP_SUPERUSER_OID, extnamespace: NamespaceOid.pg_catalog,
    extrelocatable: false, extversion: '1.0', extconfig: null, extcondition: null,
  };
}

export function* pgAvailableExtensionsRows(): Iterable<CatalogRow> {
  yield { name: 'plpgsql', default_version: '1.0', installed_version: '1.0', comment: 'PL/pgSQL procedural language' };
}

export function* pgRangeRows(): Iterable<CatalogRow> {
  // rngtypid, rngsubtype, rngmultitypid, rngsubopc, rngcanonical, rngsubdiff
  const ranges: readonly (readonly [number, number, number, number, number, number])[] = [
    [3904, 23, 4451, 1978, 3914, 3922], [3906, 1700, 4532, 3125, 0, 3924], [3908, 1114, 4533, 3128, 0, 3929],
    [3910, 1184, 4534, 3127, 0, 3930], [3912, 1082, 4535, 3122, 3915, 3925], [3926, 20, 4536, 3124, 3928, 3923],
  ];
  for (const [rngtypid, rngsubtype, rngmultitypid, rngsubopc, rngcanonical, rngsubdiff] of ranges) {
    yield { rngtypid, rngsubtype, rngmultitypid, rngcollation: 0, rngsubopc, rngcanonical, rngsubdiff };
  }
}

/** opclass oid, input type, name, family: PostgreSQL 15's default btree operator classes */
export const DEFAULT_BTREE_OPCLASSES: readonly (readonly [number, number, string, number])[] = [
  [10003, 16, 'bool_ops', 424], [10006, 17, 'bytea_ops', 428], [10007, 18, 'char_ops', 429], [10028, 19, 'name_ops', 1994],
  [3124, 20, 'int8_ops', 1976], [1979, 21, 'int2_ops', 1976], [1978, 23, 'int4_ops', 1976], [3126, 25, 'text_ops', 1994],
  [1981, 26, 'oid_ops', 1989], [10050, 27, 'tid_ops', 2789], [10032, 30, 'oidvector_ops', 1991], [10012, 700, 'float4_ops', 1970],
  [3123, 701, 'float8_ops', 1970], [10047, 790, 'money_ops', 2099], [10024, 829, 'macaddr_ops', 1984], [10015, 869, 'inet_ops', 1974],
  [10004, 1042, 'bpchar_ops', 426], [3122, 1082, 'date_ops', 434], [10038, 1083, 'time_ops', 1996], [3128, 1114, 'timestamp_ops', 434],
  [3127, 1184, 'timestamptz_ops', 434], [10022, 1186, 'interval_ops', 1982], [10041, 1266, 'timetz_ops', 2000], [10002, 1560, 'bit_ops', 423],
  [10043, 1562, 'varbit_ops', 2002], [3125, 1700, 'numeric_ops', 1988], [10034, 2249, 'record_ops', 2994], [10000, 2277, 'array_ops', 397],
  [10065, 2950, 'uuid_ops', 2968], [10067, 3220, 'pg_lsn_ops', 3253], [10069, 3500, 'enum_ops', 3522], [10088, 3802, 'jsonb_ops', 4033],
  [10076, 3831, 'range_ops', 3901], [10053, 5069, 'xid8_ops', 5067],
];

/** Default btree opclass for a column type (varchar uses text_ops, as PostgreSQL does); 0 if none. */
export function defaultBtreeOpclass(typeOid: number): number {
  const t = typeOid === 1043 ? 25 : typeOid;
  return DEFAULT_BTREE_OPCLASSES.find((o) => o[1] === t)?.[0] ?? 0;
}

interface OpclassesJson {
  /** oid, opcmethod, opcname, opcnamespace, opcfamily, opcintype, opcdefault, opckeytype */
  readonly opclasses: readonly (readonly [number, number, string, number, number, number, boolean, number])[];
  /** oid, opfmethod, opfname, opfnamespace */
  readonly opfamilies: readonly (readonly [number, number, string, number])[];
}

let opclassData: OpclassesJson | undefined;

/** every operator class and family of PostgreSQL 15 (data/pg-opclasses.json, testing/generate-pg15-opclasses.mjs) */
function opclasses(): OpclassesJson {
  opclassData ??= JSON.parse(readFileSync(new URL('../data/pg-opclasses.json', import.meta.url), 'utf8')) as OpclassesJson;
  return opclassData;
}

/** pg_opclass: PostgreSQL 15's operator classes in its row order (DEFAULT_BTREE_OPCLASSES are among them) */
export function* pgOpclassRows(): Iterable<CatalogRow> {
  for (const [oid, opcmethod, opcname, opcnamespace, opcfamily, opcintype, opcdefault, opckeytype] of opclasses().opclasses) {
    yield { oid, opcmethod, opcname, opcnamespace, opcowner: BOOTSTRAP_SUPERUSER_OID, opcfamily, opcintype, opcdefault, opckeytype };
  }
}

/** pg_opfamily: PostgreSQL 15's operator families (pg_amop / pg_amproc stay empty) */
export function* pgOpfamilyRows(): Iterable<CatalogRow> {
  for (const [oid, opfmethod, opfname, opfnamespace] of opclasses().opfamilies) {
    yield { oid, opfmethod, opfname, opfnamespace, opfowner: BOOTSTRAP_SUPERUSER_OID };
  }
}
