/**
 * FROM clause: relations (through search_path), CTE references, subqueries, set-returning functions and
 * joins (ON / USING / NATURAL, LATERAL). Each item becomes a plan plus RangeItems for name lookup.
 */
import { Oid, sqlType, type SqlType } from '../../common/pgtypes/oids.ts';
import { notSupported, pgError, undefinedTable } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { Expr } from '../logical/expr.ts';
import type { JoinType } from '../logical/join.ts';
import type { LogicalPlan, PlanColumn } from '../logical/plan.ts';
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import type { TableSource } from '../../catalog/table-source.ts';
import { coerceToBoolean, commonType, coerce, INT8 } from './coerce.ts';
import { bindExpr, locOf, makeOp, strVal, tagOf, withPosition } from './bind-expr.ts';
import { Scope, type RangeItem, type ScopeColumn } from './scope.ts';
import type { Binder, OutColumn } from './binder.ts';

type Node = Record<string, unknown>;

interface FromResult {
  readonly plan: LogicalPlan;
  readonly items: RangeItem[];
  /** must be re-evaluated per row of the items to its left */
  readonly lateral: boolean;
}

function pos(p: number | undefined): { position?: number } {
  return p === undefined ? {} : { position: p };
}

function shift(items: readonly RangeItem[], by: number): RangeItem[] {
  if (by === 0) return [...items];
  return items.map((it) => ({ ...it, columns: it.columns.map((c) => ({ ...c, index: c.index + by })) }));
}

/** Binds a FROM list into `scope` (comma = cross join, left-deep); returns the plan. */
export function bindFromList(b: Binder, from: readonly unknown[], scope: Scope): LogicalPlan {
  let plan: LogicalPlan | null = null;
  for (const node of from) {
    const left = plan;
    const r = bindFromItem(b, node, scope, scope.items);
    checkNameConflicts(scope.items, r.items);
    if (left === null) {
      plan = r.plan;
      for (const it of r.items) scope.add(it);
    } else {
      const width = left.columns.length;
      plan = makeJoin('inner', left, r.plan, null, r.lateral);
      for (const it of shift(r.items, width)) scope.add(it);
    }
  }
  return plan!;
}

function makeJoin(joinType: JoinType, left: LogicalPlan, right: LogicalPlan, condition: Expr | null, lateral: boolean): LogicalPlan {
  return { kind: 'Join', joinType, left, right, condition, lateral, columns: [...left.columns, ...right.columns] };
}

/** `leftItems`: the items to the left, visible to LATERAL subqueries and function arguments */
function bindFromItem(b: Binder, node: unknown, scope: Scope, leftItems: readonly RangeItem[]): FromResult {
  const [tag, n] = tagOf(node);
  const innerParent = (): Scope => {
    if (leftItems.length === 0) return Scope.passThrough(scope);
    const lat = new Scope(scope.parent, scope);
    for (const it of leftItems) lat.add(it);
    return lat;
  };
  switch (tag) {
    case 'RangeVar': return bindRangeVar(b, n);
    case 'RangeSubselect': {
      const lateral = n.lateral === true && leftItems.length > 0;
      const parent = lateral ? innerParent() : Scope.passThrough(scope);
      const sub = b.bindSelect(n.subquery as Node, parent);
      const alias = n.alias as Node | undefined;
      const item = itemFor((alias?.aliasname as string | undefined) ?? null, sub.columns, alias, undefined);
      return { plan: sub.plan, items: [item], lateral: lateral && sub.correlated };
    }
    case 'RangeFunction': return bindRangeFunction(b, n, innerParent(), leftItems.length > 0);
    case 'JoinExpr': return bindJoin(b, n, scope, leftItems);
    default: throw notSupported(`FROM item ${tag}`);
  }
}

function itemFor(alias: string | null, cols: readonly OutColumn[], aliasNode: Node | undefined, schema: string | undefined): RangeItem {
  const colnames = ((aliasNode?.colnames as Node[] | undefined) ?? []).map(strVal);
  if (colnames.length > cols.length) {
    throw pgError(SqlState.invalid_column_reference, `table "${alias}" has ${cols.length} columns available but ${colnames.length} columns specified`);
  }
  const columns: ScopeColumn[] = cols.map((c, i) => ({
    name: colnames[i] ?? c.name, type: c.type, index: i, tableOid: c.tableOid, attnum: c.attnum,
    ...(c.recordFields === undefined ? {} : { recordFields: c.recordFields }),
  }));
  return schema === undefined ? { alias, columns } : { alias, schema, columns };
}

