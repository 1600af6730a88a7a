/**
 * How an error message names a type lakegate cannot convert: format_type's name when the registry knows the
 * OID (`int4range`), else the OID itself (a type only pg_type lists, or none at all).
 */
import { formatType } from './format-type.ts';

export function typeLabel(oid: number): string {
  const name = formatType(oid);
  return name === '???' ? `OID ${oid}` : name;
}
