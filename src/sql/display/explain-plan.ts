/**
 * EXPLAIN text: one line per plan node, children indented by two spaces (DataFusion's indent format),
 * e.g. `Projection: t.a, t.b + Int32(1)` → here `Projection: a, (b + 1)`.
 */
import { formatType } from '../../common/pgtypes/format-type.ts';
import type { Expr, SortKeyExpr } from '../logical/expr.ts';
import { planChildren, type LogicalPlan, type PlanKind } from '../logical/plan.ts';

type Describe<K extends PlanKind> = (p: Extract<LogicalPlan, { kind: K }>) => string;

const DESCRIBE = {
  TableScan: (p) => `TableScan: ${p.name}${p.asOf ? ` AS OF ${p.asOf}` : ''}`,
  Values: (p) => `Values: ${p.rows.length} row${p.rows.length === 1 ? '' : 's'}`,
  Filter: (p) => `Filter: ${exprText(p.predicate)}`,
  Projection: (p) => `Projection: ${p.exprs.map((e, i) => withAlias(e, p.columns[i]!.name)).join(', ')}`,
  ProjectSet: (p) => `ProjectSet: ${p.exprs.map(exprText).join(', ')}`,
  Aggregate: (p) => `Aggregate: groupBy=[${p.groupKeys.map(exprText).join(', ')}]${p.groupingSets ? ` sets=${JSON.stringify(p.groupingSets)}` : ''}, aggr=[${p.aggregates.map(exprText).join(', ')}]`,
  Join: (p) => `${p.lateral ? 'Lateral' : ''}${p.condition === null && p.joinType === 'inner' ? 'CrossJoin' : `${cap(p.joinType)} Join`}${p.condition ? `: ${exprText(p.condition)}` : ''}`,
  Sort: (p) => `Sort: ${p.keys.map(sortText).join(', ')}`,
  Limit: (p) => `Limit: skip=${p.offset ? exprText(p.offset) : '0'}, fetch=${p.limit ? exprText(p.limit) : 'None'}`,
  SetOp: (p) => `${cap(p.op)}${p.all ? ' All' : ''}`,
  Distinct: (p) => (p.on ? `DistinctOn: ${p.on.map(exprText).join(', ')}` : 'Distinct'),
  Window: (p) => `WindowAggr: ${p.functions.map(exprText).join(', ')}`,
  RecursiveCte: (p) => `RecursiveQuery: ${p.name}${p.all ? '' : ' is_distinct=true'}`,
  WorkTableScan: (p) => `WorkTableScan: ${p.name}`,
  FunctionScan: (p) => `FunctionScan: ${p.name}(${p.args.map(exprText).join(', ')})${p.ordinality ? ' WITH ORDINALITY' : ''}`,
  Overwrite: (p) => `${p.op === 'update' ? 'Update' : 'Delete'}: ${p.name}${p.returning ? ` RETURNING ${p.returning.map(exprText).join(', ')}` : ''}`,
  Insert: (p) => `Insert: ${p.name}${p.returning ? ` RETURNING ${p.returning.map(exprText).join(', ')}` : ''}`,
} satisfies { [K in PlanKind]: Describe<K> };

function cap(s: string): string {
  return s[0]!.toUpperCase() + s.slice(1);
}

function withAlias(e: Expr, name: string): string {
  const t = exprText(e);
  return t === name || (e.kind === 'ColumnRef' && e.name.endsWith(`.${name}`)) ? t : `${t} AS ${name}`;
}

function sortText(k: SortKeyExpr): string {
  return `${exprText(k.expr)} ${k.descending ? 'DESC' : 'ASC'} NULLS ${k.nullsFirst ? 'FIRST' : 'LAST'}`;
}

