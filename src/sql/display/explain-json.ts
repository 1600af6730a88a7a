/**
 * EXPLAIN (FORMAT JSON): the plan as PostgreSQL's JSON document shape, `[{"Plan": {"Node Type": …,
 * "Plans": [...]}, "Planning Time": …, "Execution Time": …}]`, which clients (pgAdmin, DBeaver) parse.
 * Node types are lakegate's plan kinds; each node also carries its one-line text as "Detail", and
 * PostgreSQL's keys where there is one ("Relation Name", "Schema", "Join Type", "Filter", "Sort Key").
 */
import { planChildren, type LogicalPlan } from '../logical/plan.ts';
import { describeNode, exprText, scanPushdown, subqueriesOf } from './explain-plan.ts';

export type JsonObject = Record<string, unknown>;

function ownKeys(p: LogicalPlan): JsonObject {
  switch (p.kind) {
    case 'TableScan': {
      const dot = p.name.lastIndexOf('.');
      const d = scanPushdown(p);
      return {
        'Relation Name': dot < 0 ? p.name : p.name.slice(dot + 1),
        ...(dot < 0 ? {} : { Schema: p.name.slice(0, dot) }),
        ...(d.projection ? { Projection: d.projection } : {}),
        ...(d.filters ? { 'Pushed Filters': d.filters } : {}),
        ...(d.limit ? { 'Pushed Limit': d.limit } : {}),
      };
    }
    case 'Filter': return { Filter: exprText(p.predicate) };
    case 'Join': return { 'Join Type': p.joinType[0]!.toUpperCase() + p.joinType.slice(1), ...(p.condition ? { 'Join Filter': exprText(p.condition) } : {}) };
    case 'Sort': return { 'Sort Key': p.keys.map((k) => `${exprText(k.expr)}${k.descending ? ' DESC' : ''}`) };
    case 'Projection': return { Output: p.exprs.map(exprText) };
    case 'Aggregate': return { 'Group Key': p.groupKeys.map(exprText), ...(p.workerPartial ? { 'Partial Mode': 'Finalize', 'Partial In': 'scan workers' } : {}) };
    default: return {};
  }
}

/** the "Plan" object; `extra` adds keys per node (ANALYZE's actual counts, a scan's files) */
export function explainJsonPlan(plan: LogicalPlan, extra?: (p: LogicalPlan) => JsonObject | undefined): JsonObject {
  const kids: JsonObject[] = [
    ...planChildren(plan).map((k) => explainJsonPlan(k, extra)),
    ...subqueriesOf(plan).map((s) => ({ ...explainJsonPlan(s.plan, extra), 'Parent Relationship': 'SubPlan', 'Subplan Name': `${s.subKind}${s.correlated ? ' (correlated)' : ''}` })),
  ];
  return {
    'Node Type': plan.kind === 'TableScan' ? plan.source.explainNode?.type ?? plan.kind : plan.kind,
    Detail: describeNode(plan),
    ...ownKeys(plan),
    ...(extra?.(plan) ?? {}),
    ...(kids.length === 0 ? {} : { Plans: kids }),
  };
}