/** Resolves a relation name: temp schema, then search_path (pg_catalog implicitly first) — or the given schema. */
export function lookupRelation(b: Binder, schema: string | undefined, name: string, position: number | undefined): RelationInfo {
  const cat = b.ctx.catalog;
  if (schema !== undefined) {
    const s = schema === 'pg_temp' && b.ctx.tempSchema ? b.ctx.tempSchema : schema;
    // parserOpenTable looks the schema up with missing_ok, so a missing schema reports the relation (42P01)
    const r = cat.schemaByName(s) === undefined ? undefined : cat.findRelation(s, name);
    if (r === undefined) throw undefinedTable(`${schema}.${name}`, position);
    return r;
  }
  const path = [...(b.ctx.tempSchema ? [b.ctx.tempSchema] : []), ...b.ctx.searchPath];
  if (!path.includes('pg_catalog')) path.splice(b.ctx.tempSchema ? 1 : 0, 0, 'pg_catalog');
  for (const s of path) {
    const r = cat.findRelation(s, name);
    if (r !== undefined) return r;
  }
  throw undefinedTable(name, position);
}

function bindRangeVar(b: Binder, n: Node): FromResult {
  const name = String(n.relname);
  const schema = n.schemaname as string | undefined;
  const alias = n.alias as Node | undefined;
  const position = locOf(n);
  if (n.catalogname !== undefined && n.catalogname !== b.ctx.catalog.database) {
    throw notSupported(`cross-database references are not implemented: ${String(n.catalogname)}.${schema}.${name}`, pos(position));
  }
  if (schema === undefined) {
    const cte = b.findCte(name);
    if (cte !== undefined) {
      const plan: LogicalPlan = cte.plan ?? { kind: 'WorkTableScan', id: cte.workTableId!, name, columns: cte.columns.map((c) => ({ name: c.name, type: c.type })) };
      return { plan, items: [itemFor((alias?.aliasname as string | undefined) ?? name, cte.columns, alias, undefined)], lateral: false };
    }
  }
  const rel = lookupRelation(b, schema, name, position);
  const asOf = n.lakegateAsOf as string | undefined;
  const asOfSource = asOf === undefined ? rel.source : timeTravel(rel.source, asOf, `${rel.schema}.${rel.name}`, position);
  // system columns (Iceberg _row_id, …) join the scan only when the statement names them; never in `*`
  const source = asOfSource.withSystemColumns?.((name) => b.mentions(name)) ?? asOfSource;
  const cols: OutColumn[] = source.columns.map((c, i) => ({ name: c.name, type: c.type, tableOid: rel.oid, attnum: c.system ? 0 : i + 1 }));
  const plan: LogicalPlan = {
    kind: 'TableScan', source, name: `${rel.schema}.${rel.name}`, tableOid: rel.oid,
    columns: cols.map((c) => ({ name: c.name, type: c.type })), ...(asOf === undefined ? {} : { asOf }),
  };
  const named = itemFor((alias?.aliasname as string | undefined) ?? name, cols, alias, rel.schema);
  const item = source === asOfSource ? named : { ...named, columns: named.columns.map((c, i) => (source.columns[i]!.system ? { ...c, starHidden: true } : c)) };
  const base = { ...item, relationOid: rel.oid };
  return { plan, items: [alias === undefined ? { ...base, unaliasedRelation: rel.oid } : base], lateral: false };
}

/** PostgreSQL's checkNameSpaceConflicts: two visible FROM items of one level may not share a name (42712). */
export function checkNameConflicts(existing: readonly RangeItem[], added: readonly RangeItem[]): void {
  for (const a of added) {
    if (a.alias === null || a.qualifiedHidden === true) continue;
    for (const e of existing) {
      if (e.alias !== a.alias || e.qualifiedHidden === true) continue;
      if (e.unaliasedRelation !== undefined && a.unaliasedRelation !== undefined && e.unaliasedRelation !== a.unaliasedRelation) continue;
      throw pgError('42712', `table name "${a.alias}" specified more than once`);
    }
  }
}

