/**
 * pg_type facts pg_attribute / information_schema need for any type OID, with safe defaults for OIDs the
 * type registry does not know, plus the regproc OID of a named I/O function (pg_type.typinput & co.).
 */
import { typeInfo, type PgTypeInfo } from '../common/pgtypes/index.ts';
import { PG_IO_PROCS } from './data/pg-io-procs.ts';
import { otherType } from './other-types.ts';

export interface TypeFacts {
  readonly typname: string;
  readonly typlen: number;
  readonly typbyval: boolean;
  readonly typalign: string;
  readonly typstorage: string;
  readonly typcollation: number;
  readonly typtype: string;
  readonly typelem: number;
  readonly isArray: boolean;
  readonly info: PgTypeInfo | undefined;
}

export function typeFacts(oid: number): TypeFacts {
  const t = typeInfo(oid);
  if (t === undefined) {
    // PostgreSQL's types the registry lacks (point, tsvector …) have their pg_type rows
    const o = otherType(oid);
    if (o !== undefined) {
      return {
        typname: o['typname'] as string, typlen: o['typlen'] as number, typbyval: o['typbyval'] as boolean,
        typalign: o['typalign'] as string, typstorage: o['typstorage'] as string, typcollation: o['typcollation'] as number,
        typtype: o['typtype'] as string, typelem: o['typelem'] as number,
        isArray: o['typelem'] !== 0 && o['typlen'] === -1 && o['typinput'] === ioProcOidByName('array_in'), info: undefined,
      };
    }
    return { typname: String(oid), typlen: -1, typbyval: false, typalign: 'i', typstorage: 'x', typcollation: 0, typtype: 'b', typelem: 0, isArray: false, info: undefined };
  }
  return {
    typname: t.typname, typlen: t.typlen, typbyval: t.typbyval, typalign: t.typalign, typstorage: t.typstorage,
    typcollation: t.typcollation, typtype: t.typtype, typelem: t.typelem,
    isArray: t.typelem !== 0 && t.typlen === -1 && t.typinput === 'array_in', info: t,
  };
}

const ioProcOid = new Map<string, number>();
for (const [oid, name] of PG_IO_PROCS) if (!ioProcOid.has(name)) ioProcOid.set(name, oid);

/** OID of a type I/O / support function by name ('-' or unknown → 0, which regproc prints as '-'). */
export function ioProcOidByName(name: string): number {
  return ioProcOid.get(name) ?? 0;
}

/**
 * pg_type.typsubscript: jsonb_subscript_handler for jsonb, array_subscript_handler for varlena arrays (int2vector
 * and oidvector included), raw_array_subscript_handler for fixed-length ones (name, point).
 */
export function subscriptHandlerOid(t: PgTypeInfo): number {
  if (t.typname === 'jsonb') return 6098;
  if (t.typelem === 0) return 0;
  return t.typlen === -1 ? 6179 : 6180;
}
