/**
 * attcollation / attndims of the system relations' columns, which PostgreSQL derives from catalog headers and
 * view expressions (pg_roles.rolname is "C", pg_settings.name is "default"), so pg_attribute can repeat them.
 */
import { SYSTEM_RELATION_DEFS } from './data/system-relation-defs.ts';

/** attcollation / attndims of system relation columns, which PostgreSQL derives from catalog headers and view expressions */
const systemAttributeFacts = new Map<number, { readonly collations: readonly number[]; readonly ndims: readonly number[] }>(
  SYSTEM_RELATION_DEFS.map(([, , oid, , , cols]) => [oid, { collations: cols.map((c) => c[4]), ndims: cols.map((c) => c[5]) }]),
);

export function systemAttributeFactsOf(relOid: number): { readonly collations: readonly number[]; readonly ndims: readonly number[] } | undefined {
  return systemAttributeFacts.get(relOid);
}