export function exprText(e: Expr): string {
  switch (e.kind) {
    case 'ColumnRef': return e.levelsUp > 0 ? `outer(${e.levelsUp}).${e.name}` : e.levelsUp < 0 ? '$elem' : e.name;
    case 'Literal': return literalText(e.value, e.type.oid);
    case 'Param': return `$${e.index + 1}`;
    case 'Call': case 'SetCall': return `${e.name}(${e.args.map(exprText).join(', ')})`;
    case 'Op': return e.left === null ? `(${e.name} ${exprText(e.right)})` : `(${exprText(e.left)} ${e.name} ${exprText(e.right)})`;
    case 'Cast': return `CAST(${exprText(e.arg)} AS ${formatType(e.type.oid, e.type.typmod)})`;
    case 'Case': return `CASE ${e.whens.map((w) => `WHEN ${exprText(w.cond)} THEN ${exprText(w.result)}`).join(' ')} ELSE ${exprText(e.elseExpr)} END`;
    case 'Coalesce': return `coalesce(${e.args.map(exprText).join(', ')})`;
    case 'MinMax': return `${e.op}(${e.args.map(exprText).join(', ')})`;
    case 'NullIf': return `nullif(${exprText(e.left)}, ${exprText(e.eq.right)})`;
    case 'BoolOp': return e.op === 'not' ? `NOT ${exprText(e.args[0]!)}` : `(${e.args.map(exprText).join(` ${e.op.toUpperCase()} `)})`;
    case 'NullTest': return `${exprText(e.arg)} IS ${e.negated ? 'NOT ' : ''}NULL`;
    case 'BooleanTest': return `${exprText(e.arg)} IS ${e.test.replace('_', ' ').toUpperCase()}`;
    case 'DistinctFrom': return `${exprText(e.eq.left!)} IS ${e.negated ? 'NOT ' : ''}DISTINCT FROM ${exprText(e.eq.right)}`;
    case 'ScalarArrayOp': return `${exprText(e.op.left!)} ${e.op.name} ${e.useOr ? 'ANY' : 'ALL'}(${exprText(e.op.right)})`;
    case 'Subquery': return `${e.subKind}(<subquery${e.correlated ? ' correlated' : ''}>)`;
    case 'Array': return `ARRAY[${e.elements.map(exprText).join(', ')}]`;
    case 'Subscript': return `${exprText(e.arg)}[${e.indexes.map((i) => (i.slice ? `${i.lower ? exprText(i.lower) : ''}:${i.upper ? exprText(i.upper) : ''}` : exprText(i.upper!))).join('][')}]`;
    case 'Row': return `ROW(${e.args.map(exprText).join(', ')})`;
    case 'FieldSelect': return `(${exprText(e.arg)}).f${e.field + 1}`;
    case 'Aggregate': return `${e.name}(${e.distinct ? 'DISTINCT ' : ''}${e.star ? '*' : e.args.map(exprText).join(', ')})${e.filter ? ` FILTER (WHERE ${exprText(e.filter)})` : ''}`;
    case 'Grouping': return `GROUPING(${e.args.map(exprText).join(', ')})`;
    case 'WindowFunc': return `${e.name}(${e.star ? '*' : e.args.map(exprText).join(', ')}) OVER (${e.spec.partitionBy.length ? `PARTITION BY ${e.spec.partitionBy.map(exprText).join(', ')} ` : ''}${e.spec.orderBy.length ? `ORDER BY ${e.spec.orderBy.map(sortText).join(', ')} ` : ''}${e.spec.frame.mode.toUpperCase()})`;
  }
}

function literalText(v: unknown, oid: number): string {
  if (v === null) return 'NULL';
  if (typeof v === 'string') return `'${v.replace(/'/g, "''")}'`;
  if (typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  return `${String(v)}::${formatType(oid)}`;
}

/** EXPLAIN text lines, an indented tree. */
export function explainPlan(plan: LogicalPlan): string[] {
  const out: string[] = [];
  const walk = (p: LogicalPlan, depth: number): void => {
    out.push('  '.repeat(depth) + (DESCRIBE[p.kind] as Describe<typeof p.kind>)(p as never));
    for (const c of planChildren(p)) walk(c, depth + 1);
  };
  walk(plan, 0);
  return out;
}
