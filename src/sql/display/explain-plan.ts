/**
 * EXPLAIN text: one line per plan node, children indented by two spaces (DataFusion's indent format),
 * e.g. `Projection: t.a, t.b + Int32(1)` → here `Projection: a, (b + 1)`. A TableScan line also shows what
 * the optimizer pushed into it: `TableScan: tpch.lineitem projection=[l_shipdate, l_quantity]
 * filters=[l_shipdate >= '1994-01-01'::date] limit=10`. explain-json.ts gives the same tree as PostgreSQL's
 * FORMAT JSON document.
 */
import { formatType } from '../../common/pgtypes/format-type.ts';
import { textOut } from '../../common/pgtypes/text-io.ts';
import { someExpr, type Expr, type SortKeyExpr, type SubqueryExpr } from '../logical/expr.ts';
import { planChildren, type LogicalPlan, type PlanKind } from '../logical/plan.ts';
import type { PushedPredicate, PushedValue, TableScan } from '../logical/table-scan.ts';

type Describe<K extends PlanKind> = (p: Extract<LogicalPlan, { kind: K }>) => string;

const DESCRIBE = {
  TableScan: (p) => `${p.source.explainNode?.type ?? 'TableScan'}: ${p.name}${p.asOf ? ` AS OF ${p.asOf}` : ''}${p.source.explainNode?.detail ? ` ${p.source.explainNode.detail}` : ''}${scanPushdownText(p)}`,
  Values: (p) => `Values: ${p.rows.length} row${p.rows.length === 1 ? '' : 's'}`,
  Filter: (p) => `Filter: ${exprText(p.predicate)}`,
  Projection: (p) => `Projection: ${p.exprs.map((e, i) => withAlias(e, p.columns[i]!.name)).join(', ')}`,
  ProjectSet: (p) => `ProjectSet: ${p.exprs.map(exprText).join(', ')}`,
  Aggregate: (p) => `${p.workerPartial ? 'Finalize ' : ''}Aggregate: groupBy=[${p.groupKeys.map(exprText).join(', ')}]${p.groupingSets ? ` sets=${JSON.stringify(p.groupingSets)}` : ''}, aggr=[${p.aggregates.map(exprText).join(', ')}]`,
  Join: (p) => `${p.lateral ? 'Lateral' : ''}${p.condition === null && p.joinType === 'inner' ? 'CrossJoin' : `${cap(p.joinType)} Join`}${p.buildSide === 'left' ? ' (build: left)' : ''}${p.condition ? `: ${exprText(p.condition)}` : ''}`,
  Sort: (p) => `Sort: ${p.keys.map(sortText).join(', ')}`,
  Limit: (p) => `Limit: skip=${p.offset ? exprText(p.offset) : '0'}, fetch=${p.limit ? exprText(p.limit) : 'None'}`,
  SetOp: (p) => `${cap(p.op)}${p.all ? ' All' : ''}`,
  Distinct: (p) => (p.on ? `DistinctOn: ${p.on.map(exprText).join(', ')}` : 'Distinct'),
  Window: (p) => `WindowAggr: ${p.functions.map(exprText).join(', ')}`,
  RecursiveCte: (p) => `RecursiveQuery: ${p.name}${p.all ? '' : ' is_distinct=true'}`,
  WorkTableScan: (p) => `WorkTableScan: ${p.name}`,
  FunctionScan: (p) => `FunctionScan: ${p.name}(${p.args.map(exprText).join(', ')})${p.ordinality ? ' WITH ORDINALITY' : ''}`,
  Overwrite: (p) => `${p.op === 'update' ? 'Update' : 'Delete'}: ${p.name}${p.returning ? ` RETURNING ${p.returning.map(exprText).join(', ')}` : ''}`,
  ModifyRows: (p) => `${p.command === 'merge' ? 'Merge' : p.command === 'update' ? 'Update' : p.command === 'insert' ? 'Insert' : 'Delete'}: ${p.name}${p.returning ? ` RETURNING ${p.returning.map(exprText).join(', ')}` : ''}`,
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

function quote(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** bool, integers, floats, numeric and oid print bare; strings of text types quoted; other types `'text'::type` */
const BARE_TYPES: ReadonlySet<number> = new Set([16, 20, 21, 23, 26, 700, 701, 1700]);
const TEXT_TYPES: ReadonlySet<number> = new Set([25, 1043, 705, 19, 1042]);

function literalText(v: unknown, oid: number): string {
  if (v === null) return 'NULL';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'string' && TEXT_TYPES.has(oid)) return quote(v);
  let text: string;
  try {
    text = textOut(oid, v);
  } catch {
    text = String(v);
  }
  if (BARE_TYPES.has(oid)) return text;
  return `${quote(text)}::${formatType(oid)}`;
}

/** a pushed constant as SQL: numbers bare, everything else quoted and cast (`'1994-01-01'::date`) */
function pushedValueText(v: PushedValue): string {
  return v.kind === 'Param' ? `$${v.index + 1}` : literalText(v.value, v.type.oid);
}

/** a pushed predicate over the scan's column names */
export function pushedPredicateText(p: PushedPredicate, columns: readonly { readonly name: string }[]): string {
  const col = (i: number): string => columns[i]?.name ?? `#${i}`;
  switch (p.kind) {
    case 'compare': return `${col(p.column)} ${p.op} ${pushedValueText(p.value)}`;
    case 'isNull': return `${col(p.column)} IS NULL`;
    case 'compareColumns': return `${col(p.column)} ${p.op} ${col(p.other)}`;
    case 'isNotNull': return `${col(p.column)} IS NOT NULL`;
    case 'in': return Array.isArray(p.values)
      ? `${col(p.column)} IN (${(p.values as readonly PushedValue[]).map(pushedValueText).join(', ')})`
      : `${col(p.column)} = ANY(${pushedValueText(p.values as PushedValue)})`;
    case 'startsWith':
      // a whole pattern pushed with its prefix (NOT LIKE: '' and the pattern) shows as written
      if (p.like !== undefined) return `${col(p.column)} ${p.like.negated ? 'NOT LIKE' : 'LIKE'} ${quote(p.like.pattern)}`;
      return `${col(p.column)} LIKE ${quote(`${p.prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`;
    case 'and': case 'or': return `(${p.args.map((a) => pushedPredicateText(a, columns)).join(` ${p.kind.toUpperCase()} `)})`;
  }
}

/** what the optimizer pushed into a scan, as they appear on EXPLAIN's TableScan line and in FORMAT JSON */
export function scanPushdown(p: TableScan): { projection?: string[]; filters?: string[]; limit?: string } {
  // a synthetic source (explainNode) describes what it was given in its detail text
  if (p.source.explainNode !== undefined) return {};
  return {
    ...(p.projection === undefined ? {} : { projection: p.projection.map((i) => p.columns[i]?.name ?? `#${i}`) }),
    ...(p.filters === undefined || p.filters.length === 0 ? {} : { filters: p.filters.map((f) => pushedPredicateText(f, p.columns)) }),
    ...(p.limit === undefined ? {} : { limit: p.limit.offset === null ? pushedValueText(p.limit.limit) : `${pushedValueText(p.limit.limit)} offset ${pushedValueText(p.limit.offset)}` }),
  };
}

function scanPushdownText(p: TableScan): string {
  const d = scanPushdown(p);
  return (d.projection ? ` projection=[${d.projection.join(', ')}]` : '') + (d.filters ? ` filters=[${d.filters.join(', ')}]` : '') + (d.limit ? ` limit=${d.limit}` : '');
}

/** the one-line description of a node (the text of its EXPLAIN line) */
export function describeNode(p: LogicalPlan): string {
  return (DESCRIBE[p.kind] as Describe<typeof p.kind>)(p as never);
}

/** the expressions of one node (not of its children) */
function ownExprs(p: LogicalPlan): readonly (Expr | null)[] {
  switch (p.kind) {
    case 'Filter': return [p.predicate];
    case 'Projection': case 'ProjectSet': return p.exprs;
    case 'Aggregate': return [...p.groupKeys, ...p.aggregates];
    case 'Join': return [p.condition];
    case 'Sort': return p.keys.map((k) => k.expr);
    case 'Limit': return [p.limit, p.offset];
    case 'Distinct': return p.on ?? [];
    case 'Window': return p.functions;
    case 'Values': return p.rows.flat();
    case 'FunctionScan': return p.args;
    case 'Insert': case 'Overwrite': return p.returning ?? [];
    case 'ModifyRows': return [...p.actions.flatMap((a) => [a.condition, ...(a.values ?? [])]), ...(p.returning ?? [])];
    default: return [];
  }
}

/** the subqueries in a node's expressions, in order (their plans are shown as SubPlans below the node) */
export function subqueriesOf(p: LogicalPlan): SubqueryExpr[] {
  const out: SubqueryExpr[] = [];
  for (const e of ownExprs(p)) if (e !== null) someExpr(e, (x) => { if (x.kind === 'Subquery') out.push(x); return false; });
  return out;
}

export function subPlanName(s: SubqueryExpr): string {
  return `SubPlan: ${s.subKind}${s.correlated ? ' (correlated)' : ''}`;
}

/**
 * EXPLAIN text lines, an indented tree. `annotate` may add text at the end of a node's line (ANALYZE's
 * actual counts) and lines below it (a scan's files and row groups). Subquery plans follow their node's
 * children as `SubPlan:` entries.
 */
export function explainPlan(plan: LogicalPlan, annotate?: (p: LogicalPlan) => { suffix?: string; lines?: readonly string[] } | undefined): string[] {
  const out: string[] = [];
  const walk = (p: LogicalPlan, depth: number): void => {
    const extra = annotate?.(p);
    out.push('  '.repeat(depth) + describeNode(p) + (extra?.suffix ?? ''));
    for (const l of extra?.lines ?? []) out.push('  '.repeat(depth + 1) + l);
    // a partial aggregate in the scan workers (exec/partial/): its own line between the Finalize and the input
    const below = p.kind === 'Aggregate' && p.workerPartial ? depth + 2 : depth + 1;
    if (below > depth + 1) out.push(`${'  '.repeat(depth + 1)}Partial Aggregate (in workers)`);
    for (const c of planChildren(p)) walk(c, below);
    for (const s of subqueriesOf(p)) {
      out.push('  '.repeat(depth + 1) + subPlanName(s));
      walk(s.plan, depth + 2);
    }
  };
  walk(plan, 0);
  return out;
}
