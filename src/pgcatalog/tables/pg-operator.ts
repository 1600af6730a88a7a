/**
 * pg_operator and pg_cast, generated from the function registry's operators and casts.
 * @see https://www.postgresql.org/docs/15/catalog-pg-operator.html
 * @see https://www.postgresql.org/docs/15/catalog-pg-cast.html
 */
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import { castLinks, operatorLinks } from '../operator-procs.ts';
import { registryLists } from '../registry-lists.ts';
import { declaredReturnType, operatorOid } from '../routine-oids.ts';
import type { CatalogRow } from '../system-table.ts';
import { BOOTSTRAP_SUPERUSER_OID, NamespaceOid, synthesizedCastOid } from '../well-known-oids.ts';
import { registryRoutines } from './pg-proc.ts';

export function* pgOperatorRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const ops = registryLists(snap).operators;
  const routines = registryRoutines(snap);
  const seen = new Set<number>();
  const listed = new Set(ops.map((o) => operatorOid(o, snap.functions)));
  for (const op of ops) {
    const oid = operatorOid(op, snap.functions);
    if (seen.has(oid)) continue;
    seen.add(oid);
    const com = op.commutator === undefined ? undefined : ops.find((o) => o.name === op.commutator && o.left === op.right && o.right === op.left);
    const neg = op.negator === undefined ? undefined : ops.find((o) => o.name === op.negator && o.left === op.left && o.right === op.right);
    const args = op.left === 0 ? [op.right] : [op.left, op.right];
    const links = operatorLinks(op, routines, snap);
    yield {
      oid, oprname: op.name, oprnamespace: NamespaceOid.pg_catalog, oprowner: BOOTSTRAP_SUPERUSER_OID,
      oprkind: op.left === 0 ? 'l' : 'b', oprcanmerge: links.canMerge, oprcanhash: links.canHash, oprleft: op.left,
      oprright: op.right, oprresult: declaredReturnType(op.returns, args),
      // a commutator the registry does not declare: PostgreSQL's, when that operator is listed too
      oprcom: com !== undefined ? operatorOid(com, snap.functions) : listed.has(links.commutator) ? links.commutator : 0, oprnegate: neg === undefined ? 0 : operatorOid(neg, snap.functions),
      oprcode: links.code, oprrest: links.rest, oprjoin: links.join,
    };
  }
}

/** an OID below FirstNormalObjectId: a type PostgreSQL's initdb creates */
const isBuiltinType = (oid: number): boolean => oid < 16384;

export function* pgCastRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const routines = registryRoutines(snap);
  const seen = new Set<string>();
  for (const c of registryLists(snap).casts) {
    const key = `${c.source}:${c.target}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // PostgreSQL's OID and function for the casts it has (castfunc is 0 for binary-coercible and I/O casts)
    const pg = castLinks(c, routines, snap);
    // between two built-in types PostgreSQL lists only its own casts: the registry's extra ones (text → regproc &
    // co. through I/O, int2vector → int2[]) are coercions PostgreSQL makes without a pg_cast row, so \dC hides them
    if (pg === undefined && isBuiltinType(c.source) && isBuiltinType(c.target)) continue;
    yield {
      oid: pg?.oid ?? synthesizedCastOid(c.source, c.target), castsource: c.source, casttarget: c.target, castfunc: c.method === 'f' ? pg?.func ?? 0 : 0,
      castcontext: c.context, castmethod: c.method,
    };
  }
}
