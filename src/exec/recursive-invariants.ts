/**
 * WITH RECURSIVE runs its recursive term once per iteration. A join input of that term which reads neither a
 * working table, nor a row of an enclosing query, nor a volatile function yields the same rows every time
 * (asyncpg's type introspection joins its whole pg_type subquery, with correlated subqueries per row, to the
 * working table): hoistInvariantJoinInputs swaps each such input for a WorkTableScan of a fresh id, whose rows
 * RecursiveCteExec computes once. Join inputs are materialized by the joins anyway, so memory does not grow.
 */
import { mapPlanExprs, planChildren, type LogicalPlan } from '../sql/index.ts';

export interface HoistedInput {
  readonly id: number;
  readonly plan: LogicalPlan;
}

let nextId = -1;

export function hoistInvariantJoinInputs(recursive: LogicalPlan): { plan: LogicalPlan; inputs: HoistedInput[] } {
  const inputs: HoistedInput[] = [];
  const side = (p: LogicalPlan): LogicalPlan => {
    if (p.kind === 'WorkTableScan' || !invariant(p)) return visit(p);
    const id = nextId--;
    inputs.push({ id, plan: p });
    return { kind: 'WorkTableScan', id, name: `invariant ${-id}`, columns: p.columns };
  };
  const visit = (p: LogicalPlan): LogicalPlan => {
    switch (p.kind) {
      case 'Join': return { ...p, left: side(p.left), right: side(p.right) };
      case 'SetOp': return { ...p, left: visit(p.left), right: visit(p.right) };
      case 'Filter': case 'Projection': case 'ProjectSet': case 'Aggregate': case 'Sort': case 'Limit': case 'Distinct': case 'Window':
        return { ...p, input: visit(p.input) } as LogicalPlan;
      default: return p;
    }
  };
  const plan = visit(recursive);
  return { plan, inputs };
}

/**
 * no working table, DML, volatile function or reference to an enclosing query's row anywhere inside: the plan
 * yields the same rows each time it runs within one execution (also share_repeated_subplans' test)
 */
export function invariant(root: LogicalPlan): boolean {
  // working tables of recursive CTEs nested inside (asyncpg's domain lookup) are local: allowed
  const local = new Set<number>();
  if (!nodesOk(root, local)) return false;
  let ok = true;
  mapPlanExprs(root, (e, depth) => {
    if (!ok) return e; // stop descending
    if (e.kind === 'ColumnRef' && e.levelsUp > depth) ok = false;
    else if ((e.kind === 'Call' || e.kind === 'SetCall') && e.def.volatility === 'v') ok = false;
    else if (e.kind === 'Subquery' && !nodesOk(e.plan, local)) ok = false;
    return undefined;
  });
  return ok;
}

function nodesOk(p: LogicalPlan, local: Set<number>): boolean {
  if (p.kind === 'WorkTableScan') return local.has(p.id);
  if (p.kind === 'Insert' || p.kind === 'Overwrite' || p.kind === 'ModifyRows') return false;
  if (p.kind === 'FunctionScan' && p.def.volatility === 'v') return false;
  if (p.kind === 'RecursiveCte') local.add(p.id);
  return planChildren(p).every((c) => nodesOk(c, local));
}
