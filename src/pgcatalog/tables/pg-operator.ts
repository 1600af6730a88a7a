/**
 * pg_operator and pg_cast, generated from the function registry's operators and casts.
 * @see https://www.postgresql.org/docs/15/catalog-pg-operator.html
 * @see https://www.postgresql.org/docs/15/catalog-pg-cast.html
 */
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import { declaredReturnType, operatorOid, routineOid } from '../routine-oids.ts';
import type { CatalogRow } from '../system-table.ts';
import { BOOTSTRAP_SUPERUSER_OID, NamespaceOid, synthesizedCastOid } from '../well-known-oids.ts';
import { registryRoutines } from './pg-proc.ts';

export function* pgOperatorRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const ops = snap.functions?.allOperators() ?? [];
  const routines = registryRoutines(snap);
  const seen = new Set<number>();
  for (const op of ops) {
    const oid = operatorOid(op, snap.functions);
    if (seen.has(oid)) continue;
    seen.add(oid);
    const com = op.commutator === undefined ? undefined : ops.find((o) => o.name === op.commutator && o.left === op.right && o.right === op.left);
    const neg = op.negator === undefined ? undefined : ops.find((o) => o.name === op.negator && o.left === op.left && o.right === op.right);
    const args = op.left === 0 ? [op.right] : [op.left, op.right];
    const proc = op.procName === undefined ? undefined : routines.find((r) => r.name === op.procName && r.args.length === args.length && r.args.every((a, i) => a === args[i]));
    yield {
      oid, oprname: op.name, oprnamespace: NamespaceOid.pg_catalog, oprowner: BOOTSTRAP_SUPERUSER_OID,
      oprkind: op.left === 0 ? 'l' : 'b', oprcanmerge: false, oprcanhash: false, oprleft: op.left,
      oprright: op.right, oprresult: declaredReturnType(op.returns, args),
      oprcom: com === undefined ? 0 : operatorOid(com, snap.functions), oprnegate: neg === undefined ? 0 : operatorOid(neg, snap.functions),
      oprcode: proc === undefined ? 0 : routineOid(proc, snap.functions), oprrest: 0, oprjoin: 0,
    };
  }
}

export function* pgCastRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const seen = new Set<string>();
  for (const c of snap.functions?.allCasts() ?? []) {
    const key = `${c.source}:${c.target}`;
    if (seen.has(key)) continue;
    seen.add(key);
    yield {
      oid: synthesizedCastOid(c.source, c.target), castsource: c.source, casttarget: c.target, castfunc: 0,
      castcontext: c.context, castmethod: c.method,
    };
  }
}