function bindRangeFunction(b: Binder, n: Node, argParent: Scope, hasLeft: boolean): FromResult {
  const fns = n.functions as Node[];
  if (n.is_rowsfrom === true || fns.length !== 1) throw notSupported('ROWS FROM()');
  const pair = (fns[0]!.List as Node).items as unknown[];
  if ((pair[1] !== undefined && Object.keys(pair[1] as object).length > 0) || n.coldeflist !== undefined) throw notSupported('column definition lists for functions');
  const [tag, fc] = tagOf(pair[0]);
  const alias = n.alias as Node | undefined;
  const argScope = new Scope(argParent);
  const e = isMultiUnnest(tag, fc)
    ? bindMultiUnnest(b, fc, argScope)
    : bindExpr(b, pair[0], { scope: argScope, clause: 'functions in FROM', allowAgg: false, allowWindow: false, allowSrf: true });
  const lateral = hasLeft && argScope.hasOuterRefs;
  const fname = tag === 'FuncCall' ? strVal((fc.funcname as Node[])[(fc.funcname as Node[]).length - 1]) : 'expr';
  const aliasName = (alias?.aliasname as string | undefined) ?? fname;
  let cols: PlanColumn[];
  let plan: LogicalPlan;
  if (e.kind === 'SetCall') {
    const multi = e.def.outColumns !== undefined;
    cols = multi ? e.def.outColumns!(e.argTypes).map((c) => ({ name: c.name, type: c.type })) : [{ name: aliasName === fname ? fname : aliasName, type: e.type }];
    if (!multi && alias?.aliasname !== undefined && alias.colnames === undefined) cols = [{ name: aliasName, type: e.type }];
    if (n.ordinality === true) cols.push({ name: 'ordinality', type: INT8 });
    plan = { kind: 'FunctionScan', name: e.name, def: e.def, args: e.args, argTypes: e.argTypes, multiColumn: multi, ordinality: n.ordinality === true, columns: cols };
  } else {
    cols = [{ name: alias?.aliasname !== undefined ? aliasName : fname, type: e.type.oid === Oid.unknown ? sqlType(Oid.text) : e.type }];
    const row: Expr[] = [e];
    if (n.ordinality === true) {
      cols.push({ name: 'ordinality', type: INT8 });
      row.push({ kind: 'Literal', value: 1n, type: INT8 });
    }
    plan = { kind: 'Values', rows: [row], columns: cols };
  }
  const out = cols.map((c) => ({ ...c, tableOid: 0, attnum: 0 }));
  return { plan, items: [itemFor(aliasName, out, alias, undefined)], lateral };
}

/** `unnest(a, b, ...)` in FROM: PostgreSQL's parser expands it to ROWS FROM(unnest(a), unnest(b), ...) (transformRangeFunction). */
function isMultiUnnest(tag: string, fc: Node): boolean {
  if (tag !== 'FuncCall' || ((fc.args as unknown[] | undefined)?.length ?? 0) < 2) return false;
  if (fc.agg_star === true || fc.agg_distinct === true || fc.func_variadic === true || fc.agg_order !== undefined || fc.over !== undefined) return false;
  const names = (fc.funcname as Node[]).map(strVal);
  return names[names.length - 1] === 'unnest' && (names.length === 1 || (names.length === 2 && names[0] === 'pg_catalog'));
}

/** binds each `unnest(arg_i)` on its own (so each argument resolves as PostgreSQL's) and zips them into one SetCall */
function bindMultiUnnest(b: Binder, fc: Node, argScope: Scope): Expr {
  const opts = { scope: argScope, clause: 'functions in FROM', allowAgg: false, allowWindow: false, allowSrf: true } as const;
  const parts = (fc.args as unknown[]).map((arg) => bindExpr(b, { FuncCall: { ...fc, args: [arg] } }, opts));
  const args: Expr[] = [];
  const argTypes: SqlType[] = [];
  for (const p of parts) {
    if (p.kind !== 'SetCall') throw notSupported('ROWS FROM()');
    args.push(p.args[0]!);
    argTypes.push(p.argTypes[0]!);
  }
  const def = b.ctx.functions.routines('unnest').find((d) => d.kind === 'set' && d.args.length === args.length && d.variadic === undefined);
  if (def === undefined || def.kind !== 'set') throw notSupported('ROWS FROM() with more than 4 functions');
  return { kind: 'SetCall', name: 'unnest', def, args, argTypes, type: argTypes[0]! };
}

