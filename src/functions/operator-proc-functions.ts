/**
 * The functions behind operators (pg_operator.oprcode: cash_mul_flt8, biteq …) as callable routines with their
 * PostgreSQL 15 pg_proc OIDs, so that `SELECT cash_mul_flt8('1'::money, 2)` works as in PostgreSQL and pg_proc lists
 * the registry's routine for them (pgcatalog/operator-procs.ts prefers a registry routine of the same signature).
 */
import type { OperatorDef, ScalarFunctionDef } from './registry-types.ts';

/** one routine per operator whose procName has an OID in `oids`; prefix operators take one argument */
export function operatorProcFunctions(ops: readonly OperatorDef[], oids: Readonly<Record<string, number>>): ScalarFunctionDef[] {
  const out: ScalarFunctionDef[] = [];
  for (const op of ops) {
    const oid = op.procName === undefined ? undefined : oids[op.procName];
    if (oid === undefined || op.procName === undefined) continue;
    const prefix = op.left === 0;
    const impl = op.impl;
    out.push({
      kind: 'scalar', oid, name: op.procName, args: prefix ? [op.right] : [op.left, op.right], returns: op.returns, volatility: 'i',
      impl: prefix ? (a, ctx, t) => impl(null, a[0], ctx, t[0]!, t[0]!) : (a, ctx, t) => impl(a[0], a[1], ctx, t[0]!, t[1]!),
    });
  }
  return out;
}
