/**
 * Splits a join condition into hashable equi-join keys (`l = r` with each side over one input, same
 * comparison type) and a residual predicate. Subqueries and outer references stay in the residual.
 */
import { Oid } from '../common/pgtypes/oids.ts';
import { conjunctsOf, someExpr, transformExpr, type Expr, type OpExpr } from '../sql/index.ts';
import type { EquiKeys } from './operators/hash-join-exec.ts';

const INTS = new Set<number>([Oid.int2, Oid.int4, Oid.int8]);

function side(e: Expr, leftWidth: number): 'left' | 'right' | 'none' | 'mixed' {
  let l = false;
  let r = false;
  let bad = false;
  someExpr(e, (x) => {
    if (x.kind === 'Subquery' || (x.kind === 'ColumnRef' && x.levelsUp !== 0)) bad = true;
    if (x.kind === 'ColumnRef' && x.levelsUp === 0) { if (x.index < leftWidth) l = true; else r = true; }
    return false;
  });
  if (bad || (l && r)) return 'mixed';
  return l ? 'left' : r ? 'right' : 'none';
}


export function extractEquiKeys(cond: Expr | null, leftWidth: number): EquiKeys | null {
  if (cond === null) return null;
  const left: Expr[] = [];
  const right: Expr[] = [];
  const ops: OpExpr[] = [];
  const rest: Expr[] = [];
  const rebase = (e: Expr): Expr => transformExpr(e, (x) => (x.kind === 'ColumnRef' && x.levelsUp === 0 ? { ...x, index: x.index - leftWidth } : undefined));
  for (const c of conjunctsOf(cond)) {
    if (c.kind === 'Op' && c.name === '=' && c.left !== null && c.type.oid === Oid.bool) {
      const lt = c.leftType!.oid;
      const rt = c.rightType.oid;
      const sameType = lt === rt || (INTS.has(lt) && INTS.has(rt));
      const ls = side(c.left, leftWidth);
      const rs = side(c.right, leftWidth);
      if (sameType && ls === 'left' && rs === 'right') { left.push(c.left); right.push(rebase(c.right)); ops.push(c); continue; }
      if (sameType && ls === 'right' && rs === 'left') { left.push(c.right); right.push(rebase(c.left)); ops.push(c); continue; }
    }
    rest.push(c);
  }
  if (left.length === 0) return null;
  const residual = rest.length === 0 ? null : rest.length === 1 ? rest[0]! : { kind: 'BoolOp' as const, op: 'and' as const, args: rest, type: rest[0]!.type };
  return { left, right, ops, residual };
}