function bindJoin(b: Binder, n: Node, scope: Scope, outerLeft: readonly RangeItem[]): FromResult {
  const JOIN_TYPES: Record<string, JoinType> = { JOIN_INNER: 'inner', JOIN_LEFT: 'left', JOIN_RIGHT: 'right', JOIN_FULL: 'full' };
  const joinType = JOIN_TYPES[String(n.jointype)] as JoinType;
  if (joinType === undefined) throw notSupported(`join type ${String(n.jointype)}`);
  const left = bindFromItem(b, n.larg, scope, outerLeft);
  const right = bindFromItem(b, n.rarg, scope, left.items);
  if (right.lateral && (joinType === 'right' || joinType === 'full')) {
    throw pgError(SqlState.invalid_column_reference, `The combining JOIN type must be INNER or LEFT for a LATERAL reference.`);
  }
  checkNameConflicts(left.items, right.items);
  const width = left.plan.columns.length;
  const items = [...left.items, ...shift(right.items, width)];
  const joinScope = new Scope(scope.parent, scope);
  for (const it of items) joinScope.add(it);
  let condition: Expr | null = null;
  let names: string[] = [];
  if (n.isNatural === true) {
    const lnames = left.items.flatMap((it) => it.columns.filter((c) => !c.usingHidden).map((c) => c.name));
    const rnames = new Set(right.items.flatMap((it) => it.columns.filter((c) => !c.usingHidden).map((c) => c.name)));
    names = [...new Set(lnames.filter((x) => rnames.has(x)))];
  } else if (n.usingClause !== undefined) {
    names = (n.usingClause as Node[]).map(strVal);
  }
  const merged: { name: string; l: Expr; r: Expr; lc: ScopeColumn; rc: ScopeColumn }[] = [];
  if (names.length > 0 || n.isNatural === true) {
    const conds: Expr[] = [];
    for (const name of names) {
      const lc = findUsing(items.slice(0, left.items.length), name, 'left');
      const rc = findUsing(items.slice(left.items.length), name, 'right');
      const l: Expr = { kind: 'ColumnRef', index: lc.index, levelsUp: 0, type: lc.type, name };
      const r: Expr = { kind: 'ColumnRef', index: rc.index, levelsUp: 0, type: rc.type, name };
      conds.push(makeOp(b, '=', l, r, locOf(n)));
      merged.push({ name, l, r, lc, rc });
    }
    condition = conds.length === 0 ? null : conds.length === 1 ? conds[0]! : { kind: 'BoolOp', op: 'and', args: conds, type: conds[0]!.type };
  } else if (n.quals !== undefined) {
    const raw = bindExpr(b, n.quals, { scope: joinScope, clause: 'JOIN conditions', allowAgg: false, allowWindow: false, allowSrf: false });
    condition = coerceToBoolean(b.env, raw, 'JOIN/ON', locOf(n));
  }
  let plan = makeJoin(joinType, left.plan, right.plan, condition, right.lateral);
  let outItems = items;
  if (merged.length > 0) {
    // USING/NATURAL: the merged columns come first in `*` and hide both inputs' columns from unqualified lookup
    const extra: Expr[] = merged.map((m) => {
      if (joinType === 'full') {
        const t = commonType(b.env, [m.l.type, m.r.type], 'JOIN/USING');
        return { kind: 'Coalesce', args: [coerce(b.env, m.l, t, 'i'), coerce(b.env, m.r, t, 'i')], type: t };
      }
      return joinType === 'right' ? m.r : m.l;
    });
    const base = plan.columns.length;
    const refs: Expr[] = plan.columns.map((c, i) => ({ kind: 'ColumnRef', index: i, levelsUp: 0, type: c.type, name: c.name }));
    plan = { kind: 'Projection', input: plan, exprs: [...refs, ...extra], columns: [...plan.columns, ...merged.map((m, i) => ({ name: m.name, type: extra[i]!.type }))] };
    const mergedItem: RangeItem = {
      alias: (n.join_using_alias as Node | undefined)?.aliasname as string ?? null,
      columns: merged.map((m, i) => {
        const src = joinType === 'right' ? m.rc : m.lc;
        return { name: m.name, type: extra[i]!.type, index: base + i, tableOid: joinType === 'full' ? 0 : src.tableOid, attnum: joinType === 'full' ? 0 : src.attnum };
      }),
    };
    outItems = items.map((it) => ({ ...it, columns: it.columns.map((c) => (names.includes(c.name) ? { ...c, usingHidden: true } : c)) }));
    outItems = [mergedItem, ...outItems];
  }
  const alias = n.alias as Node | undefined;
  if (alias !== undefined) {
    const visible = outItems.flatMap((it) => it.columns.filter((c) => !c.usingHidden && !c.starHidden));
    const colnames = ((alias.colnames as Node[] | undefined) ?? []).map(strVal);
    const joinItem: RangeItem = { alias: String(alias.aliasname), columns: visible.map((c, i) => ({ ...c, name: colnames[i] ?? c.name })) };
    outItems = [...outItems.map((it) => ({ ...it, qualifiedHidden: true, columns: it.columns.map((c) => ({ ...c, usingHidden: true })) })), joinItem];
  }
  return { plan, items: outItems, lateral: left.lateral };
}

function findUsing(items: readonly RangeItem[], name: string, side: string): ScopeColumn {
  const found = items.flatMap((it) => it.columns.filter((c) => c.name === name && !c.usingHidden));
  if (found.length === 0) throw pgError(SqlState.undefined_column, `column "${name}" specified in USING clause does not exist in ${side} table`);
  if (found.length > 1) throw pgError(SqlState.ambiguous_column, `common column name "${name}" appears more than once in ${side} table`);
  return found[0]!;
}

export { withPosition };

/** FOR SYSTEM_VERSION / SYSTEM_TIME AS OF: the source pinned to that snapshot (its schema may differ) */
function timeTravel(source: TableSource, asOf: string, name: string, position: number | undefined): TableSource {
  if (source.at === undefined) throw notSupported(`time travel on "${name}" (only Iceberg tables keep history)`, pos(position));
  return source.at(asOf);
}
