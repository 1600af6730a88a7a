/**
 * A simple SELECT block (transformSelectStmt): FROM → WHERE → GROUP BY/aggregates → HAVING → window
 * functions → set-returning functions → projection (+ hidden ORDER BY columns) → DISTINCT [ON] → ORDER BY
 * → LIMIT/OFFSET → drop hidden columns.
 */
import { notSupported, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { exprEquals, someExpr, transformExpr, type Expr, type SetCallExpr, type SortKeyExpr, type WindowFuncExpr } from '../logical/expr.ts';
import type { LogicalPlan } from '../logical/plan.ts';
import { coerceToBoolean } from './coerce.ts';
import { bindExpr, locOf, recordFieldsOf, resolveUnknownOutput, strVal, tagOf } from './bind-expr.ts';
import { sortKey } from './bind-func.ts';
import { bindFromList } from './bind-from.ts';
import { buildAggregate, collect, expandGroupingSets, hasAggregates, type GroupItem } from './bind-group.ts';
import { bindLimit, limitPlan, ordinalOf } from './bind-order.ts';
import { figureColname } from './col-name.ts';
import { planWhere } from './plan-where.ts';
import { Scope } from './scope.ts';
import { checkNoLocking, type Binder, type ExprScope, type OutColumn, type QueryResult, type SelectOptions } from './binder.ts';

type Node = Record<string, unknown>;

interface Target { expr: Expr; readonly name: string; readonly tableOid: number; readonly attnum: number; readonly recordFields?: readonly { name: string; type: Expr['type'] }[] }
/** an ORDER BY / DISTINCT ON item: a select-list position or an expression over the FROM row */
interface SortItem { target?: number; expr?: Expr; readonly sb: Node }

function pos(p: number | undefined): { position?: number } {
  return p === undefined ? {} : { position: p };
}

function ref(i: number, c: { name: string; type: Expr['type'] }): Expr {
  return { kind: 'ColumnRef', index: i, levelsUp: 0, type: c.type, name: c.name };
}

export function bindSimpleSelect(b: Binder, stmt: Node, parent: Scope | null, opts: SelectOptions): QueryResult {
  checkNoLocking(stmt);
  const scope = new Scope(parent);
  const from = (stmt.fromClause as unknown[] | undefined) ?? [];
  let plan: LogicalPlan = from.length > 0 ? bindFromList(b, from, scope) : { kind: 'Values', rows: [[]], columns: [] };
  if (stmt.whereClause !== undefined) {
    const raw = bindExpr(b, stmt.whereClause, { scope, clause: 'WHERE', allowAgg: false, allowWindow: false, allowSrf: false });
    plan = planWhere(plan, coerceToBoolean(b.env, raw, 'WHERE', locOf(tagOf(stmt.whereClause)[1])));
  }
  const windows = new Map<string, Node>(((stmt.windowClause as Node[] | undefined) ?? []).map((w) => [String((w.WindowDef as Node).name), w.WindowDef as Node]));
  const selEs: ExprScope = { scope, clause: 'SELECT', allowAgg: true, allowWindow: true, allowSrf: true, windows };
  const targets = bindTargets(b, (stmt.targetList as Node[] | undefined) ?? [], scope, selEs);

  // GROUP BY
  const keys: Expr[] = [];
  const keyIndex = (e: Expr): number => {
    const i = keys.findIndex((k) => exprEquals(k, e));
    if (i >= 0) return i;
    keys.push(e);
    return keys.length - 1;
  };
  const groupEs: ExprScope = { scope, clause: 'GROUP BY', allowAgg: false, allowWindow: false, allowSrf: false };
  const bindGroupExpr = (node: unknown): Expr => resolveSqlItem(b, node, targets, scope, groupEs, 'GROUP BY', true);
  const items: GroupItem[] = [];
  let hasSets = false;
  const groupClause = (stmt.groupClause as unknown[] | undefined) ?? [];
  const setOf = (node: unknown): number[][] => {
    const [tag, n] = tagOf(node);
    if (tag !== 'GroupingSet') {
      if (tag === 'RowExpr') return [((n.args as unknown[]) ?? []).map((x) => keyIndex(bindGroupExpr(x)))];
      return [[keyIndex(bindGroupExpr(node))]];
    }
    const content = (n.content as unknown[] | undefined) ?? [];
    switch (n.kind) {
      case 'GROUPING_SET_EMPTY': return [[]];
      case 'GROUPING_SET_SIMPLE': return [content.flatMap((x) => setOf(x).flat())];
      case 'GROUPING_SET_ROLLUP': {
        const parts = content.map((x) => setOf(x).flat());
        const out: number[][] = [];
        for (let i = parts.length; i >= 0; i--) out.push(parts.slice(0, i).flat());
        return out;
      }
      case 'GROUPING_SET_CUBE': {
        const parts = content.map((x) => setOf(x).flat());
        const out: number[][] = [];
        const n2 = parts.length;
        for (let mask = (1 << n2) - 1; mask >= 0; mask--) {
          out.push(parts.filter((_, i) => mask & (1 << (n2 - 1 - i))).flat());
        }
        return out;
      }
      default: return content.flatMap((x) => setOf(x));
    }
  };
  for (const g of groupClause) {
    const [tag] = tagOf(g);
    if (tag === 'GroupingSet') {
      hasSets = true;
      items.push({ kind: 'sets', sets: setOf(g) });
    } else {
      items.push({ kind: 'key', key: keyIndex(bindGroupExpr(g)) });
    }
  }
  if (stmt.groupDistinct === true) throw notSupported('GROUP BY DISTINCT');
  const sets = hasSets ? expandGroupingSets(items) : null;

  let having: Expr | null = null;
  if (stmt.havingClause !== undefined) {
    const raw = bindExpr(b, stmt.havingClause, { scope, clause: 'HAVING', allowAgg: true, allowWindow: false, allowSrf: false });
    having = coerceToBoolean(b.env, raw, 'HAVING', locOf(tagOf(stmt.havingClause)[1]));
  }
  const orderEs: ExprScope = { scope, clause: 'ORDER BY', allowAgg: true, allowWindow: true, allowSrf: false, windows };
  const sortItems = ((stmt.sortClause as Node[] | undefined) ?? []).map((s) => resolveSortItem(b, s.SortBy as Node, targets, scope, orderEs, 'ORDER BY'));
  const distinctClause = stmt.distinctClause as Node[] | undefined;
  const distinctOn = distinctClause !== undefined && distinctClause.length > 0 && Object.keys(distinctClause[0]!).length > 0;
  const onItems = distinctOn ? distinctClause!.map((d) => resolveSortItem(b, { node: d }, targets, scope, orderEs, 'DISTINCT ON')) : [];

  // aggregation
  const itemExprs = (xs: SortItem[]): Expr[] => xs.flatMap((s) => (s.expr ? [s.expr] : []));
  const all = [...targets.map((t) => t.expr), ...(having ? [having] : []), ...itemExprs(sortItems), ...itemExprs(onItems)];
  if (groupClause.length > 0 || having !== null || hasAggregates(all)) {
    const g = buildAggregate(plan, keys, sets, all);
    plan = g.plan;
    for (const t of targets) t.expr = g.rewrite(t.expr);
    for (const s of [...sortItems, ...onItems]) if (s.expr) s.expr = g.rewrite(s.expr);
    if (having !== null) plan = { kind: 'Filter', input: plan, predicate: g.rewrite(having), columns: plan.columns };
  }

  // window functions
  const wfs = collect<WindowFuncExpr>([...targets.map((t) => t.expr), ...itemExprs(sortItems)], 'WindowFunc');
  if (wfs.length > 0) {
    const w = plan.columns.length;
    plan = { kind: 'Window', input: plan, functions: wfs, columns: [...plan.columns, ...wfs.map((f) => ({ name: f.name, type: f.type }))] };
    const rw = (e: Expr): Expr => transformExpr(e, (x) => {
      if (x.kind !== 'WindowFunc') return undefined;
      const i = wfs.indexOf(x);
      return ref(w + i, { name: x.name, type: x.type });
    });
    for (const t of targets) t.expr = rw(t.expr);
    for (const s of sortItems) if (s.expr) s.expr = rw(s.expr);
  }

  // set-returning functions in the select list
  const srfs = collect<SetCallExpr>(targets.map((t) => t.expr), 'SetCall').filter((x, i, arr) => arr.indexOf(x) === i);
  if (srfs.length > 0) {
    const w = plan.columns.length;
    const passthrough = plan.columns.map((c, i) => ref(i, c));
    plan = { kind: 'ProjectSet', input: plan, exprs: [...passthrough, ...srfs], columns: [...plan.columns, ...srfs.map((s) => ({ name: s.name, type: s.type }))] };
    for (const t of targets) {
      t.expr = transformExpr(t.expr, (x) => (x.kind === 'SetCall' ? ref(w + srfs.findIndex((s) => s === x || exprEquals(s, x)), { name: x.name, type: x.type }) : undefined));
    }
  }

  // projection with hidden sort columns
  const projExprs = targets.map((t) => (opts.resolveUnknowns === false ? t.expr : resolveUnknownOutput(b, t.expr)));
  const visible = projExprs.length;
  const indexFor = (s: SortItem, what: string): number => {
    if (s.target !== undefined) return s.target;
    const i = targets.findIndex((t) => exprEquals(t.expr, s.expr!));
    if (i >= 0) return i;
    if (distinctClause !== undefined && !distinctOn) {
      throw pgError(SqlState.invalid_column_reference, 'for SELECT DISTINCT, ORDER BY expressions must appear in select list', pos(locOf(tagOf(s.sb.node)[1])));
    }
    void what;
    projExprs.push(s.expr!);
    return projExprs.length - 1;
  };
  const sortIdx = sortItems.map((s) => indexFor(s, 'ORDER BY'));
  const onIdx = onItems.map((s) => indexFor(s, 'DISTINCT ON'));
  const cols = projExprs.map((e, i) => ({ name: targets[i]?.name ?? `?sort${i}`, type: e.type }));
  plan = { kind: 'Projection', input: plan, exprs: projExprs, columns: cols };
  const keyOf = (idx: number, s: SortItem): SortKeyExpr => sortKey(ref(idx, cols[idx]!), s.sb);

  if (distinctClause !== undefined && !distinctOn) {
    plan = { kind: 'Distinct', input: plan, on: null, columns: plan.columns };
    if (sortItems.length > 0) plan = { kind: 'Sort', input: plan, keys: sortItems.map((s, i) => keyOf(sortIdx[i]!, s)), columns: plan.columns };
  } else if (distinctOn) {
    const n = Math.min(onIdx.length, sortIdx.length);
    for (let i = 0; i < n; i++) {
      if (!onIdx.includes(sortIdx[i]!)) {
        throw pgError(SqlState.invalid_column_reference, 'SELECT DISTINCT ON expressions must match initial ORDER BY expressions', pos(locOf(tagOf(sortItems[i]!.sb.node)[1])));
      }
    }
    const keys2 = sortItems.length > 0 ? sortItems.map((s, i) => keyOf(sortIdx[i]!, s)) : onItems.map((s, i) => keyOf(onIdx[i]!, s));
    const extra = onIdx.filter((i) => !sortIdx.includes(i)).map((i) => keyOf(i, { sb: {} }));
    plan = { kind: 'Sort', input: plan, keys: [...keys2, ...extra], columns: plan.columns };
    plan = { kind: 'Distinct', input: plan, on: onIdx.map((i) => ref(i, cols[i]!)), columns: plan.columns };
  } else if (sortItems.length > 0) {
    plan = { kind: 'Sort', input: plan, keys: sortItems.map((s, i) => keyOf(sortIdx[i]!, s)), columns: plan.columns };
  }
  plan = limitPlan(plan, bindLimit(b, stmt, parent));
  if (projExprs.length > visible) {
    plan = { kind: 'Projection', input: plan, exprs: cols.slice(0, visible).map((c, i) => ref(i, c)), columns: cols.slice(0, visible) };
  }
  const columns: OutColumn[] = targets.map((t, i) => ({
    name: t.name, type: cols[i]!.type, tableOid: t.tableOid, attnum: t.attnum, ...(t.recordFields === undefined ? {} : { recordFields: t.recordFields }),
  }));
  return { plan, columns, correlated: scope.hasOuterRefs };
}

function bindTargets(b: Binder, list: readonly Node[], scope: Scope, es: ExprScope): Target[] {
  const out: Target[] = [];
  for (const t of list) {
    const rt = t.ResTarget as Node;
    const [tag, n] = tagOf(rt.val);
    if (tag === 'ColumnRef') {
      const fields = n.fields as Node[];
      if (fields[fields.length - 1]!.A_Star !== undefined) {
        const quals = fields.slice(0, -1).map(strVal);
        let cols;
        if (quals.length === 0) {
          if (scope.items.length === 0) throw pgError(SqlState.syntax_error, 'SELECT * with no tables specified is not valid', pos(locOf(n)));
          cols = scope.starColumns();
        } else {
          const item = scope.findItem(quals[quals.length - 1]!, quals.length > 1 ? quals[quals.length - 2] : undefined);
          if (item === undefined) throw pgError(SqlState.undefined_table, `missing FROM-clause entry for table "${quals[quals.length - 1]}"`, pos(locOf(n)));
          cols = item.columns.filter((c) => !c.starHidden);
        }
        for (const c of cols) out.push({ expr: ref(c.index, c), name: c.name, tableOid: c.tableOid, attnum: c.attnum });
        continue;
      }
    }
    const expr = bindExpr(b, rt.val, es);
    let tableOid = 0;
    let attnum = 0;
    if (expr.kind === 'ColumnRef' && expr.levelsUp === 0) {
      const c = scope.items.flatMap((it) => it.columns).find((x) => x.index === expr.index);
      if (c) { tableOid = c.tableOid; attnum = c.attnum; }
    }
    const recordFields = recordFieldsOf(expr, es);
    out.push({ expr, name: (rt.name as string | undefined) ?? figureColname(rt.val), tableOid, attnum, ...(recordFields === undefined ? {} : { recordFields }) });
  }
  return out;
}

/**
 * GROUP BY / ORDER BY item resolution (findTargetlistEntrySQL92): an integer constant is a select-list
 * position; a bare name matches a select-list alias (for GROUP BY only when it is not an input column).
 */
function resolveSqlItem(b: Binder, node: unknown, targets: readonly Target[], scope: Scope, es: ExprScope, clause: string, inputFirst: boolean): Expr {
  const s = resolveSortItem(b, { node }, targets, scope, es, clause, inputFirst);
  if (s.target === undefined) return s.expr!;
  const expr = targets[s.target]!.expr;
  // `SELECT sum(x) … GROUP BY 1`: the select-list item was bound where aggregates are allowed (checkTargetListEntrySQL92)
  if (someExpr(expr, (e) => e.kind === 'Aggregate')) throw pgError(SqlState.grouping_error, `aggregate functions are not allowed in ${clause}`);
  if (someExpr(expr, (e) => e.kind === 'WindowFunc')) throw pgError(SqlState.windowing_error, `window functions are not allowed in ${clause}`);
  return expr;
}

function resolveSortItem(b: Binder, sb: Node, targets: readonly Target[], scope: Scope, es: ExprScope, clause: string, inputFirst = false): SortItem {
  const node = sb.node;
  const [tag, n] = tagOf(node);
  const ord = ordinalOf(node);
  if (ord !== undefined) {
    if (ord < 1 || ord > targets.length) throw pgError(SqlState.invalid_column_reference, `${clause} position ${ord} is not in select list`, pos(locOf(n)));
    return { target: ord - 1, sb };
  }
  if (tag === 'ColumnRef' && (n.fields as Node[]).length === 1 && (n.fields as Node[])[0]!.String !== undefined) {
    const name = strVal((n.fields as Node[])[0]);
    const isInput = inputFirst && scope.resolveHere([name]) !== undefined;
    if (!isInput) {
      const matches = targets.map((t, i) => (t.name === name ? i : -1)).filter((i) => i >= 0);
      const distinct = matches.filter((i) => !matches.some((j) => j < i && exprEquals(targets[j]!.expr, targets[i]!.expr)));
      if (distinct.length > 1) throw pgError(SqlState.ambiguous_column, `${clause} "${name}" is ambiguous`, pos(locOf(n)));
      if (distinct.length === 1) return { target: distinct[0]!, sb };
    }
  }
  return { expr: bindExpr(b, node, es), sb };
}
